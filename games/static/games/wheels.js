"use strict";
// The Solitaire 500: one moment of the race, every entrant's deck, sets discarded, round and
// moves, with a bar of how far along the puzzle it is; under it each entrant's own server log
// and stderr, where the replay holds them (its owner's and the judges', or everyone's after
// the contest).
Arbiter.register("wheels", {
  render(frame, element, replay, position) {
    // The last moment of a finished race: whoever has not finished did not (not "racing").
    const over = Boolean(replay.result) && position >= (replay.frames || []).length - 1;
    const decks = (replay.params && replay.params.decks) || 1;
    const seats = replay.seats || [];
    const table = document.createElement("table");
    table.className = "list wheels-race";
    table.innerHTML =
      "<thead><tr><th>Entrant</th><th>Deck</th><th>Sets</th><th>Round</th><th>Moves</th><th>Illegal</th><th>Progress</th><th></th></tr></thead>";
    const body = document.createElement("tbody");
    (frame.entrants || []).forEach((e, i) => {
      const row = document.createElement("tr");
      const done = e.finished_s !== null ? decks * 13 : e.decks_won * 13 + e.discarded;
      const cells = [
        (seats[i] && seats[i].name) || e.name,
        `${Math.min(e.deck, decks)} of ${decks}`,
        `${e.discarded} of 13`,
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
      meter.textContent = `${done} of ${decks * 13} sets`;
      bar.appendChild(meter);
      row.appendChild(bar);
      const state = document.createElement("td");
      state.textContent =
        e.finished_s !== null
          ? `finished at ${e.finished_s.toFixed(1)} s`
          : over
            ? "did not finish"
            : e.connected
              ? "racing"
              : e.connections
                ? "disconnected"
                : "not logged in";
      row.appendChild(state);
      body.appendChild(row);
    });
    table.appendChild(body);
    element.appendChild(table);
    if (!frame.started) {
      const wait = document.createElement("p");
      wait.textContent = "Waiting for every entrant to log in before the start.";
      element.appendChild(wait);
    }
    seats.forEach((seat) => {
      for (const [key, title] of [
        ["server_log", "server log"],
        ["stderr", "stderr"],
      ]) {
        if (!seat[key]) continue;
        const details = document.createElement("details");
        const summary = document.createElement("summary");
        summary.textContent = `${seat.name}: ${title}${seat.login ? ` (logged in as ${seat.login})` : ""}`;
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
