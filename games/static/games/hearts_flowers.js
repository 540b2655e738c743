"use strict";
Arbiter.register("hearts_flowers", {
  render(frame, element) {
    const n = frame.board.length;
    const grid = document.createElement("div");
    grid.className = "hf-grid";
    grid.style.gridTemplateColumns = `repeat(${n}, 1fr)`;
    frame.board.forEach((row) => {
      [...row].forEach((cell) => {
        const el = document.createElement("span");
        el.className = { H: "heart", F: "flower" }[cell] || "empty";
        el.textContent = { H: "♥", F: "✿" }[cell] || "";
        grid.appendChild(el);
      });
    });
    element.appendChild(grid);
    const tally = document.createElement("p");
    tally.className = "tally";
    tally.textContent = `Moves made: ${frame.moves}`;
    element.appendChild(tally);
  },
});
