"use strict";
// Times in the visitor's own time zone: every <time datetime=...> is shown in local time (the
// server writes UTC, what a page without scripts shows). data-format="time" shows the time of
// day alone, "date" the day alone; data-countdown adds how long is left, updated every second.
// A live part of a page that has just been fetched again sends "arbiter:updated".
(() => {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const formats = {
    "": new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" }),
    time: new Intl.DateTimeFormat(undefined, { timeStyle: "medium" }),
    date: new Intl.DateTimeFormat(undefined, { dateStyle: "medium" }),
    seconds: new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" }),
  };

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
      const style = el.dataset.format || "";
      const local = (formats[style] || formats[""]).format(when);
      el.title = `${el.getAttribute("datetime")} (shown in ${zone})`;
      // A long form names the zone; a short one in a table leaves it to the title.
      const shown = style === "" ? `${local} (${zone})` : local;
      el.textContent = el.hasAttribute("data-countdown") ? `${shown}, in ${left(when - Date.now())}` : shown;
    });
  }

  update();
  document.addEventListener("arbiter:updated", update);
  if (document.querySelector("time[data-countdown]")) setInterval(update, 1000);
})();
