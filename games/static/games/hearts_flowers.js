"use strict";
// Hearts and Flowers: the board with its coordinates, the squares this move changed marked,
// and a legend of the pieces.
Arbiter.register("hearts_flowers", {
  render(frame, element, replay, position) {
    const { gettext, interpolate } = Arbiter;
    const before = position > 0 ? replay.frames[position - 1] : null;
    const n = frame.board.length;
    const { grid, row: rowLabel } = Arbiter.board("hf-grid", n);
    frame.board.forEach((row, r) => {
      rowLabel(r);
      [...row].forEach((cell, c) => {
        const el = document.createElement("span");
        el.className = { H: "heart", F: "flower" }[cell] || "empty";
        el.textContent = { H: "♥", F: "✿" }[cell] || "";
        if (before && before.board[r][c] !== cell) el.classList.add("new");
        el.title = interpolate(gettext("row %(row)s, column %(column)s"), { row: r + 1, column: c + 1 }, true);
        grid.appendChild(el);
      });
    });
    element.appendChild(grid);
    const tally = document.createElement("p");
    tally.className = "tally";
    tally.textContent = interpolate(gettext("Moves made: %(moves)s"), { moves: frame.moves }, true);
    element.appendChild(tally);
    element.appendChild(
      Arbiter.legend([
        ["hf-key heart", gettext("♥ a heart")], ["hf-key flower", gettext("✿ a flower")],
        ["hf-key new", gettext("changed by this move")],
      ]),
    );
  },
});
