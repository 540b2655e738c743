"use strict";
// Chomp: the bar of cookies with its coordinates (row 1 at the top, as the program's moves
// count them), the cookies the last chomp ate marked, and a legend.
Arbiter.register("chomp", {
  render(frame, element, replay, position) {
    const before = position > 0 ? replay.frames[position - 1] : null;
    const { grid, row: rowLabel } = Arbiter.board("chomp-grid", frame.grid[0].length);
    frame.grid.forEach((row, r) => {
      rowLabel(r);
      [...row].forEach((cell, c) => {
        const el = document.createElement("span");
        el.className = { X: "poison", O: "cookie", "*": "eaten" }[cell] || "eaten";
        if (before && cell === "*" && before.grid[r][c] !== "*") el.classList.add("new");
        el.title = `row ${r + 1}, column ${c + 1}: ${{ X: "the poison cookie", O: "a cookie" }[cell] || "eaten"}`;
        grid.appendChild(el);
      });
    });
    element.appendChild(grid);
    const tally = document.createElement("p");
    tally.className = "tally";
    tally.textContent = `Cookies eaten: ${frame.eaten.join(" / ")} · chomps: ${frame.chomps.join(" / ")}`;
    element.appendChild(tally);
    element.appendChild(
      Arbiter.legend([
        ["chomp-key cookie", "a cookie"], ["chomp-key poison", "the poison cookie"],
        ["chomp-key eaten new", "eaten by this chomp"], ["chomp-key eaten", "eaten before"],
      ]),
    );
  },
});
