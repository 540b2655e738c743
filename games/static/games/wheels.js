"use strict";
// The Solitaire 500: one moment of the race, every entrant's deck, sets discarded, round and
// moves, with a bar of how far along the puzzle it is; under it each entrant's own server log
// and stderr, where the replay holds them (its owner's and the judges', or everyone's after
// the contest).
Arbiter.register("wheels", {
  render(frame, element, replay, position) {
    const { gettext, interpolate, decimals } = Arbiter;
    // The last moment of a finished race: whoever has not finished did not (not "racing").
    const over = Boolean(replay.result) && position >= (replay.frames || []).length - 1;
    const decks = (replay.params && replay.params.decks) || 1;
    const seats = replay.seats || [];
    const table = document.createElement("table");
    table.className = "list wheels-race";
    const heads = [gettext("Entrant"), gettext("Deck"), gettext("Sets"), gettext("Round"), gettext("Moves"), gettext("Illegal"), gettext("Progress"), ""];
    const head = table.createTHead().insertRow();
    heads.forEach((heading) => {
      const th = document.createElement("th");
      th.textContent = heading;
      head.appendChild(th);
    });
    const body = document.createElement("tbody");
    (frame.entrants || []).forEach((e, i) => {
      const row = document.createElement("tr");
      const done = e.finished_s !== null ? decks * 13 : e.decks_won * 13 + e.discarded;
      const cells = [
        (seats[i] && seats[i].name) || e.name,
        interpolate(gettext("%(n)s of %(total)s"), { n: Math.min(e.deck, decks), total: decks }, true),
        interpolate(gettext("%(n)s of %(total)s"), { n: e.discarded, total: 13 }, true),
        e.round,
        e.moves,
        e.illegal,
      ];
      cells.forEach((value) => {
        const td = document.createElement("td");
        td.textContent = value;
        row.appendChild(td);
      });
      const bar = document.createElement("td");
      const meter = document.createElement("progress");
      meter.max = decks * 13;
      meter.value = done;
      meter.textContent = interpolate(gettext("%(n)s of %(total)s sets"), { n: done, total: decks * 13 }, true);
      bar.appendChild(meter);
      row.appendChild(bar);
      const state = document.createElement("td");
      state.textContent =
        e.finished_s !== null
          ? interpolate(gettext("finished at %(time)s s"), { time: decimals(e.finished_s, 1) }, true)
          : over
            ? gettext("did not finish")
            : e.connected
              ? gettext("racing")
              : e.connections
                ? gettext("disconnected")
                : gettext("not logged in");
      row.appendChild(state);
      body.appendChild(row);
    });
    table.appendChild(body);
    element.appendChild(table);
    if (!frame.started) {
      const wait = document.createElement("p");
      wait.textContent = gettext("Waiting for every entrant to log in before the start.");
      element.appendChild(wait);
    }
    seats.forEach((seat) => {
      for (const [key, title] of Object.entries({ server_log: gettext("server log"), stderr: gettext("stderr") })) {
        if (!seat[key]) continue;
        const details = document.createElement("details");
        const summary = document.createElement("summary");
        const log = { name: seat.name, log: title, login: seat.login };
        summary.textContent = interpolate(
          seat.login ? gettext("%(name)s: %(log)s (logged in as %(login)s)") : gettext("%(name)s: %(log)s"),
          log,
          true,
        );
        const pre = document.createElement("pre");
        pre.className = "wheels-log";
        pre.tabIndex = 0; // it scrolls: a keyboard reaches it
        pre.textContent = seat[key];
        details.append(summary, pre);
        element.appendChild(details);
      }
    });
  },
});
