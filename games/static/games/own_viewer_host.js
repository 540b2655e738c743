"use strict";
// On a match page of an uploaded game with a viewer of its own: fetch the replay (what this
// visitor may see, as the page's own viewer does) and give it to the sandboxed frame when the
// frame asks; nothing else crosses. The frame's document has no origin (its sandbox: the origin
// of its messages is "null"); a message from any origin, or a second asking, is answered with
// nothing, so the replay goes to the frame's first document only.
(() => {
  const frame = document.getElementById("own-viewer");
  if (!frame) return;
  // What the programs wrote for themselves (stderr, a run's output, a server's log): the page's
  // own viewer shows it to whoever may see it; the game's drawing has no use for it, and it is
  // the one part of a replay the game's own code (its referee) has not seen already.
  const PRIVATE = ["stderr", "output", "server_log", "printed"]; // not text: a replay's keys
  const withoutPrivate = (replay) => {
    const drop = (part) => {
      if (part && typeof part === "object") PRIVATE.forEach((key) => delete part[key]);
    };
    drop(replay);
    ["moves", "seats"].forEach((list) => Array.isArray(replay[list]) && replay[list].forEach(drop)); // not text: keys
    return replay;
  };
  const replay = fetch(frame.dataset.replay, { credentials: "same-origin" })
    .then((r) => (r.ok ? r.json() : null))
    .then((data) => (data && typeof data === "object" ? withoutPrivate(data) : null));
  let given = false;
  window.addEventListener("message", async (event) => {
    if (given || event.source !== frame.contentWindow || event.origin !== "null") return;
    if (!event.data || event.data.arbiterViewer !== "ready") return;
    given = true;
    const data = await replay;
    if (data) frame.contentWindow.postMessage(data, "*"); // "*": a document of no origin cannot be named
  });
})();
