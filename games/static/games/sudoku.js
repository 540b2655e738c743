"use strict";
// CodeCup Sudoku: the grid with its coordinates as the programs write them (rows A-I down the
// side, columns a-i along the top: "Dg7" is row D, column g, digit 7), the last move marked,
// both chess clocks, and a legend.
Arbiter.register("sudoku", {
  render(frame, element, replay, position) {
    const ROWS = "ABCDEFGHI", COLS = "abcdefghi";
    const last = frame.last && frame.last !== "!" ? ROWS.indexOf(frame.last[0]) * 9 + COLS.indexOf(frame.last[1]) : -1;
    const { grid, row: rowLabel } = Arbiter.board("sudoku-grid", 9, { colName: (c) => COLS[c], rowName: (r) => ROWS[r], size: "2.2rem" });
    [...frame.grid].forEach((ch, i) => {
      const r = Math.floor(i / 9), c = i % 9;
      if (c === 0) rowLabel(r);
      const el = document.createElement("span");
      el.textContent = ch === "." ? "" : ch;
      el.title = ROWS[r] + COLS[c];
      if (c === 0) el.classList.add("box-left");
      if (r === 0) el.classList.add("box-top");
      if (c % 3 === 2) el.classList.add("box-right");
      if (r % 3 === 2) el.classList.add("box-bottom");
      if (i === last) el.classList.add("last");
      grid.appendChild(el);
    });
    element.appendChild(grid);
    const clocks = replay.seats.map(() => 0);
    (replay.moves || []).slice(0, position).forEach((m) => { if (m.clock_s !== undefined) clocks[m.seat] = m.clock_s; });
    const limit = replay.clock && replay.clock.time_limit;
    // Which clock: CodeCup's is real time, and "0.95 s of 30" beside a move's "CPU 0.116 s" read as CPU.
    const kind = replay.clock && replay.clock.measure === "cpu" ? "CPU time" : "real time";
    const p = document.createElement("p");
    p.className = "tally clocks";
    p.textContent = `Clocks (${kind}): ` + replay.seats.map((s, i) => `${s.name} ${clocks[i].toFixed(2)} s${limit ? ` of ${limit}` : ""}`).join(" · ");
    element.appendChild(p);
    if (frame.last) {
      const claim = document.createElement("p");
      claim.className = "tally";
      claim.textContent = frame.last.endsWith("!") ? `Last move ${frame.last}: a claim of a single solution` : `Last move ${frame.last}`;
      element.appendChild(claim);
    }
    element.appendChild(Arbiter.legend([["sudoku-last", "the last move"], ["sudoku-box", "a 3×3 box, no digit twice in it"]]));
  },
});
