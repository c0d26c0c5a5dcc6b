// The lobby: open challenges anyone may accept, and offering a friend game in it.
// Server routes: /api/lobby (see docs/web.md).  Text is always set as text.

import { api, fill, h, listen, toast } from "./dom.js";

// This browser's seats live where the table keeps them (app.js: "piquet.games").
function keepSeat(id, data) {
  let all = {};
  try { all = JSON.parse(localStorage.getItem("piquet.games") || "{}") || {}; } catch { all = {}; }
  all[id] = Object.assign(all[id] || {}, data);
  localStorage.setItem("piquet.games", JSON.stringify(all));
}

// This browser's own challenges: {challenge id: [game id, token]}.
function mine() {
  let all = {};
  try { all = JSON.parse(localStorage.getItem("piquet.games") || "{}") || {}; } catch { all = {}; }
  const out = {};
  for (const [id, g] of Object.entries(all)) {
    if (g && typeof g.offered === "string") out[g.offered] = [id, g.token];
  }
  return out;
}

function ago(seconds) {
  if (seconds < 60) return "just now";
  const m = Math.round(seconds / 60);
  if (m < 60) return `${m} min ago`;
  const hrs = Math.round(m / 60);
  return `${hrs} h ago`;
}

// The home page's section: the open challenges, and a form to post one.
// go(path) is the page's navigation.
export function lobbySection(go) {
  const list = h("ul", { class: "challenges", id: "challenges", "aria-live": "polite" });
  const section = h("section", { class: "lobby-open", id: "lobby",
    "aria-labelledby": "lobby-title" },
  h("h2", { id: "lobby-title" }, "Open challenges"),
  h("p", { class: "muted small" }, "Players waiting for an opponent. Accept one to take " +
    "the seat at once."), list);
  const post = challengeForm(go);
  section.append(post);

  async function refresh() {
    if (!section.isConnected && section.dataset.loaded) return;  // the page moved on
    let data;
    try { data = await api("GET", "/api/lobby"); } catch (e) {
      fill(list, h("li", { class: "muted" }, e.message));
      return;
    }
    section.dataset.loaded = "1";
    if (!data.challenges.length) {
      fill(list, h("li", { class: "muted", id: "no-challenges" },
        "No open challenge right now: post one below."));
    } else {
      const own = mine();
      fill(list, data.challenges.map((c) => h("li", { class: "challenge",
        dataset: { challenge: c.id } },
      h("span", { class: "challenger" }, own[c.id] ? `${c.name} (you)` : c.name),
      h("span", { class: "muted" }, `${c.rules} · ${c.format_label} · ` +
        (c.rated ? "rated" : "casual") +
        (c.kind === "seek" ? ` (${c.name}'s rating ${c.rating}` +
          (c.range ? `, accepts players within ${c.range})` : ")") : "") +
        ` · ${c.clock ? "clock: " + c.clock : "no clock"} · ${ago(c.age)}`),
      own[c.id]
        ? h("span", { class: "own" },
          h("button", { type: "button", class: "act small", onclick: () =>
            go("/play/" + own[c.id][0]) }, "Your table"),
          h("button", { type: "button", class: "act small withdraw",
            "aria-label": "Withdraw your challenge",
            onclick: (e) => withdraw(c, own[c.id], e.currentTarget) }, "Withdraw"))
        : h("button", { type: "button", class: "act small accept",
          "aria-label": `Accept ${c.name}'s ${c.rated ? "rated" : "casual"} challenge: ` +
            `${c.rules}, ${c.format_label}, ${c.clock || "no clock"}`,
          onclick: (e) => accept(c, e.currentTarget) }, "Accept"))));
    }
    clearTimeout(section.timer);
    section.timer = setTimeout(() => { if (section.isConnected) refresh(); }, 5000);
  }

  async function withdraw(c, [gameId, token], button) {
    button.disabled = true;
    try {
      await api("DELETE", `/api/lobby/${c.id}`, undefined, token);
      keepSeat(gameId, { offered: false });
      toast("Challenge withdrawn; the invitation link still works.");
    } catch (e) { toast(e.message, "bad"); }
    refresh();
  }

  async function accept(c, button) {
    button.disabled = true;
    if (c.kind === "seek") {  // a rated game sought: accepting it needs an account
      try {
        const res = await api("POST", `/api/seeks/${c.id}/accept`, {});
        keepSeat(res.game, { token: res.token, seat: res.seat, rules: c.rules,
          format: c.format, opponent: c.name, created: Date.now(), ack: 0, listed: true });
        go("/play/" + res.game);
      } catch (e) {
        toast(e.status === 401 ? "A rated game needs an account: log in (above) to accept " +
          "this one." : e.message, "bad");
        refresh();
      }
      return;
    }
    const typed = (document.getElementById("name") || {}).value;
    if (typed) localStorage.setItem("piquet.name", typed);
    const name = typed || localStorage.getItem("piquet.name") || null;
    try {
      const res = await api("POST", `/api/lobby/${c.id}/accept`, { name });
      keepSeat(res.id, { token: res.token, seat: res.seat, rules: c.rules, format: c.format,
        opponent: c.name, created: Date.now(), ack: 0 });
      go("/play/" + res.id);
    } catch (e) {
      toast(e.message, "bad");
      refresh();
    }
  }
  refresh();
  return section;
}

