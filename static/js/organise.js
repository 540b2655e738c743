"use strict";
// The organisers' contest form. The Preview button (which, without this script, sends the
// whole form back to be shown again with the preview) posts only the rules to the preview
// address and shows the HTML it answers, already sanitised by the site, as the contest's page
// will; typing in the rules refreshes it after a pause. Choosing a game puts its defaults in
// the placeholders of the parameters, the clock and the memory, and its parameters in words.
(() => {
  const form = document.getElementById("contest-form");
  if (!form) return;
  // The page's language (Django's JavaScript catalogue, loaded before this script), else English.
  const gettext = window.gettext || ((s) => s);
  const interpolate =
    window.interpolate || ((format, values) => format.replace(/%\((\w+)\)s/g, (all, key) => String(values[key])));
  const rules = form.elements.rules;
  const shown = document.getElementById("rules-preview");
  const token = form.elements.csrfmiddlewaretoken.value;
  let timer = null;

  async function preview() {
    const body = new FormData();
    body.append("rules", rules.value); // not text: a form field
    const response = await fetch(form.dataset.preview, {
      method: "POST",
      body,
      credentials: "same-origin",
      headers: { "X-CSRFToken": token },
    });
    shown.hidden = false;
    if (!response.ok) {
      shown.textContent = interpolate(gettext("No preview: the site answered %(status)s."), { status: response.status }, true);
      return;
    }
    shown.innerHTML = await response.text();
  }

  form.querySelector("button[name=preview]").addEventListener("click", (event) => {
    event.preventDefault();
    preview();
  });
  rules.addEventListener("input", () => {
    if (shown.hidden) return; // once asked for, the preview follows the text
    clearTimeout(timer);
    timer = setTimeout(preview, 600);
  });

  const defaults = JSON.parse(document.getElementById("game-defaults").textContent);
  const game = form.elements.game;
  game.addEventListener("change", () => {
    const chosen = defaults[game.value];
    if (!chosen) return;
    form.elements.game_params.placeholder = JSON.stringify(chosen.params);
    form.elements.clock.placeholder = JSON.stringify(chosen.clock);
    form.elements.memory_mb.placeholder = String(chosen.memory_mb);
    const help = document.getElementById("game-params-help");
    if (help) help.textContent = `${help.dataset.base} ${chosen.about}`;
  });
})();
