"use strict";
// Inside the sandboxed frame of an uploaded game's own viewer (/games/KEY/viewer.html): the
// frame has no origin of its own, no cookies and may fetch nothing (its Content-Security-
// Policy), so the game's script sees the replay it is given here and nothing else of the site.
// The page that holds the frame posts the replay once the frame says it is ready.
(() => {
  const root = document.getElementById("viewer");
  let mounted = false;
  window.addEventListener("message", (event) => {
    if (event.source !== window.parent || mounted || !event.data || typeof event.data !== "object") return;
    mounted = true;
    Arbiter.mount(root, event.data);
  });
  window.parent.postMessage({ arbiterViewer: "ready" }, "*");
})();
