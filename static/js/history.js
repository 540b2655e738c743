"use strict";
// The charts of a standings page and an entry's page: each element with data-history (the
// address of its lines, as JSON) is drawn as SVG with its legend. A line is its points after
// each slice of the stage's games, or, for a rated stage, its rating at each kept fit ("x":
// the stage's games then) with a band ("low" to "high": two sigmas each side). Drawn again
// whenever live.js has brought the page up to date.
(() => {
  const boxes = document.querySelectorAll("[data-history]");
  if (!boxes.length) return;
  // The page's language (Django's JavaScript catalogue, loaded before this script), else English.
  const gettext = window.gettext || ((s) => s);
  const ngettext = window.ngettext || ((one, many, n) => (n === 1 ? one : many));
  const interpolate =
    window.interpolate || ((format, values) => format.replace(/%\((\w+)\)s/g, (all, key) => String(values[key])));
  const colours = ["#1f5fbf", "#c2571a", "#2e7d32", "#7b1fa2", "#b3261e", "#00838f", "#6d4c41", "#546e7a", "#ad1457", "#827717"];
  const ns = "http://www.w3.org/2000/svg";
  let drawing = null;
  const redraw = () => {
    drawing = (drawing || Promise.resolve()).then(() => Promise.all([...boxes].map(draw))).catch(() => {}); // in order
  };
  document.addEventListener("arbiter:updated", redraw);
  redraw();

  async function draw(box) {
    const response = await fetch(box.dataset.history, { credentials: "same-origin", cache: "no-store" });
    if (!response.ok) return;
    const { lines, rated } = await response.json();
    const xs = (line) => line.x || line.points.map((_, i) => i);
    const all = lines.flatMap(xs);
    if (!lines.length || (!rated && new Set(all).size < 2)) {
      box.textContent = gettext("The chart needs games from more than one moment.");
      return;
    }
    const values = lines.flatMap((l) => l.points);
    const [left, right] = [Math.min(...all) - (new Set(all).size < 2 ? 1 : 0), Math.max(...all)]; // one fit: a dot
    // A rated chart spans the ratings and a typical band about them: one entry's wide band
    // (a new version, an unbeaten one) runs off the chart rather than flatten every line.
    const halves = lines.flatMap((l) => (l.high || []).map((h, k) => (h - l.low[k]) / 2)).sort((x, y) => x - y);
    const margin = halves.length ? halves[Math.floor(halves.length / 2)] : 0;
    const [bottom, top] = rated
      ? [Math.min(...values) - margin, Math.max(...values) + margin]
      : [0, Math.max(1, ...values)];
    const at = (x, y) => `${(1000 * (x - left)) / (right - left || 1)},${100 - (100 * (y - bottom)) / (top - bottom || 1)}`;
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", "0 0 1000 100");
    svg.setAttribute("preserveAspectRatio", "none");
    svg.setAttribute("overflow", "hidden");
    svg.setAttribute("role", "img");
    svg.setAttribute(
      "aria-label",
      rated
        ? interpolate(
            gettext("Ratings over the stage's games, %(low)s to %(high)s, each with its band of two sigmas"),
            { low: Math.round(bottom), high: Math.round(top) },
            true,
          )
        : interpolate(
            ngettext(
              "Points of the best entry over the games; the most %(top)s",
              "Points of the %(count)s best entries over the games; the most %(top)s",
              lines.length,
            ),
            { count: lines.length, top },
            true,
          ),
    );
    const legend = document.createElement("ul");
    legend.className = "history-legend";
    lines.forEach((line, i) => {
      const colour = colours[i % colours.length];
      const x = xs(line);
      if (line.low && line.high) {
        const band = document.createElementNS(ns, "polygon");
        const upper = x.map((v, k) => at(v, line.high[k]));
        const lower = x.map((v, k) => at(v, line.low[k])).reverse();
        band.setAttribute("points", [...upper, ...lower].join(" "));
        band.setAttribute("fill", colour);
        band.setAttribute("fill-opacity", "0.15");
        band.setAttribute("class", "band");
        svg.appendChild(band);
      }
      const path = document.createElementNS(ns, "polyline");
      path.setAttribute("points", x.map((v, k) => at(v, line.points[k])).join(" "));
      path.setAttribute("stroke", colour);
      path.setAttribute("fill", "none");
      path.setAttribute("vector-effect", "non-scaling-stroke");
      path.setAttribute("stroke-width", "2");
      path.setAttribute("stroke-linecap", "round"); // a line of one point still shows
      svg.appendChild(path);
      const item = document.createElement("li");
      item.style.setProperty("--colour", colour);
      const last = line.points.length - 1;
      const band = line.low
        ? `${Math.round(line.points[last])} ± ${Math.round((line.high[last] - line.low[last]) / 2)}`
        : `${line.points[last]}`;
      // a rated table's own figure (μ − kσ) where it has one; the line's last point beside
      item.textContent = line.rating != null ? `${line.name}: ${Math.round(line.rating)}` : `${line.name}: ${band}`;
      if (line.rating != null) item.title = interpolate(gettext("rating as in the table; the line: μ ± 2σ %(band)s"), { band }, true);
      legend.appendChild(item);
    });
    box.replaceChildren(svg, legend);
    box.dataset.drawn = new Date().toISOString();
  }
})();
