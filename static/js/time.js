"use strict";
// Times in the visitor's own time zone: every <time datetime=...> is shown in local time, and
// those marked data-countdown also say how long is left, updated every second.
(() => {
  const format = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;

  function left(ms) {
    if (ms <= 0) return "now";
    const s = Math.floor(ms / 1000);
    const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60);
    if (d) return `${d} d ${h} h`;
    if (h) return `${h} h ${m} min`;
    return `${m} min ${s % 60} s`;
  }

  function update() {
    document.querySelectorAll("time[datetime]").forEach((el) => {
      const when = new Date(el.getAttribute("datetime"));
      if (isNaN(when)) return;
      const local = `${format.format(when)} (${zone})`;
      el.title = `${el.getAttribute("datetime")}`;
      el.textContent = el.hasAttribute("data-countdown") ? `${local}, in ${left(when - Date.now())}` : local;
    });
  }

  update();
  if (document.querySelector("time[data-countdown]")) setInterval(update, 1000);
})();
