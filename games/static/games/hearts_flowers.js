"use strict";
// Hearts and Flowers: the board with its coordinates, the squares this move changed marked,
// and a legend of the pieces.
Arbiter.register("hearts_flowers", {
  render(frame, element, replay, position) {
    const before = position > 0 ? replay.frames[position - 1] : null;
    const n = frame.board.length;
    const grid = document.createElement("div");
    grid.className = "hf-grid coords";
    grid.style.gridTemplateColumns = `1.4rem repeat(${n}, 1fr)`;
    const label = (text) => {
      const el = document.createElement("b");
      el.className = "coord";
      el.textContent = text;
      return el;
    };
    grid.appendChild(label(""));
    for (let c = 0; c < n; c++) grid.appendChild(label(c + 1));
    frame.board.forEach((row, r) => {
      grid.appendChild(label(r + 1));
      [...row].forEach((cell, c) => {
        const el = document.createElement("span");
        el.className = { H: "heart", F: "flower" }[cell] || "empty";
        el.textContent = { H: "♥", F: "✿" }[cell] || "";
        if (before && before.board[r][c] !== cell) el.classList.add("new");
        el.title = `row ${r + 1}, column ${c + 1}`;
        grid.appendChild(el);
      });
    });
    element.appendChild(grid);
    const tally = document.createElement("p");
    tally.className = "tally";
    tally.textContent = `Moves made: ${frame.moves}`;
    element.appendChild(tally);
    const legend = document.createElement("p");
    legend.className = "legend";
    legend.textContent = "♥ a heart · ✿ a flower · a framed square: changed by this move";
    element.appendChild(legend);
  },
});