function challengeForm(go) {
  const rules = h("select", { id: "challenge-rules", "aria-label": "Rule set" });
  const fmt = h("select", { id: "challenge-format", "aria-label": "Format" });
  const btn = h("button", { type: "submit", class: "act", id: "post-challenge" },
    "Post a challenge");
  const form = h("form", { class: "challenge-form", id: "challenge-form" },
    h("h3", {}, "Challenge anyone"), rules, fmt, btn);
  let opts = null;
  function formats() {
    const r = opts.rules.find((x) => x.name === rules.value) || opts.rules[0];
    fill(fmt, r.formats.filter((f) => f !== "pool").map((f) => h("option",
      { value: f, selected: f === r.default_format }, r.format_labels[f])));
  }
  api("GET", "/api/options").then((o) => {
    opts = o;
    fill(rules, o.rules.map((r) => h("option", { value: r.name,
      selected: r.name === o.default_rules }, r.name)));
    formats();
  }).catch((e) => toast(e.message, "bad"));
  rules.addEventListener("change", formats);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    btn.disabled = true;
    const typed = (document.getElementById("name") || {}).value;
    if (typed) localStorage.setItem("piquet.name", typed);
    const name = typed || localStorage.getItem("piquet.name") || null;
    try {
      const made = await api("POST", "/api/games", { rules: rules.value, format: fmt.value,
        opponent: "friend", name });
      keepSeat(made.id, { token: made.token, seat: made.seat, rules: rules.value,
        format: fmt.value, opponent: "a friend", created: Date.now(), invites: made.invites,
        ack: 0 });
      const posted = await api("POST", "/api/lobby",
        { game: made.id, invite: made.invites[0].invite }, made.token);
      keepSeat(made.id, { offered: posted.id });
      go("/play/" + made.id);
    } catch (err) {
      toast(err.message, "bad");
      btn.disabled = false;
    }
  });
  return form;
}

// Next to the invitation link on the table: offer the waiting seat in the lobby.
export function offerButton(gameId, token, invites) {
  const inv = (invites || [])[0];
  if (!inv) return null;
  let offered = false;
  try {
    offered = !!(JSON.parse(localStorage.getItem("piquet.games") || "{}")[gameId] || {}).offered;
  } catch { offered = false; }
  const b = h("button", { type: "button", class: "act small", id: "offer-lobby",
    disabled: offered }, offered ? "Offered in the lobby" : "Offer in the lobby");
  listen(b, "click", async () => {  // holds inv: marked, so a render draws it anew
    b.disabled = true;
    try {
      const posted = await api("POST", "/api/lobby", { game: gameId, invite: inv.invite }, token);
      keepSeat(gameId, { offered: posted.id });
      b.textContent = "Offered in the lobby";
      toast("Your game is in the lobby: the first to accept takes the seat.");
    } catch (e) {
      toast(e.message, "bad");
      b.disabled = false;
    }
  });
  return b;
}
