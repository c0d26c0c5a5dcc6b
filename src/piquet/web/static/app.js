// The Piquet card table: lobby, table, invitation, replay.  No build step.
// Everything shown comes from the server's view of this seat; text is always set as text
// (textContent), never as markup.

import { backSVG, cardName, cardShort, cardSVG, sortHand } from "./cards.js";
import { api, fill, h, toast } from "./dom.js";
import { analysisPanel } from "./analysis.js";
import { lobbySection, offerButton } from "./lobby.js";
import { showWatch, watchButton } from "./watch.js";

const $main = document.getElementById("main");
const $nav = document.getElementById("nav");
const $modal = document.getElementById("modal");
const $modalBody = document.getElementById("modal-body");


function openModal(title, ...content) {
  fill($modalBody, h("h2", { id: "modal-title" }, title), ...content);
  $modal.hidden = false;
  const close = $modal.querySelector(".modal-close");
  close.focus();
}
function closeModal() {
  $modal.hidden = true;
  if (modalDone) { const f = modalDone; modalDone = null; f(); }
}
let modalDone = null;
$modal.querySelector(".modal-close").addEventListener("click", closeModal);
$modal.addEventListener("click", (e) => { if (e.target === $modal) closeModal(); });
document.addEventListener("keydown", (e) => {
  if (e.key === "Escape" && !$modal.hidden) closeModal();
});

function card(id, opts = {}) {
  const b = h(opts.button ? "button" : "div", {
    class: "card" + (opts.cls ? " " + opts.cls : ""),
    type: opts.button ? "button" : null,
    "aria-label": cardName(id) + (opts.note ? ", " + opts.note : ""),
    role: opts.button ? null : "img",
    dataset: { card: id },
  });
  b.append(cardSVG(id));
  return b;
}
function back(cls) {
  const b = h("div", { class: "card back" + (cls ? " " + cls : ""), "aria-hidden": "true" });
  b.append(backSVG());
  return b;
}
function mini(ids) {
  return h("span", { class: "minis" }, ids.map((id) => card(id, { cls: "mini" })));
}
function cardsText(ids) {
  return ids.map(cardShort).join(" ");
}

// ------------------------------------------------------------------ local memory
// This browser's seats: {id: {token, seat, rules, opponent, created, invites, ack}}
const store = {
  all() {
    try { return JSON.parse(localStorage.getItem("piquet.games") || "{}") || {}; }
    catch { return {}; }
  },
  get(id) { return this.all()[id] || null; },
  put(id, data) {
    const all = this.all();
    all[id] = Object.assign(all[id] || {}, data);
    localStorage.setItem("piquet.games", JSON.stringify(all));
  },
  drop(id) {
    const all = this.all();
    delete all[id];
    localStorage.setItem("piquet.games", JSON.stringify(all));
  },
};

let optionsCache = null;
async function options() {
  if (!optionsCache) optionsCache = await api("GET", "/api/options");
  return optionsCache;
}
function ruleSet(opts, name) {
  return opts.rules.find((r) => r.name === name) || opts.rules[0];
}

// ------------------------------------------------------------------ routing
function route() {
  const path = location.pathname;
  let m;
  if ((m = path.match(/^\/play\/([A-Za-z0-9_-]+)$/))) return showTable(m[1]);
  if ((m = path.match(/^\/join\/([A-Za-z0-9_-]+)$/))) return showJoin(m[1]);
  if ((m = path.match(/^\/replay\/([A-Za-z0-9_-]+)$/))) return showReplay(m[1]);
  if ((m = path.match(/^\/watch\/([A-Za-z0-9_-]+)$/))) return showWatch(m[1]);
  return showLobby();
}
function go(path) {
  history.pushState(null, "", path);
  stopTable();
  route();
}
window.addEventListener("popstate", () => { stopTable(); route(); });

