"use strict";
// The standings' chart: each of the ten best entries' points after each slice of the stage's
// games (history.json), a line an entry, drawn as SVG with its legend. Drawn again whenever
// live.js has brought the table up to date (the chart and its legend once stayed as loaded).
(() => {
  const box = document.querySelector("[data-history]");
  if (!box) return;
  let drawing = null;
  const redraw = () => {
    drawing = (drawing || Promise.resolve()).then(draw).catch(() => {}); // one at a time, in order
  };
  document.addEventListener("arbiter:updated", redraw);
  redraw();

  async function draw() {
    const response = await fetch(box.dataset.history, { credentials: "same-origin", cache: "no-store" });
    if (!response.ok) return;
    const { lines } = await response.json();
    const steps = Math.max(0, ...lines.map((l) => l.points.length));
    if (!lines.length || steps < 2) {
      box.textContent = "The chart needs games from more than one moment.";
      return;
    }
    const top = Math.max(1, ...lines.flatMap((l) => l.points));
    const colours = ["#1f5fbf", "#c2571a", "#2e7d32", "#7b1fa2", "#b3261e", "#00838f", "#6d4c41", "#546e7a", "#ad1457", "#827717"];
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", `0 0 ${steps - 1} 100`);
    svg.setAttribute("preserveAspectRatio", "none");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", `Points of the ${lines.length} best entries over the games; the most ${top}`);
    const legend = document.createElement("ul");
    legend.className = "history-legend";
    lines.forEach((line, i) => {
      const path = document.createElementNS(ns, "polyline");
      path.setAttribute("points", line.points.map((p, x) => `${x},${100 - (100 * p) / top}`).join(" "));
      path.setAttribute("stroke", colours[i % colours.length]);
      path.setAttribute("fill", "none");
      path.setAttribute("vector-effect", "non-scaling-stroke");
      path.setAttribute("stroke-width", "2");
      svg.appendChild(path);
      const item = document.createElement("li");
      item.style.setProperty("--colour", colours[i % colours.length]);
      item.textContent = `${line.name}: ${line.points[line.points.length - 1]}`;
      legend.appendChild(item);
    });
    box.replaceChildren(svg, legend);
    box.dataset.drawn = new Date().toISOString();
  }
})();
