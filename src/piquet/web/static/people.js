// Finding people in the lobby (web/people.py): who is online, seeks for rated games, the
// games in play to watch; and the notice that it is your turn when the tab is hidden.
// No build step; text is always set as text.

import { api, fill, h, toast } from "./dom.js";
import { explain } from "./learn.js";

const TAB = (() => {
  const a = new Uint8Array(16);
  crypto.getRandomValues(a);
  return Array.from(a, (b) => b.toString(16).padStart(2, "0")).join("");
})();

function onlineWords(data) {
  const names = data.online || [];
  const guests = data.guests || 0;
  const parts = [...names];
  if (guests) parts.push(`${guests} guest${guests === 1 ? "" : "s"}`);
  return parts.length ? "Online now: " + parts.join(", ") + "." : "Nobody else is online now.";
}

// The lobby's section: who is online, the seek form (logged in), open seeks, games in
// play.  ``account``: the account logged in, or null; ``go(path)``: open a page.
export function peopleSection(account, opts, go) {
  const online = h("p", { class: "muted small", id: "online" }, "…");
  const seeksList = h("ul", { class: "seeks", id: "seeks" });
  const playing = h("ul", { class: "in-play-list", id: "in-play" });
  const seekBox = h("div", { class: "seek", id: "seek-box" });
  const section = h("section", { class: "people panel", id: "people",
    "aria-labelledby": "people-title" },
  h("h2", { id: "people-title" }, "Players"),
  online,
  h("h3", {}, "Seek a rated game"),
  seekBox,
  h("h4", {}, "Waiting for an opponent"), seeksList,
  h("div", { id: "games-in-play" }, h("h3", {}, "Games in play"),
    h("p", { class: "muted small" }, "Rated games under way: watch one (you see what the " +
      "players have shown or played, never a hand)."), playing));
  let waitTimer = null;

  function seekForm() {
    if (!account) {
      fill(seekBox, h("p", { class: "muted small" }, "Log in (above) to seek a rated game: " +
        "you are matched with a player of the same rule set, format and about your rating."));
      explain(seekBox);
      return;
    }
    const rated = opts.rules.filter((r) => r.formats.some((f) => f === "game" ||
      f === "partie"));
    const rules = h("select", { id: "seek-rules" }, rated.map((r) => h("option", {
      value: r.name, selected: r.name === "rubicon" }, r.title)));
    const format = h("select", { id: "seek-format" });
    const fillFormats = () => {
      const r = rated.find((x) => x.name === rules.value) || rated[0];
      fill(format, r.formats.filter((f) => f === "game" || f === "partie").map((f) =>
        h("option", { value: f }, r.format_labels[f])));
    };
    rules.addEventListener("change", fillFormats);
    fillFormats();
    const range = h("select", { id: "seek-range" },
      h("option", { value: "200" }, "rated within 200 of me"),
      h("option", { value: "400" }, "rated within 400 of me"),
      h("option", { value: "" }, "anyone"));
    // a clock: only a seek with the same clock is matched (the server keeps it)
    const clock = h("select", { id: "seek-clock" },
      h("option", { value: "" }, "No clock"),
      h("option", { value: "m5+3" }, "Live: 5 minutes each + 3 s a move"),
      h("option", { value: "m10+5" }, "Live: 10 minutes each + 5 s a move"),
      h("option", { value: "m30+10" }, "Live: 30 minutes each + 10 s a move"),
      h("option", { value: "d1" }, "Correspondence: 1 day a move"),
      h("option", { value: "d3" }, "Correspondence: 3 days a move"));
    const clockOf = () => {
      const v = clock.value;
      if (!v) return null;
      if (v.startsWith("d")) return { days: Number(v.slice(1)) };
      const [m, inc] = v.slice(1).split("+");
      return { minutes: Number(m), increment: Number(inc) };
    };
    const form = h("form", { class: "seek-form", id: "seek-form" },
      h("label", { class: "field" }, "Rule set", rules),
      h("label", { class: "field" }, "Format", format),
      h("label", { class: "field" }, "Opponent", range),
      h("label", { class: "field" }, "Clock", clock),
      h("button", { type: "submit", class: "act primary", id: "seek-go" }, "Seek"));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      try {
        const res = await api("POST", "/api/seeks", { rules: rules.value,
          format: format.value, range: range.value ? Number(range.value) : null,
          clock: clockOf() });
        if (res.matched) { go("/play/" + res.game); return; }
        waiting();
      } catch (err) { toast(err.message, "bad"); }
    });
    fill(seekBox, form);
    explain(seekBox);
  }

  function waiting() {
    const stop = h("button", { type: "button", class: "act", id: "seek-withdraw",
      onclick: async () => {
        clearTimeout(waitTimer);
        try { await api("DELETE", "/api/seeks/mine"); } catch { /* gone */ }
        seekForm();
        refresh();
      } }, "Withdraw");
    fill(seekBox, h("p", { id: "seek-waiting", role: "status" },
      "Waiting for an opponent… The game starts as soon as one seeks the same (rule " +
      "set, format and clock), or accepts your seek in the open challenges. "), stop);
    explain(seekBox);
    const poll = async () => {
      if (!section.isConnected) return;
      try {
        const mine = (await api("GET", "/api/seeks/mine")).seek;
        if (mine && mine.game) { go("/play/" + mine.game); return; }
        if (!mine) { seekForm(); return; }
      } catch { /* try again */ }
      waitTimer = setTimeout(poll, 2000);
    };
    waitTimer = setTimeout(poll, 2000);
    refresh();
  }

  async function refresh() {
    try {
      const [who, seeks, games] = await Promise.all([
        api("POST", "/api/presence", { tab: TAB }),
        api("GET", "/api/seeks"), api("GET", "/api/games-in-play")]);
      online.textContent = onlineWords(who);
      fill(seeksList, seeks.seeks.length ? seeks.seeks.map((s) => h("li", {},
        `${s.name} (${s.rating}) · ${s.title} · ${s.format_label}` +
        (s.range ? ` · within ${s.range}` : " · anyone") +
        ` · ${s.clock ? "clock: " + s.clock : "no clock"}`))
        : h("li", { class: "muted small" }, "No seek right now."));
      fill(playing, games.games.length ? games.games.map((g) => h("li", { class: "in-play" },
        h("a", { href: g.url }, g.players.join(" v. ")),
        h("span", { class: "muted small" }, ` · ${g.title} · ${g.format_label}`)))
        : h("li", { class: "muted small" }, "No rated game in play right now."));
      explain(seeksList);
      explain(playing);
    } catch { /* the lobby goes on without it */ }
  }

  seekForm();
  if (account) {
    api("GET", "/api/seeks/mine").then((r) => {
      if (r.seek && r.seek.waiting) waiting();
    }, () => {});
  }
  refresh();
  const every = setInterval(() => {
    if (!section.isConnected) { clearInterval(every); clearTimeout(waitTimer); return; }
    refresh();
  }, 30000);
  return section;
}

// ------------------------------------------------------------------ your turn
// When it becomes your turn while the tab is hidden: the title (app.js), a short sound,
// and the browser's notification if the player allowed it.
let audio = null;
export function yourTurnNotice(text) {
  if (!document.hidden) return;
  try {
    audio = audio || new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.4);
  } catch { /* no sound here */ }
  if ("Notification" in window && Notification.permission === "granted") {
    try { new Notification("Piquet", { body: text, tag: "piquet-turn" }); }
    catch { /* not allowed here */ }
  }
}

// The offer to be told by the browser (asked only on a click, as browsers require).
export function noticeOffer() {
  if (!("Notification" in window) || Notification.permission !== "default") return null;
  const b = h("button", { type: "button", class: "link small", id: "notify-ask",
    onclick: async () => {
      try { await Notification.requestPermission(); } catch { /* refused */ }
      b.remove();
    } }, "Tell me when it is my turn (a browser notification)");
  b._reuse = true;  // its handler reads nothing of the render: kept while drawn the same
  return b;
}
