// A block that scrolls (a wide table on a phone, a long log) is reached by Tab, so a keyboard
// can scroll it too; one that fits again is left out of the Tab order. Blocks given a tabindex
// by their template keep it.
"use strict";

(() => {
  const SCROLLERS = "table.list, pre, .frames-board"; // not text: a selector

  function mark() {
    for (const el of document.querySelectorAll(SCROLLERS)) {
      const scrolls = el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1;
      if (scrolls && !el.hasAttribute("tabindex")) {
        el.tabIndex = 0;
        el.dataset.scroller = "1";
      } else if (!scrolls && el.dataset.scroller) {
        el.removeAttribute("tabindex");
        delete el.dataset.scroller;
      }
    }
  }

  let pending = false;
  const soon = () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      mark();
    });
  };
  window.addEventListener("load", mark);
  window.addEventListener("resize", soon);
  // Pages that draw after loading (the replay viewer, live standings) change what scrolls.
  new MutationObserver(soon).observe(document.body, { childList: true, subtree: true });
})();
