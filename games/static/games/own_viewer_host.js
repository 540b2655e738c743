"use strict";
// On a match page of an uploaded game with a viewer of its own: fetch the replay (what this
// visitor may see, as the page's own viewer does) and give it to the sandboxed frame when the
// frame asks; nothing else crosses.
(() => {
  const frame = document.getElementById("own-viewer");
  if (!frame) return;
  const replay = fetch(frame.dataset.replay, { credentials: "same-origin" }).then((r) => (r.ok ? r.json() : null));
  window.addEventListener("message", async (event) => {
    if (event.source !== frame.contentWindow || !event.data || event.data.arbiterViewer !== "ready") return;
    const data = await replay;
    if (data) frame.contentWindow.postMessage(data, "*");
  });
})();