// ------------------------------------------------------------------ lobby
async function showLobby() {
  document.title = "Piquet";
  $nav.replaceChildren();
  let opts;
  try { opts = await options(); }
  catch (e) { $main.replaceChildren(h("p", { class: "error" }, e.message)); return; }
  const ruleSel = h("select", { id: "rules", name: "rules" },
    opts.rules.map((r) => h("option", { value: r.name, selected: r.name === opts.default_rules },
      r.name)));
  const fmtBox = h("div", { class: "choices", id: "formats", role: "radiogroup",
    "aria-label": "Format" });
  const about = h("div", { class: "about" });
  const oppSel = (id) => h("select", { id, name: id },
    opts.levels.map((l) => h("option", { value: l }, `The computer: ${l}`)),
    h("option", { value: "friend" }, "A friend (invitation link)"));
  const opp1 = oppSel("opponent");
  const opp2 = oppSel("opponent2");
  const opp2Row = h("label", { class: "field", hidden: true }, "Third player", opp2);
  const name = h("input", { id: "name", name: "name", maxlength: 30, autocomplete: "nickname",
    placeholder: "Your name", value: localStorage.getItem("piquet.name") || "" });
  const hints = h("input", { type: "checkbox", id: "hints", name: "hints",
    disabled: !opts.hints_available });
  const hintsLabel = h("label", { class: "check", for: "hints" }, hints,
    opts.hints_available ? " Hints and “why?” from the advisor"
      : " Hints: not available yet");
  const start = h("button", { class: "primary big", type: "submit", id: "start" },
    "Deal the cards");

  function refresh() {
    const r = ruleSet(opts, ruleSel.value);
    const current = fmtBox.querySelector("input:checked");
    const keep = current && r.formats.includes(current.value) ? current.value : r.default_format;
    fmtBox.replaceChildren(...r.formats.map((f) => h("label", { class: "choice" },
      h("input", { type: "radio", name: "format", value: f, checked: f === keep,
        onchange: refreshPool }),
      " " + r.format_labels[f])));
    about.replaceChildren(h("h3", {}, r.title),
      h("ul", {}, r.summary.map((line) => h("li", {}, line))));
    refreshPool();
  }
  function refreshPool() {
    const f = fmtBox.querySelector("input:checked");
    opp2Row.hidden = !(f && f.value === "pool");
  }
  ruleSel.addEventListener("change", refresh);

  const form = h("form", { class: "new-game", id: "new-game" },
    h("h2", {}, "New game"),
    h("label", { class: "field" }, "Rule set", ruleSel),
    h("div", { class: "field" }, h("span", {}, "Format"), fmtBox),
    h("label", { class: "field" }, "Opponent", opp1),
    opp2Row,
    h("label", { class: "field" }, "Your name", name),
    hintsLabel,
    start);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    start.disabled = true;
    const f = fmtBox.querySelector("input:checked");
    const format = f ? f.value : null;
    const opponents = format === "pool" ? [opp1.value, opp2.value] : [opp1.value];
    localStorage.setItem("piquet.name", name.value);
    try {
      const res = await api("POST", "/api/games", {
        rules: ruleSel.value, format, opponent: opp1.value, opponents,
        hints: hints.checked, name: name.value || null,
      });
      store.put(res.id, { token: res.token, seat: res.seat, rules: ruleSel.value,
        format, opponent: opponents.join(" & "), created: Date.now(), invites: res.invites,
        ack: 0 });
      go("/play/" + res.id);
    } catch (err) {
      toast(err.message, "bad");
      start.disabled = false;
    }
  });

  const mine = Object.entries(store.all())
    .sort((a, b) => (b[1].created || 0) - (a[1].created || 0)).slice(0, 12);
  const list = h("section", { class: "my-games" }, h("h2", {}, "Your games"),
    mine.length ? h("ul", {}, mine.map(([id, g]) => h("li", {},
      h("a", { href: "/play/" + id, onclick: (e) => { e.preventDefault(); go("/play/" + id); } },
        `${g.rules || "game"} against ${g.opponent || "?"}`),
      h("span", { class: "muted" }, " · " + new Date(g.created || 0).toLocaleString()),
      h("button", { class: "link", type: "button", "aria-label": "Forget this game",
        onclick: () => { store.drop(id); showLobby(); } }, "forget"))))
      : h("p", { class: "muted" }, "None yet. Games you start or join appear here, and " +
        "you can come back to them after closing the tab."));

  fill($main, h("div", { class: "lobby" },
    h("section", { class: "hero" },
      h("h1", {}, "Piquet"),
      h("p", { class: "lead" }, "The two-handed card game of the seventeenth to the " +
        "nineteenth centuries, under the rules of its period books and of today."),
      h("div", { class: "hero-cards", "aria-hidden": "true" },
        ["AS", "KH", "QC", "JD", "TS"].map((c) => card(c, { cls: "fan" }))),
      h("p", { class: "tally-link" }, h("a", { href: "/tally", id: "tally-link" },
        "Playing with real cards? Keep the score on the tally"))),
    form, h("section", { class: "rules-about" }, about), lobbySection(go), list));
  refresh();
  ruleSel.focus();
}

// ------------------------------------------------------------------ invitation
async function showJoin(id) {
  document.title = "Piquet: join a game";
  $nav.replaceChildren();
  const invite = new URLSearchParams(location.hash.slice(1)).get("invite");
  const mine = store.get(id);
  if (mine && mine.token) { go("/play/" + id); return; }
  if (!invite) {
    $main.replaceChildren(h("div", { class: "panel" }, h("h2", {}, "Invitation"),
      h("p", { class: "error" }, "This link has no invitation code. Ask for the link again.")));
    return;
  }
  const name = h("input", { id: "join-name", maxlength: 30, placeholder: "Your name",
    value: localStorage.getItem("piquet.name") || "" });
  const btn = h("button", { class: "primary big", type: "submit", id: "join" },
    "Take your seat");
  const form = h("form", { class: "panel join" }, h("h2", {}, "You are invited to a game of Piquet"),
    h("label", { class: "field" }, "Your name", name), btn);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    btn.disabled = true;
    localStorage.setItem("piquet.name", name.value);
    try {
      const res = await api("POST", `/api/games/${id}/join`,
        { invite, name: name.value || null });
      store.put(id, { token: res.token, seat: res.seat, created: Date.now(),
        opponent: "a friend", ack: 0 });
      history.replaceState(null, "", "/play/" + id);
      route();
    } catch (err) {
      toast(err.message, "bad");
      btn.disabled = false;
    }
  });
  $main.replaceChildren(form);
  name.focus();
}

// ------------------------------------------------------------------ the table
let T = null; // the table's state

function stopTable() {
  if (!T) return;
  T.stopped = true;
  if (T.ws) { try { T.ws.close(); } catch { /* closed */ } }
  clearTimeout(T.pollTimer);
  clearTimeout(T.retryTimer);
  document.removeEventListener("keydown", T.onKey);
  T = null;
}

