"use strict";
// CodeCup Sudoku: the grid (rows A-I, columns a-i), the last move, and both chess clocks.
Arbiter.register("sudoku", {
  render(frame, element, replay, position) {
    const last = frame.last && frame.last !== "!" ? ("ABCDEFGHI".indexOf(frame.last[0]) * 9 + "abcdefghi".indexOf(frame.last[1])) : -1;
    const grid = document.createElement("div");
    grid.className = "sudoku-grid";
    [...frame.grid].forEach((ch, i) => {
      const el = document.createElement("span");
      el.textContent = ch === "." ? "" : ch;
      const r = Math.floor(i / 9), c = i % 9;
      el.title = "ABCDEFGHI"[r] + "abcdefghi"[c];
      if (c % 3 === 2 && c < 8) el.classList.add("box-right");
      if (r % 3 === 2 && r < 8) el.classList.add("box-bottom");
      if (i === last) el.classList.add("last");
      grid.appendChild(el);
    });
    element.appendChild(grid);
    const clocks = replay.seats.map(() => 0);
    (replay.moves || []).slice(0, position).forEach((m) => { if (m.clock_s !== undefined) clocks[m.seat] = m.clock_s; });
    const limit = replay.clock && replay.clock.time_limit;
    const p = document.createElement("p");
    p.className = "tally clocks";
    p.textContent = replay.seats.map((s, i) => `${s.name}: ${clocks[i].toFixed(2)} s${limit ? ` of ${limit}` : ""}`).join(" · ");
    element.appendChild(p);
    if (frame.last) {
      const claim = document.createElement("p");
      claim.className = "tally";
      claim.textContent = frame.last.endsWith("!") ? `Last move ${frame.last}: a claim of a single solution` : `Last move ${frame.last}`;
      element.appendChild(claim);
    }
  },
});
