"use strict";
// Chomp: the bar of cookies with its coordinates (row 1 at the top, as the program's moves
// count them), the cookies the last chomp ate marked, and a legend.
Arbiter.register("chomp", {
  render(frame, element, replay, position) {
    const { gettext, interpolate } = Arbiter;
    const before = position > 0 ? replay.frames[position - 1] : null;
    const { grid, row: rowLabel } = Arbiter.board("chomp-grid", frame.grid[0].length);
    frame.grid.forEach((row, r) => {
      rowLabel(r);
      [...row].forEach((cell, c) => {
        const el = document.createElement("span");
        el.className = { X: "poison", O: "cookie", "*": "eaten" }[cell] || "eaten";
        if (before && cell === "*" && before.grid[r][c] !== "*") el.classList.add("new");
        const what = { X: gettext("the poison cookie"), O: gettext("a cookie") }[cell] || gettext("eaten");
        el.title = interpolate(gettext("row %(row)s, column %(column)s: %(what)s"), { row: r + 1, column: c + 1, what }, true);
        grid.appendChild(el);
      });
    });
    element.appendChild(grid);
    const tally = document.createElement("p");
    tally.className = "tally";
    const counts = { eaten: frame.eaten.join(" / "), chomps: frame.chomps.join(" / ") };
    tally.textContent = interpolate(gettext("Cookies eaten: %(eaten)s · chomps: %(chomps)s"), counts, true);
    element.appendChild(tally);
    element.appendChild(
      Arbiter.legend([
        ["chomp-key cookie", gettext("a cookie")], ["chomp-key poison", gettext("the poison cookie")],
        ["chomp-key eaten new", gettext("eaten by this chomp")], ["chomp-key eaten", gettext("eaten before")],
      ]),
    );
  },
});