async function showTable(id) {
  stopTable();
  // a resume link carries the token in the fragment: /play/ID#token=...
  const frag = new URLSearchParams(location.hash.slice(1));
  if (frag.get("token")) {
    store.put(id, { token: frag.get("token"), created: Date.now() });
    history.replaceState(null, "", "/play/" + id);
  }
  const mine = store.get(id);
  if (!mine || !mine.token) {
    $nav.replaceChildren();
    $main.replaceChildren(h("div", { class: "panel" }, h("h2", {}, "Not your seat"),
      h("p", {}, "This browser holds no seat at this game. Use your invitation link, or " +
        "the resume link of your seat."), h("a", { href: "/" }, "Start a new game")));
    return;
  }
  T = { id, token: mine.token, game: null, selected: new Set(), selKey: "", ws: null,
    stopped: false, busy: false, hint: null, wsFails: 0, onKey: null };
  T.onKey = (e) => onKey(e);
  document.addEventListener("keydown", T.onKey);
  $main.replaceChildren(h("p", { class: "loading" }, "Finding your table…"));
  try {
    const [opts, game] = await Promise.all([options(),
      api("GET", `/api/games/${id}`, undefined, T.token)]);
    if (!T || T.id !== id) return;
    T.opts = opts;
    setGame(game);
    connect();
  } catch (e) {
    if (e.status === 404 || e.status === 401) {
      $main.replaceChildren(h("div", { class: "panel" }, h("h2", {}, "Game not found"),
        h("p", {}, e.message), h("a", { href: "/" }, "Start a new game")));
    } else {
      $main.replaceChildren(h("p", { class: "error" }, e.message));
      T.retryTimer = setTimeout(() => showTable(id), 3000);
    }
  }
}

