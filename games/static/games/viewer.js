// The replay viewer: reads a match's replay JSON and steps through it. Each game adds a
// renderer with Arbiter.register(name, {render(frame, element, replay)}); a game without one
// (an uploaded game) is drawn by frames.js, registered as "*frames". Nothing else is read:
// the viewer works the same on a saved replay file.
"use strict";

const Arbiter = (() => {
  const renderers = {};
  // The page's language: Django's JavaScript catalogue (loaded before this script) where the
  // page has it, else English (a saved page, or a frame the catalogue did not reach). The game
  // renderers use these too (Arbiter.gettext...), and so read what the viewer reads.
  const gettext = window.gettext || ((s) => s);
  const ngettext = window.ngettext || ((one, many, n) => (n === 1 ? one : many));
  const interpolate =
    window.interpolate || ((format, values) => format.replace(/%\((\w+)\)s/g, (all, key) => String(values[key])));
  // "0.116" in English, "0,116" in Dutch: figures as the page's language writes them.
  const lang = document.documentElement.lang || undefined;
  const decimals = (value, digits) =>
    new Intl.NumberFormat(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: false }).format(value);

  function text(tag, content, cls) {
    const el = document.createElement(tag);
    el.textContent = content;
    if (cls) el.className = cls;
    return el;
  }

  function positionFromHash(fallback) {
    const m = /move=(\d+)/.exec(location.hash);
    return m ? parseInt(m[1], 10) : fallback;
  }

  function mount(root, replay) {
    // A built-in game's renderer, else an uploaded game's own ("game", in its sandboxed frame:
    // see own_viewer.js), else the generic one that draws any game's frames.
    const renderer = renderers[replay.game] || renderers.game || renderers["*frames"];
    const board = root.querySelector("#board");
    const scrub = root.querySelector("#scrub");
    const jump = root.querySelector("#jump");
    const info = root.querySelector("#move-info");
    const list = root.querySelector("#move-list");
    const link = root.querySelector("#link");
    const playButton = root.querySelector('[data-act="play"]');
    // Where each move is said as a sentence for a screen reader (the board is a picture).
    const announce = root.querySelector("#announce");
    const moves = replay.moves || [];
    const last = moves.length;
    const seatName = (i) => (replay.seats[i] && replay.seats[i].name) || interpolate(gettext("seat %(n)s"), { n: i }, true);
    // A move of no seat is a moment of a race (every seat at once): its label alone.
    // "seat 1 ate the poison cookie": the entry's name, not its seat number.
    const named = (reason) => String(reason || "").replace(/\bseat (\d+)\b/g, (all, i) => (replay.seats[i] ? replay.seats[i].name : all));
    const label = (move) => (move.seat === undefined ? move.move : `${seatName(move.seat)}: ${move.move || move.status || "?"}`);
    let position = 0;
    let timer = null;
    let shown = false; // the first position is the page's own, not a change to announce

    root.querySelector("#total").textContent = last;
    scrub.max = last;
    jump.max = last;
    // Each move is a button: reachable by Tab, chosen with Enter or Space as with a click.
    moves.forEach((move, i) => {
      const item = document.createElement("li");
      const button = text("button", label(move), "move");
      button.type = "button";
      button.addEventListener("click", () => show(i + 1));
      item.dataset.position = i + 1;
      item.appendChild(button);
      list.appendChild(item);
    });

    // Per-move times as a chart: a bar a move (its CPU, else its wall time), a colour a seat,
    // the current move marked; a bar is a way to that move.
    const times = root.querySelector("#times");
    const timed = moves.filter((m) => typeof m.cpu_s === "number" || typeof m.wall_s === "number");
    let bars = [];
    if (times && timed.length) {
      const ns = "http://www.w3.org/2000/svg";
      const value = (m) => (m.cpu_s || 0) > 0 ? m.cpu_s : m.wall_s || 0;
      const top = Math.max(...moves.map(value), 1e-6);
      const svg = document.createElementNS(ns, "svg");
      svg.setAttribute("viewBox", `0 0 ${moves.length} 40`);
      svg.setAttribute("preserveAspectRatio", "none");
      svg.setAttribute("role", "img");
      svg.setAttribute("aria-label", interpolate(gettext("Time of each move; the longest %(time)s s"), { time: decimals(top, 3) }, true));
      bars = moves.map((move, i) => {
        const h = Math.max(0.5, (40 * value(move)) / top);
        const bar = document.createElementNS(ns, "rect");
        bar.setAttribute("x", i + 0.1);
        bar.setAttribute("width", 0.8);
        bar.setAttribute("y", 40 - h);
        bar.setAttribute("height", h);
        bar.setAttribute("class", `seat${move.seat === undefined ? 0 : move.seat}`);
        const title = document.createElementNS(ns, "title");
        title.textContent = `${label(move)}: ${decimals(value(move), 3)} s`;
        bar.appendChild(title);
        bar.addEventListener("click", () => show(i + 1));
        svg.appendChild(bar);
        return bar;
      });
      times.appendChild(text("p", interpolate(gettext("Time a move (CPU; the longest %(time)s s)"), { time: decimals(top, 3) }, true), "times-label"));
      times.appendChild(svg);
    }

    function show(p) {
      position = Math.max(0, Math.min(last, p));
      const frame = replay.frames[Math.min(position, replay.frames.length - 1)];
      board.replaceChildren();
      if (renderer) renderer.render(frame, board, replay, position);
      else board.appendChild(scrolls(text("pre", JSON.stringify(frame, null, 1))));
      scrub.value = position;
      scrub.setAttribute("aria-valuetext", interpolate(gettext("%(position)s of %(total)s"), { position, total: last }, true));
      jump.value = position;
      link.href = `#move=${position}`;
      history.replaceState(null, "", `#move=${position}`);
      info.replaceChildren();
      if (announce && shown) announce.textContent = spoken(position);
      shown = true;
      if (position === 0) {
        info.appendChild(text("p", gettext("The start of the game.")));
      } else {
        const move = moves[position - 1];
        const title = move.seat === undefined ? at(move) : played(move, seatName(move.seat));
        info.appendChild(text("p", title, "move-title"));
        if (move.cpu_s !== undefined) {
          const spent = { cpu: decimals(move.cpu_s, 3), wall: decimals(move.wall_s, 3) };
          info.appendChild(text("p", interpolate(gettext("CPU %(cpu)s s · wall %(wall)s s"), spent, true), "times"));
        }
        if (move.status) info.appendChild(text("p", interpolate(gettext("Status: %(status)s"), { status: move.status }, true), "status"));
        if (move.output !== undefined) info.appendChild(scrolls(text("pre", move.output, "output")));
        if (move.stderr !== undefined) {
          info.appendChild(text("h4", gettext("stderr")));
          info.appendChild(scrolls(text("pre", move.stderr || gettext("(nothing)"), "stderr")));
        } else if (replay.stderr !== undefined) {
          // An output-only run: its program ran once, and wrote one stderr for all its moves.
          info.appendChild(text("h4", gettext("stderr (of the whole run)")));
          info.appendChild(scrolls(text("pre", replay.stderr || gettext("(nothing)"), "stderr")));
        }
      }
      if (position === last && replay.result) info.appendChild(text("p", result(), "result"));
      for (const item of list.children) {
        const current = Number(item.dataset.position) === position;
        item.classList.toggle("current", current);
        if (current) item.firstChild.setAttribute("aria-current", "step");
        else item.firstChild.removeAttribute("aria-current");
      }
      bars.forEach((bar, i) => bar.classList.toggle("current", i + 1 === position));
    }

    // Whole sentences, so a language may order their parts its own way.
    const at = (move) => interpolate(gettext("At %(moment)s"), { moment: move.move }, true);
    const played = (move, who) =>
      interpolate(
        gettext("Move %(n)s: %(seat)s played %(move)s"),
        { n: move.n, seat: who, move: move.move || gettext("no legal move") },
        true,
      );
    const result = () => interpolate(gettext("Result: %(reason)s"), { reason: named(replay.result.reason) }, true);

    // "Move 12: seat 1 (alice) played e2e4": the seat as the programs know it and the entry
    // as the page names it; a race's moment by its label; the result after the last move.
    function spoken(p) {
      let said = gettext("The start of the game.");
      if (p > 0) {
        const move = moves[p - 1];
        const seat = interpolate(gettext("seat %(n)s"), { n: move.seat }, true);
        const who = replay.seats[move.seat]
          ? interpolate(gettext("seat %(n)s (%(name)s)"), { n: move.seat, name: seatName(move.seat) }, true)
          : seat;
        said = move.seat === undefined ? at(move) : played(move, who);
        if (move.status) said += ` (${move.status})`;
      }
      if (p === last && replay.result) said += `. ${result()}`;
      return said;
    }

    function toggle() {
      if (timer) {
        clearInterval(timer);
        timer = null;
        playButton.textContent = gettext("Play");
        return;
      }
      if (position === last) show(0);
      playButton.textContent = gettext("Pause");
      timer = setInterval(() => {
        if (position >= last) return toggle();
        show(position + 1);
      }, 600);
    }

    const actions = {
      first: () => show(0),
      prev: () => show(position - 1),
      next: () => show(position + 1),
      last: () => show(last),
      play: toggle,
    };
    root.querySelectorAll("[data-act]").forEach((b) => b.addEventListener("click", () => actions[b.dataset.act]()));
    scrub.addEventListener("input", () => show(parseInt(scrub.value, 10)));
    jump.addEventListener("change", () => show(parseInt(jump.value, 10) || 0));
    document.addEventListener("keydown", (e) => {
      if (e.altKey || e.ctrlKey || e.metaKey) return; // the browser's own (Alt+← is Back)
      // Typing in a field elsewhere on the page keeps its keys; the slider's are the viewer's.
      const field = e.target instanceof HTMLTextAreaElement || e.target instanceof HTMLSelectElement || e.target.isContentEditable;
      if (field || (e.target instanceof HTMLInputElement && e.target.type !== "range")) return;
      if (e.target instanceof HTMLButtonElement && (e.key === " " || e.key === "Enter")) return; // the button's own
      const key = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last", " ": "play" }[e.key]; // not text
      if (key) {
        e.preventDefault();
        actions[key]();
      }
    });
    // A #move=N link opens at that move, and so does editing the address afterwards.
    window.addEventListener("hashchange", () => {
      const wanted = positionFromHash(-1);
      if (wanted >= 0 && wanted !== position) show(wanted);
    });
    show(positionFromHash(last));
    root.dataset.ready = "1";
  }

  async function start(root) {
    const response = await fetch(root.dataset.replay, { credentials: "same-origin" });
    if (!response.ok) {
      const said = interpolate(gettext("The replay could not be loaded (%(status)s)."), { status: response.status }, true);
      root.replaceChildren(text("p", said, "message error"));
      return;
    }
    mount(root, await response.json());
  }

  // A block that may scroll sideways (a program's output, its stderr) is reached by Tab, so a
  // keyboard can scroll it too.
  function scrolls(el) {
    el.tabIndex = 0;
    return el;
  }

  // A board as a CSS grid with its coordinates along the top and before each row (``row(r)``
  // adds that label; the game adds the row's squares). Numbered from 1 unless the game names
  // them as its programs do (Sudoku's rows A-I, columns a-i); ``size`` is a column's width.
  // Columns may shrink below their content (minmax(0, ...)): a 17-wide board fits a phone.
  function board(className, cols, { colName = (c) => c + 1, rowName = (r) => r + 1, size = "minmax(0, 1fr)" } = {}) {
    const grid = document.createElement("div");
    grid.className = `${className} coords`;
    grid.style.gridTemplateColumns = `minmax(0, 1.4rem) repeat(${cols}, ${size})`;
    const label = (content) => grid.appendChild(text("b", String(content), "coord"));
    label("");
    for (let c = 0; c < cols; c++) label(colName(c));
    return { grid, row: (r) => label(rowName(r)) };
  }

  // A legend: [css class of a sample square, what it means] pairs, in a line under the board.
  function legend(entries) {
    const p = text("p", "", "legend");
    entries.forEach(([cls, meaning]) => {
      const key = document.createElement("span");
      key.className = `key ${cls}`;
      key.setAttribute("aria-hidden", "true");
      p.append(key, ` ${meaning} `);
    });
    return p;
  }

  return {
    register: (name, renderer) => (renderers[name] = renderer),
    start, mount, board, legend, scrolls, gettext, ngettext, interpolate, decimals,
  };
})();
