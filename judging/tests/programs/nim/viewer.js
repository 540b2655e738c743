"use strict";
// Nim's own viewer, for the platform's tests: draws the stones left, and tries what a hostile
// viewer would (read the site's cookies, fetch its API), writing what it got on the page.
Arbiter.register("game", {
  render(frame, element) {
    const text = Array.isArray(frame.text) ? frame.text.join(" ") : "";
    const line = document.createElement("p");
    line.className = "nim-own";
    line.textContent = `Nim's own viewer: ${text}`;
    element.appendChild(line);
    const probe = document.createElement("p");
    probe.className = "nim-probe";
    let cookie;
    try {
      cookie = document.cookie;
    } catch (e) {
      cookie = `no cookies (${e.name})`;
    }
    probe.textContent = `cookie: [${cookie}]`;
    element.appendChild(probe);
    fetch("/api/me/")
      .then(() => (probe.textContent += " fetch: allowed"))
      .catch(() => (probe.textContent += " fetch: refused"));
  },
});
