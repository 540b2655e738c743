"use strict";
Arbiter.register("chomp", {
  render(frame, element) {
    const grid = document.createElement("div");
    grid.className = "chomp-grid";
    grid.style.gridTemplateColumns = `repeat(${frame.grid[0].length}, 1fr)`;
    frame.grid.forEach((row, r) => {
      [...row].forEach((cell, c) => {
        const el = document.createElement("span");
        el.className = { X: "poison", O: "cookie", "*": "eaten" }[cell] || "eaten";
        el.title = `row ${r + 1}, column ${c + 1}`;
        grid.appendChild(el);
      });
    });
    element.appendChild(grid);
    const tally = document.createElement("p");
    tally.className = "tally";
    tally.textContent = `Cookies eaten: ${frame.eaten.join(" / ")} · chomps: ${frame.chomps.join(" / ")}`;
    element.appendChild(tally);
  },
});