function connect() {
  if (!T || T.stopped) return;
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/api/games/${T.id}/ws`);
  const mine = T;
  T.ws = ws;
  ws.addEventListener("open", () => ws.send(JSON.stringify({ token: mine.token })));
  ws.addEventListener("message", (ev) => {
    if (mine.stopped) return;
    let msg;
    try { msg = JSON.parse(ev.data); } catch { return; }
    if (msg.type === "view") { mine.wsFails = 0; setGame(msg.view); }
    else if (msg.type === "error") toast(msg.error, "bad");
  });
  ws.addEventListener("close", (ev) => {
    if (mine.stopped) return;
    if (ev.code === 4404 || ev.code === 4401) return;
    mine.wsFails += 1;
    setConn(false);
    // reconnect, and poll meanwhile
    const wait = Math.min(8000, 500 * 2 ** Math.min(4, mine.wsFails));
    mine.retryTimer = setTimeout(async () => {
      try {
        const g = await api("GET", `/api/games/${mine.id}`, undefined, mine.token);
        if (!mine.stopped) setGame(g);
      } catch { /* still away */ }
      connect();
    }, wait);
  });
  ws.addEventListener("open", () => setConn(true));
}

function setConn(ok) {
  const dot = document.getElementById("conn");
  if (dot) {
    dot.className = "conn " + (ok ? "on" : "off");
    dot.title = ok ? "Connected" : "Reconnecting…";
  }
}

function setGame(game) {
  if (!T) return;
  if (T.game && game.n < T.game.n) return; // an older view arrived late
  const prev = T.game;
  T.game = game;
  const v = game.view;
  const key = `${v.game_number}.${v.deal_number}.${v.deal ? v.deal.phase : ""}`;
  if (key !== T.selKey) { T.selected.clear(); T.selKey = key; }
  if (!prev || prev.n !== game.n) T.hint = null;
  renderTable();
  maybeSummary();
}

async function act(id) {
  if (!T || T.busy) return;
  T.busy = true;
  renderTable();
  try {
    const game = await api("POST", `/api/games/${T.id}/actions`, { action: id }, T.token);
    if (!T) return;
    T.busy = false;
    if (T.game && game.n < T.game.n) renderTable(); // a newer view came by the socket
    else setGame(game);
  } catch (e) {
    T.busy = false;
    toast(e.message, "bad");
    try { setGame(await api("GET", `/api/games/${T.id}`, undefined, T.token)); }
    catch { renderTable(); }
  }
}

// Names and roles --------------------------------------------------------------
function nameOf(p) {
  const g = T.game;
  const s = g.seats[p];
  const n = s ? s.name : `Player ${p + 1}`;
  return p === g.seat ? `${n} (you)` : n;
}
function roleNames(v) {
  // deal roles -> players
  const [a, b] = v.in_game;
  const younger = v.dealer;
  const elder = younger === a ? b : a;
  return { elder, younger };
}
function whoSaid(v, role) {
  const r = roleNames(v);
  const p = role === "elder" ? r.elder : r.younger;
  return { p, label: `${nameOf(p)}, ${role}` };
}

// Rendering ---------------------------------------------------------------------
function renderNav() {
  const g = T.game;
  const hintOn = g.hints && T.opts.hints_available;
  fill($nav,
    h("span", { id: "conn", class: "conn on", title: "Connected" }),
    h("button", { type: "button", class: "navbtn", id: "btn-rules", onclick: showRules },
      "Rules"),
    h("button", { type: "button", class: "navbtn", id: "btn-sheet", onclick: showSheet },
      "Score sheet"),
    g.hints ? h("button", { type: "button", class: "navbtn", id: "btn-hint",
      disabled: !hintOn || !g.your_turn, onclick: askHint,
      title: hintOn ? "Ask the advisor" : "Hints are not available yet" },
    hintOn ? "Hint" : "Hints: not available yet") : null,
    h("button", { type: "button", class: "navbtn", id: "btn-link", onclick: showLinks },
      "Links"),
    watchButton(T.id, T.token),
    h("button", { type: "button", class: "navbtn", onclick: () => go("/") }, "New game"));
}

function renderTable() {
  if (!T || !T.game) return;
  const g = T.game;
  const v = g.view;
  const d = v.deal;
  document.title = `Piquet: ${g.rules}`;
  // for scripts and tests: where the table stands
  $main.dataset.n = String(g.n);
  $main.dataset.busy = T.busy ? "1" : "0";
  $main.dataset.turn = g.your_turn ? "1" : "0";
  $main.dataset.phase = g.finished ? "finished" : (d ? d.phase : "out");
  const focusKey = document.activeElement && document.activeElement.dataset
    ? (document.activeElement.dataset.card || document.activeElement.dataset.action) : null;
  renderNav();

  const felt = h("section", { class: "felt", "aria-label": "Card table" });
  const side = h("aside", { class: "side" });
  if (g.finished) {
    felt.append(renderFinished());
  } else if (!d) {
    felt.append(renderStandingOut());
  } else {
    fill(felt, renderOpponent(), renderCenter(), renderStatus(), renderActions(),
      renderHand());
  }
  fill(side, renderScores(), renderInvite(), renderDialog(), renderEvents());
  $main.replaceChildren(h("div", { class: "table-wrap" + (g.finished ? " done" : "") },
    felt, side));
  setConn(!T.ws || T.ws.readyState === WebSocket.OPEN);
  if (focusKey) {
    const again = $main.querySelector(
      `[data-card="${CSS.escape(focusKey)}"], [data-action="${CSS.escape(focusKey)}"]`);
    if (again) again.focus();
  }
}

function renderOpponent() {
  const g = T.game;
  const v = g.view;
  const d = v.deal;
  const r = roleNames(v);
  const opp = v.in_game[0] === g.seat ? v.in_game[1] : v.in_game[0];
  const oppRole = opp === r.elder ? "elder" : "younger";
  const count = Math.max(0, 12 - d.opponent_played.length);
  const thinking = g.to_act === opp && !g.finished;
  return h("div", { class: "opponent" },
    h("div", { class: "who" },
      h("span", { class: "pname" }, nameOf(opp)),
      h("span", { class: "role" }, oppRole === "younger" ? "younger · dealer" : "elder"),
      thinking ? h("span", { class: "thinking" }, g.seats[opp].kind === "ai"
        ? "thinking…" : "to play…") : null),
    h("div", { class: "opp-hand", "aria-label": `${count} cards` },
      Array.from({ length: count }, () => back("small"))),
    d.opponent_discard_count
      ? h("div", { class: "opp-discards muted" }, `${d.opponent_discard_count} discarded`)
      : null);
}

function renderCenter() {
  const g = T.game;
  const d = g.view.deal;
  const stock = h("div", { class: "pile stock", "aria-label": `Stock: ${d.stock_count} cards` },
    d.stock_count ? h("div", { class: "stack" }, back(), d.stock_count > 1 ? back("under") : null)
      : h("div", { class: "slot" }),
    h("div", { class: "pile-label" }, `Stock ${d.stock_count}`));
  // the trick: the current lead, or the last trick just played
  const trick = h("div", { class: "trick", "aria-live": "polite" });
  const myRole = d.role;
  if (d.trick_lead) {
    const leadByMe = d.trick_lead && !d.opponent_played.includes(d.trick_lead);
    trick.append(h("div", { class: "trick-slot " + (leadByMe ? "mine" : "theirs") },
      card(d.trick_lead, { cls: "played" }),
      h("div", { class: "trick-note" }, leadByMe ? "you led" : "led")));
  } else if (d.tricks.length) {
    const t = d.tricks[d.tricks.length - 1];
    const myCard = t.leader === myRole ? t.lead : t.follow;
    const theirCard = t.leader === myRole ? t.follow : t.lead;
    const iWon = t.winner === myRole;
    trick.append(
      h("div", { class: "trick-slot theirs" + (iWon ? "" : " won") }, card(theirCard,
        { cls: "played" })),
      h("div", { class: "trick-slot mine" + (iWon ? " won" : "") }, card(myCard,
        { cls: "played" })),
      h("div", { class: "trick-note" }, `trick ${d.tricks.length}: ` +
        (iWon ? "yours" : "theirs")));
  } else if (d.phase === "play") {
    trick.append(h("div", { class: "trick-note" }, "no card played yet"));
  }
  const mine = h("div", { class: "pile mine-pile" });
  if (d.discards.length) {
    mine.append(h("div", { class: "pile-label" }, "Your discards"), mini(d.discards));
  }
  if (d.stock_seen.length) {
    mine.append(h("div", { class: "pile-label" }, "Seen in the stock"), mini(d.stock_seen));
  }
  return h("div", { class: "center" }, stock, trick, mine);
}

function phaseText() {
  const g = T.game;
  const d = g.view.deal;
  const la = g.legal_actions;
  if (g.your_turn) {
    switch (d.phase) {
      case "deal": return "You deal: choose how many cards at a time.";
      case "blanche": return "You hold carte blanche: announce it, or not.";
      case "exchange": {
        const x = la.find((a) => a.kind === "discard");
        if (!x) return "Your exchange.";
        const n = T.selected.size;
        const range = x.min === x.max ? `${x.min}` : `${x.min} to ${x.max}`;
        return `Exchange: choose ${range} card${x.max === 1 ? "" : "s"} to discard ` +
          `(${n} chosen), then press Discard.`;
      }
      case "leftovers": return "Cards are left in the stock: look at them, or not.";
      case "appoint": return "Elder lacks what he named: appoint his lead.";
      case "declare": return "Declarations: declare your holding, or answer.";
      case "play": return d.trick_lead ? "Play to the trick (follow suit if you can)."
        : "Your lead.";
      default: return "Your turn.";
    }
  }
  if (g.to_act === null || g.to_act === undefined) return "";
  const who = nameOf(g.to_act);
  const s = g.seats[g.to_act];
  if (s && s.kind === "human" && !s.joined) return `Waiting for ${who} to take the seat…`;
  return `${who} is ${s && s.kind === "ai" ? "thinking" : "to play"}…`;
}

function renderStatus() {
  const g = T.game;
  const d = g.view.deal;
  return h("div", { class: "status" + (g.your_turn ? " yours" : ""), id: "status",
    role: "status" },
  h("span", { class: "phase-tag" }, d.phase),
  h("span", {}, phaseText()),
  T.hint ? h("div", { class: "hint" }, "Advisor: ", T.hint) : null);
}

function renderActions() {
  const g = T.game;
  const box = h("div", { class: "actions", id: "actions" });
  if (!g.your_turn) return box;
  let n = 0;
  for (const a of g.legal_actions) {
    if (a.kind === "play") continue;
    if (a.kind === "discard") {
      const k = T.selected.size;
      const ok = k >= a.min && k <= a.max;
      const ids = sortHand([...T.selected]);
      const label = k === 0 ? (a.min === 0 ? "Take no cards" : `Discard (${a.label})`)
        : `Discard ${k}: ${cardsText(ids)}`;
      n += 1;
      box.append(h("button", { type: "button", class: "act primary", id: "discard",
        dataset: { action: "discard", key: String(n) }, disabled: !ok || T.busy,
        onclick: () => act("discard:" + (ids.length ? ids.join(" ") : "-")) },
      h("kbd", {}, String(n)), " ", label));
      continue;
    }
    n += 1;
    const cls = "act" + (a.kind === "declare" ? " declare" : "") +
      (a.kind === "answer" || a.kind === "pass" ? " answer" : "");
    box.append(h("button", { type: "button", class: cls, disabled: T.busy,
      dataset: { action: a.id, key: String(n) }, onclick: () => act(a.id) },
    n <= 9 ? h("kbd", {}, String(n)) : null, " ", a.label,
    a.cards.length ? mini(sortHand(a.cards)) : null));
  }
  return box;
}

function renderHand() {
  const g = T.game;
  const d = g.view.deal;
  const playable = new Set(g.legal_actions.filter((a) => a.kind === "play")
    .map((a) => a.cards[0]));
  const exchanging = g.your_turn && g.legal_actions.some((a) => a.kind === "discard");
  const taken = new Set(d.taken);
  const hand = h("div", { class: "hand" + (exchanging ? " choosing" : ""), id: "hand",
    role: "group", "aria-label": "Your hand" });
  for (const c of sortHand(d.hand)) {
    const canPlay = playable.has(c);
    const sel = T.selected.has(c);
    const note = [canPlay ? "playable" : "", sel ? "chosen to discard" : "",
      taken.has(c) ? "taken in" : ""].filter(Boolean).join(", ");
    const cls = [canPlay ? "playable" : "", sel ? "selected" : "",
      taken.has(c) ? "taken" : "",
      playable.size && !canPlay ? "dim" : ""].filter(Boolean).join(" ");
    const b = card(c, { button: true, cls, note });
    b.setAttribute("aria-pressed", exchanging ? String(sel) : "false");
    if (canPlay) b.addEventListener("click", () => act("play:" + c));
    else if (exchanging) {
      b.addEventListener("click", () => {
        if (T.selected.has(c)) T.selected.delete(c); else T.selected.add(c);
        renderTable();
      });
    } else b.setAttribute("aria-disabled", "true");
    hand.append(b);
  }
  return h("div", { class: "hand-wrap" }, hand);
}

function renderStandingOut() {
  const g = T.game;
  const v = g.view;
  const [a, b] = v.in_game;
  return h("div", { class: "standing-out" },
    h("h2", {}, "You stand out this game"),
    h("p", {}, `${nameOf(a)} and ${nameOf(b)} are playing: ${v.scores[0]} to ${v.scores[1]}.`),
    h("p", { class: "muted" }, `The pool holds ${v.pool}. The winner stays; the loser makes ` +
      "room for you."));
}

function resultText() {
  const g = T.game;
  const v = g.view;
  const res = g.result || {};
  if (g.format === "pool") {
    const winner = res.winner;
    return winner === null || winner === undefined ? "The pool is over."
      : `${nameOf(winner)} takes the pool. Ledger: ` +
        v.players.map((p) => `${nameOf(p)} ${res.ledger ? res.ledger[p] : ""}`).join(", ");
  }
  const scores = res.scores || [];
  const w = res.winner;
  if (w === null || w === undefined) return `A drawn game: ${scores.join(" to ")}.`;
  const lose = w === 0 ? 1 : 0;
  let text = `${w === g.seat ? "You win" : nameOf(w) + " wins"}, ${scores[w]} to ${scores[lose]}.`;
  if (res.rubiconed) text += " The loser is rubiconed.";
  if (res.settled) text += ` Settled at ${res.settled}.`;
  if (res.lurch) text += " A lurch: the loser pays double.";
  return text;
}

function renderFinished() {
  const g = T.game;
  const formats = (T.opts.record_formats || ["json"]);
  return h("div", { class: "finished", id: "finished" },
    h("h2", {}, "Game over"),
    h("p", { class: "result" }, resultText()),
    h("div", { class: "row" },
      formats.map((f) => h("button", { type: "button", class: "act", id: `download-${f}`,
        onclick: () => download(f) }, `Download the record (${f === "text" ? "text" : "JSON"})`)),
      h("button", { type: "button", class: "act", id: "open-replay",
        onclick: () => go("/replay/" + g.id) }, "Replay the game"),
      h("button", { type: "button", class: "act primary", onclick: () => go("/") },
        "New game")),
    h("button", { type: "button", class: "link", onclick: showSheet }, "See the score sheet"));
}

async function download(fmt) {
  try {
    const r = await fetch(`/api/games/${T.id}/record?as=${fmt}`,
      { headers: { Authorization: "Bearer " + T.token } });
    if (!r.ok) throw new Error((await r.json().catch(() => ({}))).error || r.statusText);
    const blob = await r.blob();
    const a = h("a", { href: URL.createObjectURL(blob),
      download: `piquet-${T.id}.${fmt === "text" ? "txt" : "json"}` });
    document.body.append(a);
    a.click();
    a.remove();
  } catch (e) { toast(e.message, "bad"); }
}

function renderScores() {
  const g = T.game;
  const v = g.view;
  const d = v.deal;
  const rs = ruleSet(T.opts, g.rules);
  const lines = v.in_game.map((p, i) => h("div", { class: "score-line" + (p === g.seat
    ? " me" : "") }, h("span", { class: "pname" }, nameOf(p)),
  h("span", { class: "pts" }, String(v.scores[i]))));
  const fmt = rs.format_labels[g.format] || g.format;
  const extra = d ? h("div", { class: "muted small" },
    `This deal: ${d.scores.elder} elder · ${d.scores.younger} younger · tricks ` +
      `${d.tricks_won.elder}–${d.tricks_won.younger}`) : null;
  return h("section", { class: "scores", "aria-label": "Scores" },
    h("div", { class: "title" }, `${g.rules} · ${fmt}`),
    h("div", { class: "muted small" }, `Game ${v.game_number} · deal ${v.deal_number}`),
    lines, extra);
}

function renderInvite() {
  const g = T.game;
  const waiting = g.seats.filter((s) => s.kind === "human" && !s.joined);
  if (!waiting.length || g.finished) return null;
  const mine = store.get(T.id) || {};
  const invites = mine.invites || [];
  const box = h("section", { class: "invite", id: "invite" },
    h("h3", {}, "Invite a friend"));
  for (const s of waiting) {
    const inv = invites.find((i) => i.seat === s.seat);
    if (inv) {
      const url = location.origin + inv.url;
      box.append(h("input", { class: "invite-link", readonly: true, value: url,
        "aria-label": "Invitation link", dataset: { seat: String(s.seat) } }),
      h("button", { type: "button", class: "act small", onclick: () => {
        navigator.clipboard?.writeText(url).then(() => toast("Link copied."),
          () => toast("Select the link and copy it."));
      } }, "Copy link"));
    }
  }
  box.append(offerButton(T.id, T.token, invites) || "");
  box.append(h("button", { type: "button", class: "link", onclick: async () => {
    try {
      const res = await api("POST", `/api/games/${T.id}/invite`, {}, T.token);
      store.put(T.id, { invites: res.invites });
      renderTable();
    } catch (e) { toast(e.message, "bad"); }
  } }, "Make a new link"));
  return box;
}

function renderDialog() {
  const g = T.game;
  const v = g.view;
  const d = v.deal || g.last_deal;
  const box = h("section", { class: "dialog", "aria-label": "What was said" },
    h("h3", {}, v.deal ? "The dialog" : "The dialog of the last deal"));
  if (!d || !d.dialog.length) {
    box.append(h("p", { class: "muted small" }, "Nothing said yet this deal."));
    return box;
  }
  const list = h("ol", { class: "lines" });
  for (const u of d.dialog) {
    const w = whoSaid(v, u.seat);
    list.append(h("li", { class: w.p === g.seat ? "me" : "them" },
      h("span", { class: "speaker" }, w.label + ": "),
      h("span", { class: "said" }, u.text),
      u.shown.length ? mini(sortHand(u.shown)) : null));
  }
  box.append(list);
  requestAnimationFrame(() => { list.scrollTop = list.scrollHeight; });
  return box;
}

function eventLine(v, e) {
  const w = whoSaid(v, e.seat);
  const big = ["pique", "repique", "capot"].includes(e.kind);
  return h("li", { class: (w.p === T.game.seat ? "me" : "them") + (big ? " big" : "") },
    h("span", { class: "pts" }, `+${e.points}`), " ",
    h("span", {}, `${nameOf(w.p)}: ${e.kind}`),
    e.note ? h("span", { class: "muted" }, ` (${e.note})`) : null);
}

function renderEvents() {
  const g = T.game;
  const v = g.view;
  const d = v.deal || g.last_deal;
  const box = h("section", { class: "events", "aria-label": "This deal's count" },
    h("h3", {}, v.deal ? "This deal's count" : "The last deal's count"));
  if (!d || !d.events.length) {
    box.append(h("p", { class: "muted small" }, "Nothing counted yet."));
    return box;
  }
  box.append(h("ol", { class: "lines" }, d.events.map((e) => eventLine(v, e))));
  return box;
}

// The deal summary, once per finished deal -----------------------------------------
const KIND_ORDER = ["carte blanche", "point", "sequences", "sets", "lead", "trick",
  "last trick", "the cards", "capot", "repique", "pique"];

function maybeSummary() {
  const g = T.game;
  const n = g.view.deals.length;
  const mine = store.get(T.id) || {};
  if (mine.ack === undefined || mine.ack === null) { store.put(T.id, { ack: n }); return; }
  if (n <= mine.ack || !$modal.hidden) return;
  store.put(T.id, { ack: n });
  showDealSummary(n - 1);
}

function showDealSummary(index) {
  const g = T.game;
  const v = g.view;
  const s = v.deals[index];
  const players = [s.elder, s.younger];
  const kinds = new Set([...Object.keys(s.by_kind[0]), ...Object.keys(s.by_kind[1])]);
  const ordered = [...KIND_ORDER.filter((k) => kinds.has(k)),
    ...[...kinds].filter((k) => !KIND_ORDER.includes(k))];
  const calls = ordered.filter((k) => ["pique", "repique", "capot"].includes(k));
  const table = h("table", { class: "sheet" },
    h("thead", {}, h("tr", {}, h("th", {}, ""),
      players.map((p, i) => h("th", {}, `${nameOf(p)} (${i ? "younger" : "elder"})`)))),
    h("tbody", {}, ordered.map((k) => h("tr", { class: calls.includes(k) ? "call" : "" },
      h("th", {}, k), s.by_kind.map((bk) => h("td", {}, bk[k] ? String(bk[k]) : "·"))))),
    h("tfoot", {}, h("tr", {}, h("th", {}, "deal"),
      s.points.map((pt) => h("td", {}, String(pt))))));
  const last = g.last_deal && g.last_deal.number === index + 1 ? g.last_deal : null;
  const why = last ? h("details", { class: "why" }, h("summary", {}, "How it was counted"),
    h("ol", { class: "lines" }, last.events.map((e) => eventLine(lastView(s), e)))) : null;
  const banners = calls.map((k) => {
    const who = s.by_kind[0][k] ? players[0] : players[1];
    return h("div", { class: "callout" }, `${k[0].toUpperCase()}${k.slice(1)}! `,
      h("span", {}, nameOf(who)));
  });
  const after = h("p", { class: "muted" }, g.finished ? resultText()
    : `Game score: ${v.in_game.map((p, i) => `${nameOf(p)} ${v.scores[i]}`).join(", ")}`);
  openModal(`Deal ${s.number} of game ${s.game}`, h("div", { class: "summary", id: "summary" },
    banners, table, why, after,
    h("button", { type: "button", class: "act primary", id: "summary-ok",
      onclick: closeModal }, g.finished ? "See the result" : "Next deal")));
}

function lastView(s) {
  // a view-like object to name the roles of a past deal
  return { in_game: [s.elder, s.younger], dealer: s.younger };
}

// Score sheet, rules, links, hints ----------------------------------------------
function showSheet() {
  const g = T.game;
  const v = g.view;
  const players = v.players;
  const totals = {};
  const rows = [];
  let game = 0;
  for (const s of v.deals) {
    if (s.game !== game) { game = s.game; for (const p of players) totals[p] = 0; }
    totals[s.elder] += s.points[0];
    totals[s.younger] += s.points[1];
    rows.push(h("tr", {}, h("td", {}, `${s.game}.${s.number}`),
      players.map((p) => {
        const i = p === s.elder ? 0 : p === s.younger ? 1 : -1;
        return h("td", {}, i < 0 ? "—" : `${s.points[i]} → ${totals[p]}`);
      })));
  }
  const games = v.games.map((r) => h("li", {},
    `Game ${r.number}: ${r.winner === null ? "drawn" : nameOf(r.winner) + " wins"} ` +
      `(${r.players.map((p, i) => `${nameOf(p)} ${r.scores[i]}`).join(", ")})` +
      (r.rubiconed ? ", rubiconed" : "") + (r.lurch ? ", lurched" : "") +
      (r.settled ? `, settled at ${r.settled}` : "")));
  openModal("Score sheet", h("table", { class: "sheet" },
    h("thead", {}, h("tr", {}, h("th", {}, "deal"), players.map((p) => h("th", {}, nameOf(p))))),
    h("tbody", {}, rows.length ? rows : h("tr", {}, h("td", { colspan: players.length + 1 },
      "No deal finished yet.")))),
  games.length ? h("ul", {}, games) : null);
}

function showRules() {
  const rs = ruleSet(T.opts, T.game.rules);
  openModal(rs.title, h("ul", { class: "rules-list" }, rs.summary.map((l) => h("li", {}, l))),
    h("p", { class: "muted small" }, "Every rule and its source: piquet rules " + rs.name));
}

function showLinks() {
  const url = `${location.origin}/play/${T.id}#token=${T.token}`;
  openModal("Come back later", h("p", {}, "This browser remembers your seat. To take it " +
    "from another device, open this link there (keep it secret: it is your seat):"),
  h("input", { class: "invite-link", readonly: true, value: url, id: "resume-link",
    "aria-label": "Resume link" }));
}

