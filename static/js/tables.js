"use strict";
// A table wider than a phone's screen scrolls inside itself (arbiter.css, narrow screens), its
// first columns (the rank, the entry) kept in view; this says so above it, since nothing else
// shows that columns are cut off at the right edge. Again after a live part is fetched anew.
(() => {
  const HINT = "scroll-hint";
  const gettext = window.gettext || ((s) => s); // the page's language, else English

  function mark() {
    for (const table of document.querySelectorAll("table.list")) {
      const wide = table.scrollWidth > table.clientWidth + 1;
      const before = table.previousElementSibling;
      const hinted = before !== null && before.classList.contains(HINT);
      if (wide && !hinted) {
        const hint = document.createElement("p");
        hint.className = HINT;
        hint.textContent = gettext("More columns to the right: scroll the table sideways →");
        table.before(hint);
      } else if (!wide && hinted) {
        before.remove();
      }
    }
  }

  window.addEventListener("resize", mark);
  document.addEventListener("arbiter:updated", mark);
  mark();
})();
