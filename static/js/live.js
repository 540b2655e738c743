"use strict";
// A part of a page that follows the contest without a reload: the element with data-live
// (the address of the newest event's id) is fetched again, from this page's own address,
// whenever that id moves from the one the page was rendered with (data-head; asked every
// 1.5 s while the page is visible), and every data-every milliseconds while the fetched part
// still carries it (a game being played).
// When the part's data-state changes and it has data-reload-on-change, the whole page is
// loaded again once (a match that has just ended brings its replay viewer).
//
// A screen reader is told the part's one line marked data-announce when it changes (its
// progress, its status), not the whole part again at each refresh.
(() => {
  const live = document.querySelector("[data-live]");
  if (!live) return;
  const said = document.createElement("p");
  said.className = "visually-hidden";
  said.setAttribute("aria-live", "polite");
  said.id = "live-announce";
  live.after(said);
  const line = (part) => (part.querySelector("[data-announce]") || { textContent: "" }).textContent.trim();
  // Not the first poll's answer: an event between the render and that poll (a second or more
  // on a slow link or a loaded host) would have left the page behind until the next one.
  let head = live.dataset.head ? Number(live.dataset.head) : null;
  let busy = false;

  async function refresh() {
    const response = await fetch(location.href, { credentials: "same-origin" });
    if (!response.ok) return;
    const fresh = new DOMParser().parseFromString(await response.text(), "text/html").querySelector("#" + live.id);
    if (!fresh) return;
    if (live.hasAttribute("data-reload-on-change") && fresh.dataset.state !== live.dataset.state) {
      location.reload();
      return;
    }
    const before = line(live);
    live.innerHTML = fresh.innerHTML;
    if (line(live) && line(live) !== before) said.textContent = line(live);
    live.dataset.state = fresh.dataset.state || "";
    live.dataset.every = fresh.dataset.every || "";
    live.dataset.updated = new Date().toISOString();
    document.dispatchEvent(new Event("arbiter:updated"));
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

  let last = Date.now();
  async function tick() {
    const every = parseInt(live.dataset.every || "0", 10);
    if (every && Date.now() - last >= every && !busy && document.visibilityState === "visible") {
      last = Date.now();
      busy = true;
      try {
        await refresh();
      } catch (e) {
        // the next tick tries again
      } finally {
        busy = false;
      }
    }
  }

  poll();
  setInterval(poll, 1500);
  setInterval(tick, 250);
})();
