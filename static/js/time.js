"use strict";
// Times in the visitor's own time zone: every <time datetime=...> is shown in local time (the
// server writes UTC, what a page without scripts shows). data-format="time" shows the time of
// day alone, "date" the day alone; data-countdown adds how long is left, updated every second.
// A live part of a page that has just been fetched again sends "arbiter:updated".
(() => {
  // The page's language (Django's JavaScript catalogue, loaded before this script), else English.
  const gettext = window.gettext || ((s) => s);
  const interpolate =
    window.interpolate || ((format, values) => format.replace(/%\((\w+)\)s/g, (all, key) => String(values[key])));
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  // Dates as the page's language writes them; the browser's own variant of it where it has one
  // (en-GB's day before month on an English page).
  const page = document.documentElement.lang || undefined;
  const locale = page && navigator.language.split("-")[0] === page ? navigator.language : page;
  const formats = {
    "": new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" }),
    time: new Intl.DateTimeFormat(locale, { timeStyle: "medium" }),
    date: new Intl.DateTimeFormat(locale, { dateStyle: "medium" }),
    seconds: new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "medium" }),
  };

  function left(ms) {
    if (ms <= 0) return gettext("now");
    const s = Math.floor(ms / 1000);
    const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60);
    if (d) return interpolate(gettext("%(d)s d %(h)s h"), { d, h }, true);
    if (h) return interpolate(gettext("%(h)s h %(m)s min"), { h, m }, true);
    return interpolate(gettext("%(m)s min %(s)s s"), { m, s: s % 60 }, true);
  }

  function update() {
    document.querySelectorAll("time[datetime]").forEach((el) => {
      const when = new Date(el.getAttribute("datetime"));
      if (isNaN(when)) return;
      const style = el.dataset.format || "";
      const local = (formats[style] || formats[""]).format(when);
      el.title = interpolate(gettext("%(datetime)s (shown in %(zone)s)"), { datetime: el.getAttribute("datetime"), zone }, true);
      // A long form names the zone; a short one in a table leaves it to the title.
      const shown = style === "" ? `${local} (${zone})` : local;
      el.textContent = el.hasAttribute("data-countdown")
        ? interpolate(gettext("%(when)s, in %(left)s"), { when: shown, left: left(when - Date.now()) }, true)
        : shown;
    });
  }

  update();
  document.addEventListener("arbiter:updated", update);
  if (document.querySelector("time[data-countdown]")) setInterval(update, 1000);
})();
