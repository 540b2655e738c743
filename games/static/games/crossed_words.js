"use strict";
// Crossed Words Solitaire: the 17×17 board with its coordinates (rows and columns 1-17, as
// the verifier's report counts them) and bonus squares, the letters placed by the current
// line marked, the hand and the three piles, the words and points of the line, a legend.
Arbiter.register("crossed_words", {
  render(frame, element) {
    const names = { T: "triple word", D: "double word", 3: "triple letter", 2: "double letter" };
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
        el.title = `row ${r + 1}, column ${c + 1}${names[bonus] ? ": " + names[bonus] : ""}`;
        grid.appendChild(el);
      });
    });
    element.appendChild(grid);
    element.appendChild(
      Arbiter.legend([
        ["cw-bT", "T triple word"], ["cw-bD", "D double word"], ["cw-b3", "3 triple letter"],
        ["cw-b2", "2 double letter"], ["cw-new", "placed by this line"],
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
    if (frame.text) line(`Line ${frame.line}`, frame.text);
    (frame.words || []).forEach(([word, points]) => line(word, `${points} points`));
    if (frame.claimed !== null && frame.claimed !== undefined && frame.claimed !== frame.computed) {
      line("Claimed", `${frame.claimed}, recomputed ${frame.computed}`);
    }
    line("Hand", frame.hand || "(empty)");
    frame.piles.forEach((pile, i) => line(`Pile ${i + 1}`, pile || "(empty)"));
    line("Score", String(frame.score));
    element.appendChild(facts);
  },
});
