"use strict";
// Crossed Words Solitaire: the 17×17 board with its coordinates (rows and columns 1-17, as
// the verifier's report counts them) and bonus squares, the letters placed by the current
// line marked, the hand and the three piles, the words and points of the line, a legend.
Arbiter.register("crossed_words", {
  render(frame, element) {
    const { gettext, ngettext, interpolate } = Arbiter;
    const names = { T: gettext("triple word"), D: gettext("double word"), 3: gettext("triple letter"), 2: gettext("double letter") };
    const { grid, row: rowLabel } = Arbiter.board("cw-grid", frame.grid[0].length);
    const placed = new Set((frame.placed || []).map(([r, c]) => `${r},${c}`));
    frame.grid.forEach((row, r) => {
      rowLabel(r);
      [...row].forEach((cell, c) => {
        const bonus = frame.bonus[r][c];
        const el = document.createElement("span");
        el.className = `cw-cell cw-b${bonus === "." ? "0" : bonus}` + (placed.has(`${r + 1},${c + 1}`) ? " cw-new" : "");
        el.textContent = cell === "." ? (bonus === "." ? "" : bonus) : cell;
        if (cell !== ".") el.classList.add("cw-letter");
        const where = { row: r + 1, column: c + 1, bonus: names[bonus] };
        el.title = interpolate(names[bonus] ? gettext("row %(row)s, column %(column)s: %(bonus)s") : gettext("row %(row)s, column %(column)s"), where, true);
        grid.appendChild(el);
      });
    });
    element.appendChild(grid);
    element.appendChild(
      Arbiter.legend([
        ["cw-bT", `T ${names.T}`], ["cw-bD", `D ${names.D}`], ["cw-b3", `3 ${names[3]}`],
        ["cw-b2", `2 ${names[2]}`], ["cw-new", gettext("placed by this line")],
      ]),
    );
    const facts = document.createElement("div");
    facts.className = "cw-facts";
    const line = (label, value) => {
      const p = document.createElement("p");
      const b = document.createElement("strong");
      b.textContent = `${label}: `;
      p.append(b, value);
      facts.appendChild(p);
    };
    if (frame.text) line(interpolate(gettext("Line %(n)s"), { n: frame.line }, true), frame.text);
    (frame.words || []).forEach(([word, points]) =>
      line(word, interpolate(ngettext("%(points)s point", "%(points)s points", points), { points }, true)),
    );
    if (frame.claimed !== null && frame.claimed !== undefined && frame.claimed !== frame.computed) {
      const claim = { claimed: frame.claimed, computed: frame.computed };
      line(gettext("Claimed"), interpolate(gettext("%(claimed)s, recomputed %(computed)s"), claim, true));
    }
    line(gettext("Hand"), frame.hand || gettext("(empty)"));
    frame.piles.forEach((pile, i) => line(interpolate(gettext("Pile %(n)s"), { n: i + 1 }, true), pile || gettext("(empty)")));
    line(gettext("Score"), String(frame.score));
    element.appendChild(facts);
  },
});
