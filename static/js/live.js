"use strict";
// A part of a page that follows the contest's events without a reload: the element with
// data-live (the address of the newest event's id) is fetched again, from this page's own
// address, whenever that id moves. It asks every 1.5 s while the page is visible.
(() => {
  const live = document.querySelector("[data-live]");
  if (!live) return;
  let head = null;
  let busy = false;

  async function refresh() {
    const response = await fetch(location.href, { credentials: "same-origin" });
    if (!response.ok) return;
    const fresh = new DOMParser().parseFromString(await response.text(), "text/html").querySelector("#" + live.id);
    if (fresh) {
      live.innerHTML = fresh.innerHTML;
      live.dataset.updated = new Date().toISOString();
    }
  }

  async function poll() {
    if (busy || document.visibilityState !== "visible") return;
    busy = true;
    try {
      const response = await fetch(live.dataset.live, { credentials: "same-origin" });
      if (response.ok) {
        const { id } = await response.json();
        if (head !== null && id !== head) await refresh();
        head = id;
      }
    } catch (e) {
      // offline for a moment: the next poll tries again
    } finally {
      busy = false;
    }
  }

  poll();
  setInterval(poll, 1500);
})();
