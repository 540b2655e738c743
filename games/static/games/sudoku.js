"use strict";
// CodeCup Sudoku: the grid with its coordinates as the programs write them (rows A-I down the
// side, columns a-i along the top: "Dg7" is row D, column g, digit 7), the last move marked,
// both chess clocks, and a legend.
Arbiter.register("sudoku", {
  render(frame, element, replay, position) {
    const { gettext, interpolate, decimals } = Arbiter;
    const ROWS = "ABCDEFGHI", COLS = "abcdefghi"; // not text: the grid's coordinates
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
    const cpu = replay.clock && replay.clock.measure === "cpu";
    const clock = (s, i) => {
      const spent = { name: s.name, time: decimals(clocks[i], 2), limit };
      return interpolate(limit ? gettext("%(name)s %(time)s s of %(limit)s") : gettext("%(name)s %(time)s s"), spent, true);
    };
    const all = replay.seats.map(clock).join(" · ");
    const p = document.createElement("p");
    p.className = "tally clocks";
    p.textContent = interpolate(cpu ? gettext("Clocks (CPU time): %(clocks)s") : gettext("Clocks (real time): %(clocks)s"), { clocks: all }, true);
    element.appendChild(p);
    if (frame.last) {
      const claim = document.createElement("p");
      claim.className = "tally";
      const said = frame.last.endsWith("!") ? gettext("Last move %(move)s: a claim of a single solution") : gettext("Last move %(move)s");
      claim.textContent = interpolate(said, { move: frame.last }, true);
      element.appendChild(claim);
    }
    element.appendChild(Arbiter.legend([["sudoku-last", gettext("the last move")], ["sudoku-box", gettext("a 3×3 box, no digit twice in it")]]));
  },
});