async function askHint() {
  try {
    const res = await api("GET", `/api/games/${T.id}/hint`, undefined, T.token);
    T.hint = res.hint;
    renderTable();
  } catch (e) { toast(e.message, "bad"); }
}

// Keyboard -----------------------------------------------------------------------
function onKey(e) {
  if (!T || !T.game || e.altKey || e.ctrlKey || e.metaKey) return;
  if (!$modal.hidden) {
    if (e.key === "Enter") { const ok = $modal.querySelector(".primary"); if (ok) ok.click(); }
    return;
  }
  const tag = (e.target && e.target.tagName) || "";
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  const cards = [...$main.querySelectorAll("#hand .card")];
  const i = cards.indexOf(document.activeElement);
  if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
    if (!cards.length) return;
    const next = i < 0 ? 0 : (i + (e.key === "ArrowRight" ? 1 : -1) + cards.length) % cards.length;
    cards[next].focus();
    e.preventDefault();
  } else if (/^[1-9]$/.test(e.key)) {
    const b = $main.querySelector(`#actions [data-key="${e.key}"]`);
    if (b && !b.disabled) { b.click(); e.preventDefault(); }
  } else if (e.key === "?") {
    showRules();
  }
}

// ------------------------------------------------------------------ replay viewer
async function showReplay(id) {
  document.title = "Piquet: replay";
  const mine = store.get(id);
  $nav.replaceChildren(h("button", { type: "button", class: "navbtn",
    onclick: () => go("/play/" + id) }, "Back to the table"));
  if (!mine || !mine.token) {
    $main.replaceChildren(h("p", { class: "error" }, "This browser holds no seat at this game."));
    return;
  }
  const R = { step: 0, steps: 0, data: null };
  const body = h("div", { class: "replay", id: "replay" });
  $main.replaceChildren(body);
  async function load(step) {
    try {
      R.data = await api("GET", `/api/games/${id}/replay?step=${step}`, undefined, mine.token);
      R.step = R.data.step;
      R.steps = R.data.steps;
      draw();
    } catch (e) {
      body.replaceChildren(h("p", { class: "error" }, e.message));
    }
  }
  function draw() {
    const data = R.data;
    const views = Object.values(data.views);
    const any = views.find((x) => x.deal) || views[0];
    const caption = data.action
      ? `${data.names[data.action.player]}: ${data.action.id}` : "The cards are cut.";
    const slider = h("input", { type: "range", min: 0, max: R.steps, value: R.step,
      "aria-label": "Step", oninput: (e) => load(Number(e.target.value)) });
    const hands = views.filter((x) => x.deal).map((x) => h("div", { class: "replay-seat" },
      h("div", { class: "pname" }, `${data.names[x.player]} · ${x.deal.role}` +
        ` · ${x.deal.scores[x.deal.role]} this deal`),
      h("div", { class: "hand small-hand" }, sortHand(x.deal.hand).map((c) => card(c))),
      x.deal.discards.length ? h("div", { class: "muted small" }, "discarded ",
        mini(x.deal.discards)) : null));
    const d = any.deal;
    const dialog = d ? h("ol", { class: "lines" }, d.dialog.slice(-8).map((u) =>
      h("li", {}, `${u.seat}: ${u.text}`, u.shown.length ? mini(u.shown) : null))) : null;
    const trick = d && d.trick_lead ? h("div", { class: "trick" }, card(d.trick_lead)) :
      d && d.tricks.length ? h("div", { class: "trick" },
        card(d.tricks[d.tricks.length - 1].lead), card(d.tricks[d.tricks.length - 1].follow))
        : null;
    fill(body,
      h("div", { class: "replay-bar" },
        h("button", { type: "button", class: "act", "aria-label": "First step",
          onclick: () => load(0) }, "«"),
        h("button", { type: "button", class: "act", id: "replay-prev",
          onclick: () => load(Math.max(0, R.step - 1)) }, "◀"),
        h("span", { class: "step" }, `Step ${R.step} of ${R.steps}`),
        h("button", { type: "button", class: "act", id: "replay-next",
          onclick: () => load(Math.min(R.steps, R.step + 1)) }, "▶"),
        h("button", { type: "button", class: "act", "aria-label": "Last step",
          onclick: () => load(R.steps) }, "»"),
        slider),
      h("p", { class: "caption" }, caption,
        ` · game ${any.game_number}, deal ${any.deal_number} · score ` +
          any.in_game.map((p, i) => `${data.names[p]} ${any.scores[i]}`).join(", ")),
      h("div", { class: "replay-table felt" }, hands, trick),
      dialog ? h("section", { class: "dialog" }, h("h3", {}, "Dialog"), dialog) : null);
  }
  document.addEventListener("keydown", (e) => {
    if (!location.pathname.startsWith("/replay/")) return;
    if (e.key === "ArrowRight") load(Math.min(R.steps, R.step + 1));
    if (e.key === "ArrowLeft") load(Math.max(0, R.step - 1));
  });
  load(0);
  $main.append(analysisPanel(id, mine.token, load));
}

route();
