"use strict";
// The frames of any game, drawn without a script of the game (docs/referee-protocol.md,
// "Frames"): `grid` as a table of one-character cells, the cells in `marks` highlighted, the
// lines of `text` under the board and `scores` one a seat. The viewer uses it for a game that
// has no renderer of its own. A frame was written by an uploaded program: its text reaches the
// page only as textContent, never as markup, and a malformed frame draws what it can.
Arbiter.register("*frames", {
  render(frame, element, replay) {
    const { gettext, ngettext, interpolate } = Arbiter;
    const MAX_CELLS = 100; // a board is cut at 100 x 100 cells
    const MAX_LINES = 200;
    const f = frame && typeof frame === "object" && !Array.isArray(frame) ? frame : {};
    const seats = replay && Array.isArray(replay.seats) ? replay.seats : [];
    const seatName = (i) => (seats[i] && typeof seats[i].name === "string" ? seats[i].name : interpolate(gettext("seat %(n)s"), { n: i }, true));
    const named = (line) => line.replace(/\bseat (\d+)\b/g, (all, i) => (seats[i] ? seatName(i) : all));
    const paragraph = (content, cls) => {
      const p = document.createElement("p");
      p.className = cls;
      p.textContent = content;
      return p;
    };
    let drawn = false;

    if (Array.isArray(f.grid)) {
      let cut = f.grid.length > MAX_CELLS;
      const rows = f.grid.slice(0, MAX_CELLS).map((row) => {
        if (typeof row !== "string") return [];
        const cells = Array.from(row.slice(0, 2 * MAX_CELLS)); // a character is at most 2 code units
        if (row.length > 2 * MAX_CELLS || cells.length > MAX_CELLS) cut = true;
        return cells.slice(0, MAX_CELLS);
      });
      const marked = new Set();
      (Array.isArray(f.marks) ? f.marks.slice(0, MAX_CELLS * MAX_CELLS) : []).forEach((mark) => {
        if (Array.isArray(mark) && Number.isInteger(mark[0]) && Number.isInteger(mark[1])) marked.add(`${mark[0]},${mark[1]}`);
      });
      const table = document.createElement("table");
      table.className = "frames-grid";
      rows.forEach((cells, r) => {
        const tr = table.insertRow();
        cells.forEach((cell, c) => {
          const td = tr.insertCell();
          td.textContent = cell;
          td.dataset.cell = cell; // CSS colours a character: td[data-cell="X"]
          if (marked.has(`${r},${c}`)) td.classList.add("mark");
        });
      });
      const scroller = document.createElement("div");
      scroller.className = "frames-board";
      scroller.appendChild(table);
      element.appendChild(scroller);
      if (cut) element.appendChild(paragraph(interpolate(gettext("The board is cut at %(n)s × %(n)s cells."), { n: MAX_CELLS }, true), "tally"));
      drawn = true;
    }

    const text = typeof f.text === "string" ? [f.text] : Array.isArray(f.text) ? f.text : [];
    text.slice(0, MAX_LINES).forEach((line) => {
      element.appendChild(paragraph(named(typeof line === "string" ? line : JSON.stringify(line) || ""), "frames-text"));
      drawn = true;
    });
    if (text.length > MAX_LINES) {
      const more = text.length - MAX_LINES;
      element.appendChild(paragraph(interpolate(ngettext("… and %(n)s more line", "… and %(n)s more lines", more), { n: more }, true), "tally"));
    }

    if (Array.isArray(f.scores) && f.scores.length) {
      const scores = f.scores.slice(0, 100).map((score, i) => `${seatName(i)}: ${typeof score === "number" ? score : "?"}`);
      element.appendChild(paragraph(interpolate(gettext("Scores: %(scores)s"), { scores: scores.join(" · ") }, true), "tally frames-scores"));
      drawn = true;
    }

    if (!drawn) element.appendChild(paragraph(gettext("This frame has no board, text or scores to show."), "tally"));
  },
});
