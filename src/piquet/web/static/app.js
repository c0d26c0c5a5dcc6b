// The Piquet card table: lobby, table, invitation, replay.  No build step.
// Everything shown comes from the server's view of this seat; text is always set as text
// (textContent), never as markup.

import {
  SUITS, SUIT_NAMES, backSVG, cardName, cardShort, cardSVG, codesAsCards, isRed, sortHand,
} from "./cards.js";
import { api, fill, h, listen, patch, toast } from "./dom.js";
import { analysisPanel } from "./analysis.js";
import { lobbySection, offerButton } from "./lobby.js";
import { accountSection, currentAccount } from "./account.js";
import { abortButton, chatFor, loadChat, takebackLine } from "./talk.js";
import { noticeOffer, peopleSection, yourTurnNotice } from "./people.js";
import { showWatch, watchButton } from "./watch.js";
import { resultText as resultOf } from "./result.js";
import { coachPanel, explain, level, showLearn, welcomeSection } from "./learn.js";

const $main = document.getElementById("main");
const $nav = document.getElementById("nav");
const $modal = document.getElementById("modal");
const $modalBody = document.getElementById("modal-body");


function openModal(title, ...content) {
  fill($modalBody, h("h2", { id: "modal-title" }, title), ...content);
  explain($modalBody);
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

// A card's element: kept from render to render where it stands (a slot: dom.js patch), its
// picture with it.
function card(id, opts = {}) {
  const b = h(opts.button ? "button" : "div", {
    class: "card" + (opts.cls ? " " + opts.cls : ""),
    type: opts.button ? "button" : null,
    "aria-label": cardName(id) + (opts.note ? ", " + opts.note : ""),
    role: opts.button ? null : "img",
    dataset: { card: id },
  });
  b.append(cardSVG(id));
  b._slot = "card " + id;
  return b;
}
function back(cls) {
  const b = h("div", { class: "card back" + (cls ? " " + cls : ""), "aria-hidden": "true" });
  b.append(backSVG());
  b._slot = "back";
  return b;
}
function mini(ids) {
  return h("span", { class: "minis" }, ids.map((id) => card(id, { cls: "mini" })));
}
function cardsText(ids) {
  return ids.map(cardShort).join(" ");
}
// Cards as coloured text ("A♣ 10♥"): small pictures show the suit but not the rank.
function textCards(ids) {
  return h("span", { class: "textcards" }, ids.map((id) =>
    h("span", { class: "textcard" + (isRed(id) ? " red" : ""), title: cardName(id),
      dataset: { card: id } }, cardShort(id))));
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
// a learner's opponent: the one that adapts to them, else the book
function kind(opts) {
  if (opts.levels.includes("adaptive")) return "adaptive";
  return opts.levels.includes("book") ? "book" : opts.default_level;
}

function ruleSet(opts, name) {
  return opts.rules.find((r) => r.name === name) || opts.rules[0];
}
// A rule set as a person reads it: its title ("Rubicon Piquet as played today ..."), not its id.
function titleOf(opts, name) {
  const r = opts && opts.rules.find((x) => x.name === name);
  return r ? r.title : name;
}

// ------------------------------------------------------------------ routing
function route() {
  const path = location.pathname;
  let m;
  if ((m = path.match(/^\/play\/([A-Za-z0-9_-]+)$/))) return showTable(m[1]);
  if ((m = path.match(/^\/join\/([A-Za-z0-9_-]+)$/))) return showJoin(m[1]);
  if ((m = path.match(/^\/replay\/([A-Za-z0-9_-]+)$/))) return showReplay(m[1]);
  if ((m = path.match(/^\/watch\/([A-Za-z0-9_-]+)$/))) return showWatch(m[1]);
  if (path === "/learn" || path.startsWith("/learn/")) {
    return showLearn(path, $main, $nav, go, startGuided);
  }
  return showLobby();
}
function go(path) {
  history.pushState(null, "", path);
  stopTable();
  R = null;
  route();
}
window.addEventListener("popstate", () => { stopTable(); R = null; route(); });
// a link to a page of the table or the lessons opens it here (no reload)
document.addEventListener("click", (e) => {
  const a = e.target.closest && e.target.closest("a[href^='/']");
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey ||
    a.target || a.hasAttribute("download")) return;
  const url = new URL(a.href);
  if (!/^\/(learn(\/|$)|$)/.test(url.pathname) || url.hash) return;
  e.preventDefault();
  history.pushState(null, "", url.pathname + url.search);
  stopTable();
  R = null;
  route();
  window.scrollTo(0, 0);
});

// A guided first deal: a practice game against a kind opponent, the coach at your side.
async function startGuided(rules) {
  const name = localStorage.getItem("piquet.name") || null;
  const res = await api("POST", "/api/learn/guided", { rules, name });
  store.put(res.id, { token: res.token, seat: res.seat, rules, format: null,
    opponent: "book", created: Date.now(), invites: [], ack: 0, guided: true });
  await remember(res.id, res.token);
  go("/play/" + res.id);
}

// ------------------------------------------------------------------ lobby
async function showLobby() {
  document.title = "Piquet";
  $nav.replaceChildren();
  let opts;
  try { opts = await options(); }
  catch (e) { $main.replaceChildren(h("p", { class: "error" }, e.message)); return; }
  // a newcomer: today's game, a kind opponent, hints on; rule sets named by their titles
  const learner = level() === "learner";
  const firstRules = learner ? "rubicon" : opts.default_rules;
  const ruleSel = h("select", { id: "rules", name: "rules" },
    opts.rules.map((r) => h("option", { value: r.name, selected: r.name === firstRules },
      r.title)));
  const fmtBox = h("div", { class: "choices", id: "formats", role: "radiogroup",
    "aria-label": "Format" });
  const about = h("div", { class: "about" });
  // the terminal's default first (the strongest), each level in a few words
  const notes = opts.level_notes || {};
  const oppSel = (id) => h("select", { id, name: id },
    opts.levels.map((l) => h("option", { value: l,
      selected: l === (learner ? kind(opts) : opts.default_level),
      title: notes[l] || "" }, ((opts.level_labels || {})[l] || `The computer: ${l}`) +
      ratingSuffix(opts, l))),
    h("option", { value: "friend" }, "A friend (invitation link)"));
  const opp1 = oppSel("opponent");
  // what the chosen level is, under the choice (short options keep a phone's width)
  const oppNote = h("span", { class: "muted small", id: "opponent-note" });
  const sayLevel = () => {
    oppNote.textContent = [notes[opp1.value] || "", ratingWords(opts, opp1.value)]
      .filter(Boolean).join(" ");
    explain(oppNote);
  };
  opp1.addEventListener("change", sayLevel);
  sayLevel();
  const opp2 = oppSel("opponent2");
  const opp2Row = h("label", { class: "field", hidden: true }, "Third player", opp2);
  const name = h("input", { id: "name", name: "name", maxlength: 30, autocomplete: "nickname",
    placeholder: "Your name", value: localStorage.getItem("piquet.name") || "" });
  const hints = h("input", { type: "checkbox", id: "hints", name: "hints", checked: learner });
  const hintsLabel = h("label", { class: "check", for: "hints" }, hints,
    " Hints from the advisor (each says why)");
  const start = h("button", { class: "primary big", type: "submit", id: "start" },
    "Deal the cards");
  // a rated game: logged in, against a friend (who logs in too), a game or a partie
  const account = await currentAccount();
  const rated = h("input", { type: "checkbox", id: "rated", name: "rated" });
  const ratedLabel = h("label", { class: "check", for: "rated", id: "rated-label",
    hidden: true }, rated, " Rated game (your friend logs in to their account to join; " +
    "the result moves both ratings)");
  // a clock, for a game against a friend (the server keeps it)
  const clockSel = h("select", { id: "clock", name: "clock" },
    h("option", { value: "" }, "No clock"),
    h("option", { value: "m5+3" }, "Live: 5 minutes each + 3 s a move"),
    h("option", { value: "m10+5" }, "Live: 10 minutes each + 5 s a move"),
    h("option", { value: "m30+10" }, "Live: 30 minutes each + 10 s a move"),
    h("option", { value: "d1" }, "Correspondence: 1 day a move"),
    h("option", { value: "d3" }, "Correspondence: 3 days a move"));
  const clockRow = h("label", { class: "field", id: "clock-row", hidden: true }, "Clock",
    clockSel, h("span", { class: "muted small" }, "Run out of time and you lose the game."));
  const clockOf = () => {
    const v = clockSel.value;
    if (!v || clockRow.hidden) return null;
    if (v.startsWith("d")) return { days: Number(v.slice(1)) };
    const [m, inc] = v.slice(1).split("+");
    return { minutes: Number(m), increment: Number(inc) };
  };
  const refreshRated = () => {
    const f = fmtBox.querySelector("input:checked");
    ratedLabel.hidden = !(account && opp1.value === "friend" && f && f.value !== "pool");
    if (ratedLabel.hidden) rated.checked = false;
    clockRow.hidden = !(opp1.value === "friend" && f && f.value !== "pool");
  };
  opp1.addEventListener("change", refreshRated);

  // a new rule set brings its own default format (the partie for rubicon); a click on a
  // format keeps it while the rule set stays
  function refresh(ruleChanged) {
    const r = ruleSet(opts, ruleSel.value);
    const current = fmtBox.querySelector("input:checked");
    const keep = !ruleChanged && current && r.formats.includes(current.value)
      ? current.value : r.default_format;
    fmtBox.replaceChildren(...r.formats.map((f) => h("label", { class: "choice" },
      h("input", { type: "radio", name: "format", value: f, checked: f === keep,
        onchange: refreshPool }),
      " " + r.format_labels[f])));
    explain(fmtBox);
    refreshPool();
  }
  // the summary of a game in the format chosen (not of every format the rule set has)
  function refreshPool() {
    const f = fmtBox.querySelector("input:checked");
    opp2Row.hidden = !(f && f.value === "pool");
    refreshRated();
    const r = ruleSet(opts, ruleSel.value);
    const lines = (f && r.summaries && r.summaries[f.value]) || r.summary;
    about.replaceChildren(h("h3", {}, r.title),
      h("ul", {}, lines.map((line) => h("li", {}, line))));
    explain(about);
  }
  ruleSel.addEventListener("change", () => refresh(true));

  const form = h("form", { class: "new-game", id: "new-game" },
    h("h2", {}, "New game"),
    h("label", { class: "field" }, "Rule set", ruleSel),
    h("div", { class: "field" }, h("span", {}, "Format"), fmtBox),
    h("label", { class: "field" }, "Opponent", opp1, oppNote),
    opp2Row,
    account ? h("p", { class: "field muted small" }, `You play as ${account.name}.`)
      : h("label", { class: "field" }, "Your name", name),
    hintsLabel,
    clockRow,
    ratedLabel,
    start);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    start.disabled = true;
    const f = fmtBox.querySelector("input:checked");
    const format = f ? f.value : null;
    const chosen = format === "pool" ? [opp1.value, opp2.value] : [opp1.value];
    localStorage.setItem("piquet.name", name.value);
    try {
      // the adaptive opponent starts at this browser's rating, from its games
      let even = null;
      if (chosen.includes("adaptive")) even = (await api("GET", "/api/me/opponent")).level;
      const opponents = chosen.map((o) => (o === "adaptive" && even ? even : o));
      const res = await api("POST", "/api/games", {
        rules: ruleSel.value, format, opponent: opponents[0], opponents,
        hints: hints.checked, name: account ? account.name : (name.value || null),
        rated: rated.checked, clock: clockOf(),
      });
      store.put(res.id, { token: res.token, seat: res.seat, rules: ruleSel.value,
        format, opponent: opponents.join(" & "), created: Date.now(), invites: res.invites,
        ack: 0 });
      await remember(res.id, res.token);
      go("/play/" + res.id);
    } catch (err) {
      toast(err.message, "bad");
      start.disabled = false;
    }
  });

  const list = h("section", { class: "my-games", id: "my-games", "aria-live": "polite" },
    h("h2", {}, "Your games"), h("p", { class: "muted" }, "Looking for your games…"));
  // the welcome's answer sets the form's defaults (the expert's one click away)
  const apply = (lv) => {
    const mode = lv === "learner";
    ruleSel.value = mode ? "rubicon" : opts.default_rules;
    opp1.value = mode ? kind(opts) : opts.default_level;
    hints.checked = mode;
    sayLevel();
    refresh(true);
  };
  fill($main, h("div", { class: "lobby" },
    h("section", { class: "hero" },
      h("h1", {}, "Piquet"),
      h("p", { class: "lead" }, "The two-handed card game of the seventeenth to the " +
        "nineteenth centuries, under the rules of its period books and of today."),
      h("div", { class: "hero-cards", "aria-hidden": "true" },
        ["AS", "KH", "QC", "JD", "TS"].map((c) => card(c, { cls: "fan" }))),
      h("p", { class: "tally-link" }, h("a", { href: "/tally", id: "tally-link" },
        "Playing with real cards? Keep the score on the tally"))),
    welcomeSection(apply), accountSection(accountChanged), form,
    h("section", { class: "rules-about" }, about), peopleSection(account, opts, go),
    lobbySection(go), list));
  refresh(false);
  explain($main);
  ruleSel.focus();
  showMyGames(list);
}

// A computer's rating on the players' scale (the one rated games between accounts move;
// a new account starts at 1500, the beginner Nell's rating), as the ladder placed it.
function ratingSuffix(opts, level) {
  const r = (opts.level_ratings || {})[level];
  if (!r) return "";
  const n = r.game !== undefined ? r.game : r.partie;
  return ` · rated ${n}`;
}

function ratingWords(opts, level) {
  const r = (opts.level_ratings || {})[level];
  if (!r) return "";
  const parts = [];
  if (r.game !== undefined) parts.push(`${r.game} at a game`);
  if (r.partie !== undefined) parts.push(`${r.partie} at a partie`);
  return `Its rating: ${parts.join(", ")}, on the scale of the players' ratings (a new ` +
    "account starts at 1500, as strong as the beginner Nell; 200 points more means about " +
    "three wins in four).";
}

// After a login, a logout or a deletion, the lobby is drawn again.  After a login the
// games played in this browser before it are not put in the account unasked (on a shared
// computer they may be someone else's): the player is asked, and only a yes adds them.
// After a logout (or a deletion) this browser's games go back to this browser's own list.
async function accountChanged() {
  const account = await currentAccount(true);
  const local = Object.entries(store.all()).filter(([, g]) => g.token);
  if (!account) {
    // the account's games leave this browser with it (its list keeps them): the next
    // person at a shared computer does not find them; the others are this browser's
    for (const [id, g] of local) {
      if (g.account) {
        store.drop(id);
        try { await api("DELETE", `/api/me/games/${id}`); } catch { /* not listed */ }
      } else store.put(id, { listed: false });
    }
    showLobby();
    return;
  }
  let held = [];
  try { held = (await api("GET", "/api/me/games")).games.map((g) => g.id); }
  catch { /* asked about all of them */ }
  const fresh = local.filter(([id]) => !held.includes(id));
  for (const [id] of local) {  // none is added unasked
    store.put(id, held.includes(id) ? { listed: true, account: true } : { listed: true });
  }
  if (!fresh.length) { showLobby(); return; }
  const n = fresh.length;
  const keep = async () => {
    modalDone = null;
    $modal.hidden = true;
    for (const [id, g] of fresh) {
      await remember(id, g.token);
      store.put(id, { account: true });
    }
    toast(`${n === 1 ? "The game is" : `The ${n} games are`} now kept in your account.`);
    showLobby();
  };
  modalDone = showLobby;  // closed without an answer: nothing is added
  openModal(`Keep the ${n === 1 ? "game" : `${n} games`} played in this browser in your ` +
    "account?",
    h("p", { id: "adopt-words" }, `${n === 1 ? "One game was" : `${n} games were`} played ` +
      `in this browser before you logged in as ${account.name}. If ` +
      `${n === 1 ? "it is" : "they are"} yours, keep ${n === 1 ? "it" : "them"} in your ` +
      "account to find them on any device. On a shared computer they may be someone " +
      "else's: then leave them out (they stay in this browser's list)."),
    h("div", { class: "row" },
      h("button", { type: "button", class: "act primary", id: "adopt-yes", onclick: keep },
        `Keep ${n === 1 ? "it" : "them"} in my account`),
      h("button", { type: "button", class: "act", id: "adopt-no", onclick: closeModal },
        n === 1 ? "Leave it out" : "Leave them out")));
}

// ------------------------------------------------------------------ your games
// The server keeps the list of this browser's seats under a long random identity in a
// cookie; the seats' tokens stay in this browser's memory too (older games are sent to
// the server's list the first time the lobby opens).
async function remember(id, token) {
  try { await api("POST", "/api/me/games", { id, token }); }
  catch { /* the list is a convenience: the game goes on without it */ }
}

async function showMyGames(list) {
  let games = [];
  try {
    const known = Object.entries(store.all()).filter(([, g]) => g.token && !g.listed);
    for (const [id, g] of known) {
      await remember(id, g.token);
      store.put(id, { listed: true });
    }
    games = (await api("GET", "/api/me/games")).games;
    // logged in, the games listed are the account's: they leave this browser at logout
    if (await currentAccount()) {
      for (const g of games) if (store.get(g.id)) store.put(g.id, { account: true });
    }
  } catch (e) {
    fill(list, h("h2", {}, "Your games"), h("p", { class: "error" }, e.message));
    return;
  }
  const open = (path) => (e) => { e.preventDefault(); go(path); };
  fill(list, h("h2", {}, "Your games"),
    games.length ? h("table", { class: "games-list" },
      h("thead", {}, h("tr", {}, ["Game", "Against", "Score", "Status", ""].map((t) =>
        h("th", { scope: "col" }, t)))),
      h("tbody", {}, games.map((g) => h("tr", { dataset: { game: g.id } },
        h("td", { title: g.rules }, `${titleOf(optionsCache, g.rules)} · ${g.format_label}`),
        h("td", {}, g.opponents),
        h("td", { class: "score" }, g.score),
        h("td", { class: "game-status " + g.state }, g.status),
        h("td", { class: "links" },
          g.finished ? null : h("a", { href: `/play/${g.id}`, class: "resume",
            onclick: open(`/play/${g.id}`) }, "Resume"),
          g.replay ? h("a", { href: `/replay/${g.id}`, class: "replay-link",
            onclick: open(`/replay/${g.id}`) }, "Replay") : null,
          forgetButton(g, list))))))
      : h("p", { class: "muted" }, "None yet. Games you start or join appear here, and " +
        "you can come back to them after closing the tab."));
  explain(list);
}

// "forget" takes a game off this browser's list, asked about first: a game not over cannot
// be resumed from here once forgotten, a finished one's record and replay are gone from here.
function forgetButton(g, list) {
  const forget = async () => {
    try { await api("DELETE", `/api/me/games/${g.id}`); } catch { /* gone */ }
    store.drop(g.id);
    showMyGames(list);
  };
  const button = h("button", { class: "link", type: "button", "aria-label": "Forget this game",
    onclick: () => {
      const keep = h("button", { class: "link", type: "button", onclick: () => {
        ask.replaceWith(button);
        button.focus();
      } }, "keep it");
      const ask = h("span", { class: "forget-ask", role: "group",
        "aria-label": "Forget this game?" },
        g.finished ? "Forget it? Its record and replay will no longer be reached from here. "
          : "Not over: forgotten, it cannot be resumed from this browser. ",
        h("button", { class: "link danger", type: "button", onclick: forget }, "forget it"),
        " · ", keep);
      button.replaceWith(ask);
      keep.focus();
    } }, "forget");
  return button;
}

// ------------------------------------------------------------------ invitation
// The invitation is checked before a name is asked: a used or replaced link says so, and
// a good one says who invites you, to which rules and format.
async function showJoin(id) {
  document.title = "Piquet: an invitation";
  $nav.replaceChildren();
  const invite = new URLSearchParams(location.hash.slice(1)).get("invite");
  const mine = await seatOf(id);
  if (mine && mine.token) { go("/play/" + id); return; }
  const refuse = (text) => $main.replaceChildren(h("div", { class: "panel join", id: "join-refused" },
    h("h2", {}, "Invitation"), h("p", { class: "error" }, text),
    h("a", { href: "/" }, "Start a game of your own")));
  if (!invite) { refuse("This link has no invitation code. Ask for the link again."); return; }
  let about;
  try {
    about = await api("POST", `/api/games/${id}/invitation`, { invite });
  } catch (e) { refuse(e.message); return; }
  const account = await currentAccount();
  const name = h("input", { id: "join-name", maxlength: 30, placeholder: "Your name",
    autocomplete: "nickname", value: localStorage.getItem("piquet.name") || "" });
  const ratedNote = !about.rated ? null : account
    ? h("p", { class: "rated-note", id: "rated-note" }, `A rated game: you play as ` +
      `${account.name}, and the result moves both players' ratings.`)
    : h("p", { class: "rated-note error", id: "rated-note" }, "A rated game: log in to " +
      "your account first (or make one) on the ", h("a", { href: "/", target: "_blank" },
        "first page"), ", then come back to this link.");
  const btn = h("button", { class: "primary big", type: "submit", id: "join" },
    "Take your seat");
  const form = h("form", { class: "panel join", id: "join-form" },
    h("h2", {}, `${about.host} invites you to a game of Piquet`),
    h("dl", { class: "join-about" },
      h("dt", {}, "Rules"), h("dd", {}, about.title),
      h("dt", {}, "Format"), h("dd", {}, about.format_label),
      about.others.length ? [h("dt", {}, "Also at the table"),
        h("dd", {}, about.others.join(", "))] : null),
    h("ul", { class: "rules-list small" }, about.summary.map((l) => h("li", {}, l))),
    ratedNote,
    about.rated ? null : h("label", { class: "field" }, "Your name", name), btn);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    btn.disabled = true;
    localStorage.setItem("piquet.name", name.value);
    try {
      const res = await api("POST", `/api/games/${id}/join`,
        { invite, name: name.value || null });
      store.put(id, { token: res.token, seat: res.seat, created: Date.now(),
        opponent: about.host, ack: 0 });
      await remember(id, res.token);
      history.replaceState(null, "", "/play/" + id);
      route();
    } catch (err) {
      toast(err.message, "bad");
      btn.disabled = false;
    }
  });
  $main.replaceChildren(form);
  // the invitation is read from its top (on a phone, focusing the name scrolled it away)
  window.scrollTo(0, 0);
  name.focus({ preventScroll: true });
}

// A refusal's words as a sentence ("no such game: ..." -> "No such game: ....").
function sentence(text) {
  return text.charAt(0).toUpperCase() + text.slice(1) + (text.endsWith(".") ? "" : ".");
}

// This browser's seat at game ``id``: from its memory, else from the server's list of
// this browser's games (the identity cookie); null when it holds none, and
// { missing: message } when there is no such game.
async function seatOf(id) {
  const mine = store.get(id);
  if (mine && mine.token) return mine;
  try {
    const res = await api("GET", `/api/me/games/${id}/seat`);
    if (!res.token) return null;
    store.put(id, { token: res.token, seat: res.seat, created: Date.now(), listed: true });
    return store.get(id);
  } catch (e) {
    // a link whose game id cannot be one (422) is as mistyped as one of no game (404)
    if (e.status === 422) {
      return { missing: "no such game: the link may be mistyped or cut short" };
    }
    return e.status === 404 ? { missing: e.message } : null;
  }
}

// ------------------------------------------------------------------ the table
let T = null; // the table's state

function stopTable() {
  if (!T) return;
  T.stopped = true;
  if (T.ws) { try { T.ws.close(); } catch { /* closed */ } }
  clearTimeout(T.pollTimer);
  clearTimeout(T.retryTimer);
  clearTimeout(T.liveTimer);
  clearInterval(T.clockTimer);
  if (T.acting) clearTimeout(T.acting.timer);
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
  const mine = await seatOf(id);
  if (mine && mine.missing) {
    $nav.replaceChildren();
    $main.replaceChildren(h("div", { class: "panel", id: "no-such-game" },
      h("h2", {}, "No such game"),
      h("p", {}, sentence(mine.missing)),
      h("a", { href: "/" }, "Start a new game")));
    return;
  }
  if (!mine || !mine.token) {
    $nav.replaceChildren();
    $main.replaceChildren(h("div", { class: "panel" }, h("h2", {}, "Not your seat"),
      h("p", {}, "This browser holds no seat at this game. Use your invitation link, or " +
        "the resume link of your seat."), h("a", { href: "/" }, "Start a new game")));
    return;
  }
  T = { id, token: mine.token, game: null, selected: new Set(), selKey: "", ws: null,
    stopped: false, busy: false, hint: null, wsFails: 0, onKey: null, sinking: false,
    naming: false, live: true, liveTimer: null, handFocus: -1, here: null, acting: null,
    pausedDeal: null };
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
    loadRated(T);
    loadClock(T);
    if (!mine.guided && game.practice && game.hints) {
      // a guided game opened from another browser (its resume link): the server says so
      const table = T;
      api("GET", `/api/games/${id}/coach?part=after`, undefined, T.token).then(() => {
        store.put(id, { guided: true });
        if (T === table) renderTable();
      }, () => { /* not a guided game */ });
    }
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
  T.socketId = null;  // told in the new socket's first view
  ws.addEventListener("open", () => ws.send(JSON.stringify({ token: mine.token,
    presence: true })));
  // a heartbeat: a ping every 10 s; a socket silent for 25 s is given up for a new one (a
  // network that went silent closes nothing by itself, and the table would look live)
  let heard = Date.now();
  const beat = setInterval(() => {
    if (mine.ws !== ws || ws.readyState !== WebSocket.OPEN) return;
    if (Date.now() - heard > 25000) { lost(mine, ws); return; }
    try { ws.send(JSON.stringify({ type: "ping" })); } catch { /* closing */ }
  }, 10000);
  ws.addEventListener("message", (ev) => {
    heard = Date.now();
    if (mine.stopped || mine.ws !== ws) return;
    let msg;
    try { msg = JSON.parse(ev.data); } catch { return; }
    if (msg.type === "view") {
      mine.wsFails = 0;
      // the first view names this socket: an action over HTTP names it back, and its
      // view then comes once (in the HTTP answer, not on the socket as well)
      if (typeof msg.socket === "string") mine.socketId = msg.socket;
      setGame(msg.view);  // a view past the one acted on answers the action (setGame)
    } else if (msg.type === "live") setLive(mine, !!msg.ok, msg.error);
    else if (msg.type === "presence") setHere(mine, msg.here);
    else if (msg.type === "talk") loadChat(mine);
    else if (msg.type === "error" && mine.acting && msg.answers &&
      msg.answers.action === mine.acting.id && msg.answers.n === mine.acting.n) {
      answered(mine);  // the action refused: the error says it answers it
      refused(mine, msg.error, msg.game);
    } else if (msg.type === "error") toast(msg.error, "bad");
  });
  ws.addEventListener("close", (ev) => {
    clearInterval(beat);
    if (mine.stopped || mine.ws !== ws) return;
    if (ev.code === 4404 || ev.code === 4401) {
      // the seat is gone: an action sent meanwhile is asked over HTTP, which says why
      const a = mine.acting;
      if (a) actOverHttp(mine, a.id, a.n);
      return;
    }
    lost(mine, ws);
  });
  ws.addEventListener("open", () => { if (mine.ws === ws) setConn(true); });
}

// The socket closed, or went silent: say so, ask for the game, and connect again (later
// each time it fails).
function lost(mine, ws) {
  if (mine.ws !== ws) return;
  mine.ws = null;
  mine.socketId = null;
  const a = mine.acting;  // an action sent but not answered: again over HTTP (the same n)
  if (a) actOverHttp(mine, a.id, a.n);
  try { ws.close(); } catch { /* already closed */ }
  setHere(mine, null);  // who is at the table is not known while away
  mine.wsFails += 1;
  setConn(false);
  const wait = Math.min(8000, 500 * 2 ** Math.min(4, mine.wsFails));
  mine.retryTimer = setTimeout(async () => {
    try {
      const g = await api("GET", seenPath(mine), undefined, mine.token);
      if (!mine.stopped) setGame(g);
    } catch { /* still away */ }
    connect();
  }, wait);
}

// Live updates degraded (the server says so): ask for the game every two seconds until
// they are back, and say so on the table.
function setLive(mine, ok, error) {
  mine.live = ok;
  clearTimeout(mine.liveTimer);
  const poll = async () => {
    if (mine.stopped || mine.live) return;
    try {
      const g = await api("GET", seenPath(mine), undefined, mine.token);
      if (!mine.stopped) setGame(g);
    } catch { /* try again */ }
    if (!mine.stopped && !mine.live) mine.liveTimer = setTimeout(poll, 2000);
  };
  if (!ok) {
    mine.liveError = error || "";
    mine.liveTimer = setTimeout(poll, 2000);
  }
  if (T === mine && T.game) renderTable();
}

// Who is at the table (the seats with a page open, as the server says; null: not known).
function setHere(mine, here) {
  const now = Array.isArray(here) ? here.filter((p) => Number.isInteger(p)) : null;
  if (JSON.stringify(now) === JSON.stringify(mine.here)) return;
  mine.here = now;
  if (T === mine && T.game) renderTable();
}
// Whether player ``p``, a person (not the computer) who has taken the seat, is known to
// have no page of the game open.
function away(p) {
  const s = T.game.seats[p];
  return !!s && s.kind === "human" && s.joined && p !== T.game.seat && !T.game.finished &&
    Array.isArray(T.here) && !T.here.includes(p);
}

function setConn(ok) {
  const dot = document.getElementById("conn");
  if (dot) {
    dot.className = "conn " + (ok ? "on" : "off");
    dot.title = ok ? "Connected" : "Reconnecting…";
    dot.setAttribute("aria-label", dot.title);  // what a screen reader says is what it shows
    // and in words beside it while it is out (a colour alone is easy to miss)
    let words = document.getElementById("conn-words");
    if (!ok && !words) {
      words = h("span", { id: "conn-words", class: "conn-words", "aria-hidden": "true" },
        "reconnecting…");
      dot.after(words);
    } else if (ok && words) words.remove();
  }
}

function setGame(game, force) {
  if (!T) return;
  // a view past the one acted on, however it came, answers the action sent over the socket
  if (T.acting && Number.isInteger(game.n) && game.n > T.acting.n) answered(T);
  if (!force && T.game && game.n < T.game.n) { // an older view arrived late
    renderTable();  // (what is busy may have changed)
    return;
  }
  const prev = T.game;
  T.game = game;
  const v = game.view;
  const key = `${v.game_number}.${v.deal_number}.${v.deal ? v.deal.phase : ""}`;
  if (key !== T.selKey) { T.selected.clear(); T.selKey = key; }
  if (!prev || prev.n !== game.n) { T.hint = null; T.sinking = false; T.naming = false; }
  renderTable();
  maybeSummary();
  // your turn while the tab is hidden: a sound and the browser's notification (if allowed)
  if (game.your_turn && (!prev || !prev.your_turn || prev.n !== game.n) && prev) {
    yourTurnNotice(`Your turn in your game against ${T.game.seats.filter((x) =>
      x.seat !== T.game.seat).map((x) => x.name).join(" and ")}.`);
  }
  if (prev && prev.n !== game.n && T.clock) loadClock(T);
  // a rated game just ended: its ratings moved (the server settles it at the end)
  if (prev && !prev.finished && game.finished && T.rated && T.rated.rated) loadRated(T);
}

// The game's clocks, kept by the server: asked again after each change of the game, and
// shown ticking in between (from the server's own time, so a wrong local clock does not
// matter).
async function loadClock(mine) {
  try {
    const r = await api("GET", `/api/games/${mine.id}/clock`, undefined, mine.token);
    if (T !== mine || !r.clock) return;
    mine.clock = r.clock;
    mine.clockAt = Date.now();
    if (!mine.clockTimer) {
      mine.clockTimer = setInterval(() => {
        if (T !== mine) { clearInterval(mine.clockTimer); return; }
        drawClocks();
        // the running clock reached nothing: the server decides (and says so)
        const c = mine.clock;
        if (c && c.running !== null && !mine.game.finished && left(c.running) <= 0 &&
            !mine.clockAsked) {
          mine.clockAsked = true;
          setTimeout(async () => {
            mine.clockAsked = false;
            await loadClock(mine);
            try { setGame(await api("GET", seenPath(mine), undefined, mine.token)); }
            catch { /* the socket brings it */ }
          }, 600);
        }
      }, 250);
    }
    renderTable();
  } catch { /* the table goes on without it */ }
}
function left(p) {
  const c = T.clock;
  const gone = c.running === p && !T.game.finished ? (Date.now() - T.clockAt) / 1000 : 0;
  return Math.max(0, c.remaining[p] - gone);
}
function clockText(secs) {
  if (secs >= 86400 * 2) return `${Math.floor(secs / 86400)} days`;
  if (secs >= 3600) return `${Math.floor(secs / 3600)} h ${Math.floor(secs % 3600 / 60)} min`;
  const m = Math.floor(secs / 60);
  const s = Math.floor(secs % 60);
  return `${m}:${String(s).padStart(2, "0")}`;
}
function renderClocks() {
  if (!T.clock) return null;
  const box = h("div", { class: "clocks panel", id: "clocks", "aria-label": "Clocks" },
    h("span", { class: "muted small" }, T.clock.words));
  for (const p of [0, 1]) {
    box.append(h("span", { class: "clock" + (T.clock.running === p ? " running" : ""),
      id: `clock-${p}`, dataset: { seat: String(p) } }, `${plainName(p)}: `,
    h("b", {}, clockText(left(p)))));
  }
  return box;
}
function drawClocks() {
  if (!T || !T.clock) return;
  for (const p of [0, 1]) {
    const b = document.querySelector(`#clock-${p} b`);
    if (b) b.textContent = clockText(left(p));
  }
}

// Whether the game is rated, and the ratings (before; after, once it is over).
async function loadRated(mine) {
  try {
    const r = await api("GET", `/api/games/${mine.id}/rating`, undefined, mine.token);
    if (T !== mine) return;
    mine.rated = r;
    renderTable();
  } catch { /* the table goes on without it */ }
}
function ratedWords() {
  const r = T && T.rated;
  if (!r || !r.rated) return null;
  const fmt = r.format === "partie" ? "partie" : "game";
  if (r.changes) {
    return `Rated ${fmt}: ` + r.changes.map((c, p) => `${plainName(p)} ${Math.round(c.before)}` +
      ` → ${Math.round(c.after)}`).join(", ") + ".";
  }
  return `Rated ${fmt}: ` + r.ratings.map((x, p) => x === null ? null
    : `${plainName(p)} ${Math.round(x)}`).filter(Boolean).join(", ") +
    ". The result moves both ratings.";
}

// Every action carries the log length ``n`` of the game it was chosen on: the server
// applies it once, and answers 409 with the game as it stands if that moved on.  It goes
// over the table's open socket, whose next view past ``n`` (or an error naming the action)
// answers it, so the new view comes once; over HTTP while the socket is not open or live
// updates are down, and again over HTTP (the same action and ``n``: applied once) if the
// socket closes or says nothing of it for 8 s.  ``T.acting``: the action sent over the
// socket and not answered yet; while it is, the table is busy.
const SOCKET_ANSWER_MS = 8000;
async function act(id) {
  if (!T || T.busy || !T.game) return;
  const mine = T;
  const n = mine.game.n;
  mine.busy = true;
  const ws = mine.ws;
  if (ws && ws.readyState === WebSocket.OPEN && mine.live) {
    try {
      ws.send(JSON.stringify({ action: id, n }));
    } catch {
      await actOverHttp(mine, id, n);  // the socket is closing
      return;
    }
    const a = { id, n, timer: null };
    a.timer = setTimeout(() => {
      if (mine.acting === a && !mine.stopped) actOverHttp(mine, id, n);
    }, SOCKET_ANSWER_MS);
    mine.acting = a;
    renderTable();
    return;
  }
  await actOverHttp(mine, id, n);
}

// The action sent over the socket is answered (a newer view, or its error): the table is
// free again.  Whether one was waiting.
function answered(mine) {
  const a = mine.acting;
  if (!a) return false;
  clearTimeout(a.timer);
  mine.acting = null;
  mine.busy = false;
  return true;
}

// An action refused (over either path): say why, and show the game as it stands.
// The seat's view, at least as new as the last one this page was sent (any of the
// server's processes may answer: the one asked reads the game again if it is behind).
function seenPath(mine) {
  const n = mine.game && Number.isInteger(mine.game.n) ? `?n=${mine.game.n}` : "";
  return `/api/games/${mine.id}${n}`;
}

async function refused(mine, message, game) {
  toast(sentence(message), "bad");
  let now = game;
  if (!now) {
    try { now = await api("GET", seenPath(mine), undefined, mine.token); }
    catch { /* shown as it was */ }
  }
  if (T !== mine) return;
  if (now) setGame(now); else renderTable();
}

async function actOverHttp(mine, id, n) {
  if (mine.acting) { clearTimeout(mine.acting.timer); mine.acting = null; }
  mine.busy = true;
  if (T === mine) renderTable();
  let game;
  // the open socket's id, if it has one: the new view then comes only in the answer
  const body = { action: id, n };
  if (mine.socketId && mine.ws && mine.ws.readyState === WebSocket.OPEN) {
    body.socket = mine.socketId;
  }
  try {
    game = await api("POST", `/api/games/${mine.id}/actions`, body, mine.token);
  } catch (e) {
    if (T !== mine) return;
    mine.busy = false;
    refused(mine, e.message, e.data && e.data.game);
    return;
  }
  if (T !== mine) return;
  mine.busy = false;
  setGame(game);  // (older than a view the socket brought meanwhile: that one stays)
}

// Undo (a practice game against the computer), resign, rematch: web/practice.py.
async function undo() {
  if (!T || T.busy) return;
  const mine = T;
  mine.busy = true;
  renderTable();
  try {
    const game = await api("POST", `/api/games/${mine.id}/undo`, { n: mine.game.n }, mine.token);
    if (T !== mine) return;
    mine.busy = false;
    mine.selected.clear();
    setGame(game, true);
    toast("Taken back.");
  } catch (e) {
    if (T !== mine) return;
    mine.busy = false;
    toast(e.message, "bad");
    renderTable();
  }
}

function confirmResign() {
  const pool = T.game.format === "pool";
  // a pool is one match of three: resigning ends it all, and no stake is settled
  openModal(pool ? "Resign the pool?" : "Resign this game?",
    h("p", {}, pool ? "The whole pool of three ends here: no more games, and no stake is " +
      "settled." : T.game.practice ? "The computer wins the game." :
      "Your opponent wins the game; the table tells them so."),
    h("div", { class: "row" },
      h("button", { type: "button", class: "act primary", id: "resign-yes", onclick: async () => {
        modalDone = null;
        $modal.hidden = true;
        try {
          setGame(await api("POST", `/api/games/${T.id}/resign`, {}, T.token), true);
        } catch (e) { toast(e.message, "bad"); }
      } }, "Resign"),
      h("button", { type: "button", class: "act", onclick: closeModal }, "Play on")));
}

async function rematch() {
  if (!T) return;
  try {
    const res = await api("POST", `/api/games/${T.id}/rematch`, {}, T.token);
    store.put(res.id, { token: res.token, seat: res.seat, created: Date.now(),
      invites: res.invites, ack: 0 });
    await remember(res.id, res.token);
    go("/play/" + res.id);
  } catch (e) { toast(e.message, "bad"); }
}

// Names and roles --------------------------------------------------------------
// A seat kept for a friend who has not yet taken it has no name of its own yet.
function waitingSeat(s) { return !!s && s.kind === "human" && !s.joined; }
function nameOf(p) {
  const g = T.game;
  const s = g.seats[p];
  if (waitingSeat(s)) return WAITING;
  const n = s ? s.name : `Player ${p + 1}`;
  return p === g.seat ? `${n} (you)` : n;
}
function plainName(p) {
  const s = T.game.seats[p];
  if (waitingSeat(s)) return WAITING;
  return s ? s.name : `Player ${p + 1}`;
}
const WAITING = "(waiting for the other player)";
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
function opponentOf(v) {
  return v.in_game[0] === T.game.seat ? v.in_game[1] : v.in_game[0];
}

// Rendering ---------------------------------------------------------------------
// A nav button's words: in full, and shorter on a phone (the bar keeps one row there).
function navLabel(full, short) {
  return [h("span", { class: "wide" }, full),
    h("span", { class: "narrow", "aria-hidden": "true" }, short)];
}

function renderNav() {
  const g = T.game;
  const over = g.finished;
  // the nav's handlers read the table when clicked: a button drawn the same stays (not one
  // another table drew)
  if ($nav._table !== T) { $nav.replaceChildren(); $nav._table = T; }
  const fresh = patch($nav, [
    h("span", { id: "conn", class: "conn on", title: "Connected", role: "img",
      "aria-label": "Connected" }),
    h("button", { type: "button", class: "navbtn", id: "btn-rules", onclick: showRules },
      "Rules"),
    h("button", { type: "button", class: "navbtn", id: "btn-sheet", onclick: showSheet },
      navLabel("Score sheet", "Score")),
    g.hints ? h("button", { type: "button", class: "navbtn", id: "btn-hint",
      disabled: !g.your_turn || hintBusy(), "aria-busy": hintBusy() ? "true" : null,
      onclick: askHint, title: "Ask the advisor" }, hintBusy() ? "Thinking…" : "Hint") : null,
    h("button", { type: "button", class: "navbtn", id: "btn-link", onclick: showLinks },
      "Links"),
    watchButton(T.id, T.token),
    abortButton(T, (game) => setGame(game, true)),
    over ? null : h("button", { type: "button", class: "navbtn", id: "btn-resign",
      onclick: confirmResign }, "Resign"),
    h("button", { type: "button", class: "navbtn", id: "nav-new", onclick: () => go("/") },
      navLabel("New game", "New"))], { reuseHandlers: true });
  explainNew(fresh);
}

// The glossary's marks over what a render put in new (a text node's through its parent).
function explainNew(nodes) {
  for (const x of nodes) explain(x.nodeType === Node.TEXT_NODE ? x.parentElement : x);
}

// The tab's title says whose turn it is (a player in another tab sees it).
function tabTitle() {
  const g = T.game;
  if (g.finished) return "Game over · Piquet";
  if (g.your_turn) return "▶ Your turn · Piquet";
  if (g.to_act === null || g.to_act === undefined) return "Piquet";
  return `${plainName(g.to_act)} to play · Piquet`;
}

function renderTable() {
  if (!T || !T.game) return;
  const g = T.game;
  const v = g.view;
  const d = v.deal;
  const title = tabTitle();
  if (document.title !== title) document.title = title;
  // for scripts and tests: where the table stands
  $main.dataset.n = String(g.n);
  $main.dataset.busy = T.busy ? "1" : "0";
  $main.dataset.turn = g.your_turn ? "1" : "0";
  $main.dataset.phase = g.finished ? "finished" : (d ? d.phase : "out");
  // keyboard focus: where it was, or (if that is gone) the hand, never the page
  const active = document.activeElement;
  const inTable = active && active !== document.body && $main.contains(active);
  const focusKey = inTable && active.dataset
    ? (active.dataset.card || active.dataset.action || active.id || null) : null;
  const handCards = [...$main.querySelectorAll("#hand .card")];
  const handIndex = inTable ? handCards.indexOf(active) : -1;
  renderNav();

  // the table's containers stay between renders: a section is replaced only when what it
  // shows changed (patch), and only the new ones are run through the glossary
  if (!T.dom) {
    T.dom = { felt: h("section", { class: "felt", "aria-label": "Card table" }),
      side: h("aside", { class: "side" }) };
    T.dom.wrap = h("div", {}, T.dom.felt, T.dom.side);
  }
  const { felt, side, wrap } = T.dom;
  let table;
  if (g.finished) {
    table = [renderFinished()];
  } else if (!d) {
    table = [renderStandingOut()];
  } else {
    table = [renderOpponent(), renderCenter(), renderStatus(),
      takebackLine(T, plainName, (game) => setGame(game, true)), renderActions(),
      renderHand()];
  }
  const mine = store.get(T.id) || {};
  if (T.pausedDeal !== null && T.pausedDeal !== undefined && g.last_deal) {
    table = [renderLastTrick()];
  } else if (mine.guided && !g.finished && d) {
    table.splice(table.length - 2, 0, coachPanel(T, renderTable));  // before the actions
  }
  const rated = ratedWords();
  // the chat: between people (a practice game has nobody to write to)
  const people = g.seats.filter((s) => s.kind === "human").length > 1;
  const typing = T.talk && document.activeElement === T.talk.input;
  const aside = [renderClocks(),
    rated ? h("p", { class: "rated-line panel", id: "rated-line" }, rated) : null,
    people ? chatFor(T, plainName).box : null,
    people && !g.finished ? noticeOffer() : null,
    renderScores(), renderSeen(), renderInvite(), renderDialog(), renderTricks(),
    renderEvents()];
  wrap.className = "table-wrap" + (g.finished ? " done" : "");
  const fresh = patch($main, [
    T.live ? null : h("p", { class: "live-notice", id: "live-notice", role: "status" },
      "Live updates are interrupted: the table looks for news every two seconds."),
    // the computer's level could not move (its workers failed): said, never replaced
    g.computer_problem ? h("p", { class: "live-notice", id: "computer-problem",
      role: "alert" }, g.computer_problem) : null,
    wrap]).filter((x) => x !== wrap);
  fresh.push(...patch(felt, table), ...patch(side, aside));
  setConn(T.ws ? T.ws.readyState === WebSocket.OPEN : !T.wsFails);
  explainNew(fresh);
  if (typing) {
    T.talk.input.focus({ preventScroll: true });  // typing a message: the table moved on
  } else if (inTable) {
    let again = focusKey ? $main.querySelector(
      `button[data-card="${CSS.escape(focusKey)}"], button[data-action="${CSS.escape(focusKey)}"], ` +
      `button#${CSS.escape(focusKey)}`) : null;
    if (!again || again.disabled) {
      const cards = [...$main.querySelectorAll("#hand .card")];
      const playable = $main.querySelector("#hand .card.playable");
      again = playable || (cards.length ? cards[Math.min(Math.max(handIndex, 0),
        cards.length - 1)] : null) ||
        $main.querySelector("#actions button:not([disabled])") ||
        $main.querySelector("#finished button");
    }
    if (again) again.focus({ preventScroll: true });
  }
}

function renderOpponent() {
  const g = T.game;
  const v = g.view;
  const d = v.deal;
  const r = roleNames(v);
  const opp = opponentOf(v);
  const oppRole = opp === r.elder ? "elder" : "younger";
  // before the deal (the dealer choosing how to deal) nobody holds a card yet
  const count = d.phase === "deal" ? 0 : Math.max(0, 12 - d.opponent_played.length);
  const thinking = g.to_act === opp && !g.finished;
  const said = count > 0 ? `holds ${count} card${count === 1 ? "" : "s"}`
    : d.phase === "deal" ? "holds no cards yet" : "has played all his cards";
  const hand = h("div", { class: "opp-hand", "aria-hidden": "true",
    dataset: { count: String(count) } }, Array.from({ length: count }, () => back("small")));
  hand._slot = "opp-hand";
  const box = h("div", { class: "opponent" },
    h("div", { class: "who" },
      h("span", { class: "pname" }, nameOf(opp)),
      h("span", { class: "role" }, oppRole === "younger" ? "younger · dealer" : "elder"),
      away(opp) ? h("span", { class: "away", id: "opp-away", title:
        "No page of this game is open for this player just now" },
        "away from the table")
        : thinking && !waitingSeat(g.seats[opp]) ? h("span", { class: "thinking" },
          g.seats[opp].kind === "ai" ? "thinking…" : "to play…") : null),
    h("p", { class: "sr-only", id: "opp-count" }, `${plainName(opp)} ${said}.`), hand,
    d.opponent_discard_count
      ? h("div", { class: "opp-discards muted" }, `${d.opponent_discard_count} discarded`)
      : null);
  box._slot = "opponent";
  return box;
}

// The play's points of each trick, from the deal's count (its lead and trick lines name
// the cards: "leads 7H", "wins 7H TH").
function trickPoints(d) {
  const out = d.tricks.map(() => ({ elder: 0, younger: 0 }));
  const byLead = new Map(d.tricks.map((t, i) => [t.lead, i]));
  for (const e of d.events) {
    let i;
    if (e.kind === "lead" || e.kind === "trick") {
      const m = (e.note || "").match(/([6-9TJQKA][SHDC])/);
      i = m ? byLead.get(m[1]) : undefined;
    } else if (e.kind === "last trick" && d.tricks.length) {
      i = d.tricks.length - 1;
    }
    if (i !== undefined) out[i][e.seat] += e.points;
  }
  return out;
}

function trickView(t, d, note) {
  const myRole = d.role;
  const myCard = t.leader === myRole ? t.lead : t.follow;
  const theirCard = t.leader === myRole ? t.follow : t.lead;
  const iWon = t.winner === myRole;
  return [
    h("div", { class: "trick-slot theirs" + (iWon ? "" : " won") }, card(theirCard,
      { cls: "played", note: "played by " + plainName(opponentOf(T.game.view)) })),
    h("div", { class: "trick-slot mine" + (iWon ? " won" : "") }, card(myCard,
      { cls: "played", note: "played by you" })),
    h("div", { class: "trick-note" }, note + (iWon ? "yours" : "theirs")),
  ];
}

function renderCenter() {
  const g = T.game;
  const d = g.view.deal;
  // before the cards are dealt there is no stock to show (the dealer still holds the pack);
  // younger's leftovers this seat has seen (turned up for both, or looked at) lie face up
  const seen = d.phase !== "deal" && d.stock_count > 0
    && d.leftovers_seen.length === d.stock_count ? sortHand(d.leftovers_seen) : null;
  const stock = d.phase === "deal" ? h("div", { class: "pile stock" })
    : h("div", { class: "pile stock", id: "stock", "aria-label": seen
      ? `Stock: ${cardsText(seen)}, seen` : `Stock: ${d.stock_count} cards` },
      seen ? h("div", { class: "stock-seen" }, mini(seen))
        : d.stock_count ? h("div", { class: "stack" }, back(), d.stock_count > 1
          ? back("under") : null) : h("div", { class: "slot" }),
      h("div", { class: "pile-label" }, seen ? `Stock ${d.stock_count}, seen`
        : `Stock ${d.stock_count}`));
  // the trick in play; the trick before it stays in view beside it until the next one is
  // complete (the computer leading again no longer sweeps it away)
  const trick = h("div", { class: "trick", id: "trick", "aria-live": "polite" });
  const n = d.tricks.length;
  if (d.trick_lead) {
    const leadByMe = !d.opponent_played.includes(d.trick_lead);
    trick.append(h("div", { class: "trick-slot " + (leadByMe ? "mine" : "theirs") },
      card(d.trick_lead, { cls: "played", note: leadByMe ? "led by you" : "led by " +
        plainName(opponentOf(g.view)) }),
      h("div", { class: "trick-note" }, leadByMe ? "you led" : "led")));
    if (n) {
      const t = d.tricks[n - 1];
      const [theirs, mine] = trickView(t, d, "");
      trick.classList.add("with-last");
      trick.append(h("div", { class: "last-trick", id: "last-trick" },
        h("div", { class: "trick-note" }, `trick ${n}: ` +
          (t.winner === d.role ? "yours" : `${plainName(opponentOf(g.view))}'s`)),
        h("div", { class: "last-cards" }, theirs, mine)));
    }
  } else if (n) {
    trick.append(...trickView(d.tricks[n - 1], d, `trick ${n}: `));
  } else if (d.phase === "play") {
    trick.append(h("div", { class: "trick-note" }, "no card played yet"));
  }
  // before the play the middle holds only the stock: it keeps the hand in view
  trick._slot = "trick";
  const center = h("div", { class: "center" + (d.phase === "play" ? "" : " quiet") }, stock,
    trick);
  center._slot = "center";
  return center;
}

// The cards out of play that you have seen, beside the table (not over the hand): your
// discards, your leftovers, younger's leftovers; each card once, in compact lines.
function renderSeen() {
  const g = T.game;
  const d = g.view.deal;
  if (!d || !(d.discards.length || d.unused_seen.length || d.leftovers_seen.length)) {
    return null;
  }
  const elder = d.role === "elder";
  const left = new Set(d.leftovers_seen);
  const unused = d.unused_seen.filter((c) => !left.has(c));
  // turned up for both (du-coeur-1995): the dialog showed them
  const both = d.leftovers_seen.length > 0 && d.dialog.some((u) =>
    d.leftovers_seen.every((c) => u.shown.includes(c)));
  const line = (id, label, ids) => h("div", { class: "seen-line" },
    h("span", { class: "seen-label", id }, label), textCards(sortHand(ids)));
  return h("section", { class: "seen", id: "seen-cards", "aria-label": "Cards you have seen" },
    h("h3", {}, "Cards out of play"),
    d.discards.length ? line("discards-label", "Your discards", d.discards) : null,
    unused.length ? line("unused-label", elder ? "Your leftovers (left for younger)"
      : "Elder's leftovers", unused) : null,
    d.leftovers_seen.length ? line("leftovers-label", both
      ? "Younger's leftovers, turned up for both" : elder
        ? "Seen in the stock: younger's leftovers" : "Your leftovers",
    d.leftovers_seen) : null);
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
        // with none chosen the button reads "Take no cards" (when he may take none)
        const press = n === 0 && x.min === 0 ? "or press Take no cards" : "then press Discard";
        return `Exchange: choose ${range} card${x.max === 1 ? "" : "s"} to discard ` +
          `(${n} chosen), ${press}.`;
      }
      case "leftovers": {
        if (la.some((a) => a.kind === "name")) {
          return "Younger has leftovers: name your lead to see them, or leave them.";
        }
        // the choices' own words: under some rules turning them up shows them to both
        const [yes, no] = ["look", "decline"].map((id) => la.find((a) => a.id === id));
        return yes && no ? `You have leftovers: ${lower(yes.label)}, or ` +
          `${lower(no.label)}.` : "You have leftovers.";
      }
      case "appoint": return "Elder lacks the lead named: appoint the lead.";
      case "declare": {
        const opp = plainName(opponentOf(g.view));
        // the line says what the buttons shown allow (renderDeclare), nothing more
        if (la.some((a) => a.kind === "answer")) return `Answer ${opp}'s ${d.declaring}.`;
        if (la.some((a) => a.kind === "question")) {
          return `Ask ${opp} which card of the ${d.declaring} he laid out, or not.`;
        }
        const claims = la.filter((a) => a.kind === "declare" && a.offer !== false).length;
        const pass = la.some((a) => a.kind === "pass");
        if (!claims) return pass ? `You have nothing to declare in ${d.declaring}: pass.`
          : `Your ${d.declaring}.`;
        return claims > 1 || pass ? `Your ${d.declaring}: declare it, or sink it.`
          : `Your ${d.declaring}: declare it.`;
      }
      case "play": return (d.trick_lead ? "Play to the trick (follow suit if you can)."
        : "Your lead.") + leadBound(" ");
      default: return "Your turn.";
    }
  }
  if (g.to_act === null || g.to_act === undefined) return "";
  const who = nameOf(g.to_act);
  const s = g.seats[g.to_act];
  if (waitingSeat(s)) return "Waiting for your friend to take the seat…";
  if (s && s.kind === "ai") return `${who} is thinking…`;
  const doing = { deal: "dealing", blanche: "deciding on carte blanche",
    exchange: "exchanging", leftovers: "deciding about the leftovers",
    appoint: "appointing the lead", declare: "declaring" }[d.phase];
  if (away(g.to_act)) {
    return `${who} is ${doing || "to play"}, and away from the table: the game waits ` +
      "for them." + leadBound(" ");
  }
  return `${who} is ${doing || "to play"}…` + leadBound(" ");
}

function lower(text) { return text.charAt(0).toLowerCase() + text.slice(1); }

// Elder's first lead when a lead was named (1662, 1754) or appointed: what binds it, as
// this seat knows (the server's ``first_lead``); "" otherwise.  Bound to a card he does
// not hold, elder leads as he likes: both are told so.
function leadBound(sep) {
  const g = T.game;
  const d = g.view.deal;
  const fl = g.first_lead;
  if (!fl || !d || !d.lead_rule) return "";
  const rule = d.lead_rule;
  const card = rule.kind === "card";
  const what = card ? `the ${cardShort(rule.value)}` : SUIT_NAMES[rule.value] || rule.value;
  const leadIt = card ? "lead it" : "lead that suit";
  const r = roleNames(g.view);
  const elderMe = r.elder === g.seat;
  const elder = plainName(r.elder);
  const other = plainName(r.younger);
  const led = !!d.trick_lead;
  let text = "";
  if (fl.how === "named") {
    if (!led) text = elderMe ? `You named ${what}: ${leadIt}.` : `${elder} named ${what}.`;
  } else if (fl.held === false) {
    if (led) text = elderMe ? "" : `${elder} did not hold ${what}: the lead was free.`;
    else {
      text = elderMe ? `You do not hold ${what} that ${other} appointed: your lead is free.`
        : `${elder} does not hold ${what}: the lead is free.`;
    }
  } else if (fl.held === true) {
    if (!led) text = elderMe ? `${other} appointed ${what}: ${leadIt}.`
      : `You appointed ${what}: ${elder} holds it and must lead it.`;
  } else if (!led) {
    text = `You appointed ${what}: ${elder} must lead it if holding it; if not, the lead ` +
      "is free.";
  }
  return text ? sep + text : "";
}

function renderStatus() {
  const g = T.game;
  const d = g.view.deal;
  return h("div", { class: "status" + (g.your_turn ? " yours" : ""), id: "status",
    role: "status" },
  h("span", { class: "phase-tag" }, d.phase),
  h("span", {}, phaseText()),
  // at one's own declarations the hint stands in their panel, beside the buttons: once
  T.hint && !(d.phase === "declare" && g.your_turn)
    ? h("div", { class: "hint", id: "hint" }, "Advisor: ", codesAsCards(T.hint))
    : hintBusy() ? h("div", { class: "hint thinking", id: "hint-thinking" },
      "The advisor is thinking…") : null);
}

// One button of the actions; keys 1-9 press the first nine shown.
function actButton(a, n, extra = {}) {
  const cls = "act" + (a.kind === "declare" ? " declare" : "") +
    (a.kind === "answer" || a.kind === "pass" ? " answer" : "") +
    (extra.cls ? " " + extra.cls : "");
  return h("button", { type: "button", class: cls, disabled: T.busy,
    dataset: { action: a.id, key: n <= 9 ? String(n) : "" }, onclick: () => act(a.id) },
  n <= 9 ? h("kbd", {}, String(n)) : null, " ", extra.label || a.label,
  a.cards.length && !extra.noCards ? mini(sortHand(a.cards)) : null);
}

function undoButton() {
  const g = T.game;
  // standing out of a pool's game, the computers play on: nothing of this seat's to take back
  if (!g.can_undo || standingOut(g.view)) return null;
  return h("button", { type: "button", class: "act undo", id: "undo", disabled: T.busy,
    onclick: undo, title: "Take back your last move (a practice game)" }, "↶ Undo");
}

function renderActions() {
  const g = T.game;
  const box = h("div", { class: "actions", id: "actions" });
  if (!g.your_turn) { box.append(...[undoButton()].filter(Boolean)); return box; }
  const la = g.legal_actions;
  if (g.view.deal.phase === "declare") return fill(box, renderDeclare(), undoButton());
  if (la.some((a) => a.kind === "name" || a.kind === "appoint")) {
    return fill(box, renderNaming(), undoButton());
  }
  let n = 0;
  for (const a of la) {
    if (a.kind === "play") continue;
    if (a.kind === "discard") {
      const k = T.selected.size;
      const ok = k >= a.min && k <= a.max;
      const ids = sortHand([...T.selected]);
      const label = k === 0 ? (a.min === 0 ? "Take no cards" : a.label)
        : `Discard ${k}: ${cardsText(ids)}`;
      n += 1;
      box.append(h("button", { type: "button", class: "act primary", id: "discard",
        dataset: { action: "discard", key: String(n) }, disabled: !ok || T.busy,
        onclick: () => act("discard:" + (ids.length ? ids.join(" ") : "-")) },
      h("kbd", {}, String(n)), " ", label));
      continue;
    }
    n += 1;
    box.append(actButton(a, n));
  }
  const u = undoButton();
  if (u) box.append(u);
  return box;
}

// Declarations: the other side's words next to your answer; your best claim first, the
// lesser ones (sinking) behind one clear choice.  Every option is a button (Tab reaches
// it; 1-9 press the first nine shown).
function renderDeclare() {
  const g = T.game;
  const v = g.view;
  const d = v.deal;
  const la = g.legal_actions;
  const opp = opponentOf(v);
  const box = h("div", { class: "declare-box", id: "declare", role: "group",
    "aria-labelledby": "declare-title" });
  box.append(h("h3", { id: "declare-title" }, `Declarations: the ${d.declaring}`));
  const last = d.dialog.length ? d.dialog[d.dialog.length - 1] : null;
  const oppRole = d.role === "elder" ? "younger" : "elder";
  // only his words about the class being declared: his "Not good." to the point is not
  // shown under the sequences (the dialog keeps every line)
  if (last && last.seat === oppRole && last.class && last.class === d.declaring) {
    box.append(h("p", { class: "their-words", id: "their-words" },
      h("span", { class: "speaker" }, `${plainName(opp)}: `),
      h("q", { class: "said" }, codesAsCards(last.text)),
      last.shown.length ? mini(sortHand(last.shown)) : null));
  }
  if (T.hint) {
    box.append(h("p", { class: "hint", id: "declare-hint" }, "Advisor: ", codesAsCards(T.hint)));
  }
  const answers = la.filter((a) => a.kind === "answer");
  const claims = la.filter((a) => a.kind === "declare");
  const pass = la.find((a) => a.kind === "pass");
  const others = la.filter((a) => !["answer", "declare", "pass"].includes(a.kind));
  let n = 0;
  const row = h("div", { class: "row answers", id: "answers" });
  for (const a of answers) { n += 1; row.append(actButton(a, n, { cls: "primary" })); }
  for (const a of others) { n += 1; row.append(actButton(a, n)); }
  if (claims.length) {
    n += 1;
    row.append(actButton(claims[0], n, { cls: "primary best",
      label: `Declare: ${claims[0].label}` }));
  } else if (pass && !answers.length) {
    box.append(h("p", { class: "muted" }, `You have nothing to declare in ${d.declaring}.`));
  }
  // a lesser claim that would count exactly as the best (``offer`` false) sinks nothing
  const sink = [...claims.slice(1).filter((a) => a.offer !== false), ...(pass ? [pass] : [])];
  if (sink.length && claims.length) {
    const open = T.sinking;
    row.append(h("button", { type: "button", class: "act sink-toggle", id: "sink-toggle",
      "aria-expanded": String(open), "aria-controls": "sink-list",
      onclick: () => { T.sinking = !T.sinking; renderTable();
        const first = $main.querySelector("#sink-list button");
        if (T.sinking && first) first.focus(); } },
    open ? "Hide the lesser claims" : `Sink: declare less (${sink.length} ` +
      `way${sink.length === 1 ? "" : "s"})…`));
  } else if (sink.length) {
    for (const a of sink) { n += 1; row.append(actButton(a, n)); }
  }
  box.append(row);
  if (sink.length && claims.length && T.sinking) {
    box.append(h("p", { class: "muted small" }, "Sinking hides part of your hand from " +
      "the other side, at the cost of what you would have counted."));
    box.append(h("div", { class: "sink-list", id: "sink-list" },
      sink.map((a) => { n += 1; return actButton(a, n); })));
  }
  return box;
}

// Naming the lead to see younger's leftovers (1754: a card; 1662: a suit), or appointing
// elder's lead: the cards you hold first, and what naming another means.
function renderNaming() {
  const g = T.game;
  const v = g.view;
  const d = v.deal;
  const la = g.legal_actions;
  const opp = plainName(opponentOf(v));
  // appointing: only what elder may hold as far as you know (``offer``; the others would
  // bind him to nothing)
  const named = la.filter((a) => (a.kind === "name" || a.kind === "appoint") &&
    a.offer !== false);
  const rest = la.filter((a) => a.kind !== "name" && a.kind !== "appoint");
  const appoint = named.some((a) => a.kind === "appoint");
  const target = (a) => a.id.slice(a.id.indexOf(":") + 1);
  const byCard = named.every((a) => target(a).length === 2);
  const hand = new Set(d.hand);
  const box = h("div", { class: "naming", id: "naming", role: "group",
    "aria-labelledby": "naming-title" });
  let n = 0;
  if (appoint) {
    box.append(h("h3", { id: "naming-title" }, "Appoint elder's lead"),
      h("p", { class: "small", id: "appoint-rule" }, `${opp} named a lead not in ` +
        `${opp}'s hand: choose the ` + (byCard ? "card to be led, among those that may " +
        "be there (not yours, nor those you laid out or saw in the stock)."
          : "suit to be led.") + " If it is not held, the lead is free."));
    const bySuit = {};
    for (const a of named) (bySuit[target(a).slice(-1)] ||= []).push(a);
    for (const [suit, acts] of Object.entries(bySuit)) {
      box.append(h("div", { class: "name-suit" }, h("span", { class: "suit-label" },
        `${SUITS[suit]} ${SUIT_NAMES[suit]}`),
      acts.map((a) => h("button", { type: "button", class: "act name-card",
        disabled: T.busy, dataset: { action: a.id }, onclick: () => act(a.id),
        "aria-label": "Lead the " + cardName(target(a)) }, cardShort(target(a))))));
    }
    return box;
  }
  box.append(h("h3", { id: "naming-title" }, "See younger's leftovers?"));
  if (byCard) {
    box.append(h("p", { class: "small", id: "naming-rule" },
      "Name the card you will lead, and younger shows you his leftovers. You are " +
      "bound to lead it. Name a card you do not hold and " + opp + " chooses your lead."));
    const other = named.filter((a) => !hand.has(target(a)));
    // the cards held are named from the hand itself (renderHand), right below
    box.append(h("p", { class: "pick-note", id: "name-held-note" },
      "↓ Choose the card in your hand."));
    for (const a of rest) { n += 1; box.append(actButton(a, n)); }
    if (other.length) {
      const open = T.naming;
      box.append(h("button", { type: "button", class: "link", id: "name-other-toggle",
        "aria-expanded": String(open), "aria-controls": "name-other",
        onclick: () => { T.naming = !T.naming; renderTable(); } },
      open ? "Hide the cards you do not hold" :
        `Name a card you do not hold (${other.length})…`));
      if (open) {
        box.append(h("p", { class: "small warn" }, `Then ${opp} chooses which card you lead.`));
        const bySuit = {};
        for (const a of other) (bySuit[target(a).slice(-1)] ||= []).push(a);
        box.append(h("div", { class: "name-other", id: "name-other" },
          Object.entries(bySuit).map(([suit, acts]) => h("div", { class: "name-suit" },
            h("span", { class: "suit-label" }, `${SUITS[suit]} ${SUIT_NAMES[suit]}`),
            acts.map((a) => h("button", { type: "button", class: "act name-card",
              disabled: T.busy, dataset: { action: a.id }, onclick: () => act(a.id),
              "aria-label": "Name the " + cardName(target(a)) }, cardShort(target(a))))))));
      }
    }
  } else {
    box.append(h("p", { class: "small", id: "naming-rule" },
      "Name the suit you will lead, and younger shows you his leftovers. You are " +
      "bound to lead that suit; holding none of it, you lead the suit " + opp + " names."));
    const row = h("div", { class: "row name-suits" });
    for (const a of named) {
      const suit = target(a);
      const count = d.hand.filter((c) => c[1] === suit).length;
      n += 1;
      row.append(h("button", { type: "button", class: "act name-suit-btn", disabled: T.busy,
        dataset: { action: a.id, key: n <= 9 ? String(n) : "" }, onclick: () => act(a.id) },
      n <= 9 ? h("kbd", {}, String(n)) : null, ` ${SUITS[suit]} ${SUIT_NAMES[suit]} `,
      h("span", { class: "held-count small" }, count ? `(you hold ${count})`
        : "(you hold none)")));
    }
    box.append(row);
    for (const a of rest) { n += 1; box.append(actButton(a, n)); }
  }
  return box;
}

// What the hand's cards may do now: read to draw them and again at a click (a card kept
// between renders acts on the table as it stands, as one drawn anew would).
function handChoices() {
  const g = T.game;
  const playable = new Set(g.legal_actions.filter((a) => a.kind === "play")
    .map((a) => a.cards[0]));
  // naming the lead card (1754): the cards of the hand are the choices
  const nameable = new Map(g.legal_actions.filter((a) => a.kind === "name" &&
    a.id.length === 7).map((a) => [a.id.slice(5), a.id]));
  const exchanging = g.your_turn && g.legal_actions.some((a) => a.kind === "discard");
  return { playable, nameable, exchanging };
}

function cardClick(c) {
  if (!T || !T.game || !T.game.view.deal) return;
  const { playable, nameable, exchanging } = handChoices();
  const naming = nameable.get(c);
  if (naming) act(naming);
  else if (playable.has(c)) act("play:" + c);
  else if (exchanging) {
    if (T.selected.has(c)) T.selected.delete(c); else T.selected.add(c);
    renderTable();
  } else if (playable.size) {
    // a card that may not be played says why, as the terminal does
    toast(whyNot(c, T.game.view.deal), "bad");
  }
}

function renderHand() {
  const g = T.game;
  const d = g.view.deal;
  const { playable, nameable, exchanging } = handChoices();
  const taken = new Set(d.taken);
  const hand = h("div", { class: "hand" + (exchanging ? " choosing" : ""), id: "hand",
    role: "group", "aria-label": `Your hand, ${d.hand.length} cards` });
  for (const c of sortHand(d.hand)) {
    const canPlay = playable.has(c);
    const sel = T.selected.has(c);
    const note = [canPlay ? "playable" : "", sel ? "chosen to discard" : "",
      taken.has(c) ? "taken in" : ""].filter(Boolean).join(", ");
    const naming = nameable.get(c);
    const cls = [canPlay ? "playable" : "", sel ? "selected" : "",
      taken.has(c) ? "taken" : "", naming ? "playable nameable" : "",
      playable.size && !canPlay ? "dim" : ""].filter(Boolean).join(" ");
    const b = card(c, { button: true, cls,
      note: naming ? "name it as your lead" : note });
    b.setAttribute("aria-pressed", exchanging ? String(sel) : "false");
    if (!naming && !canPlay && !exchanging) b.setAttribute("aria-disabled", "true");
    listen(b, "click", () => cardClick(c));
    // kept while drawn the same, but drawn anew when its state changes (not morphed: a
    // card that turns playable appears so at once, without its lift's transition, and
    // a click aimed at it as it was lands on nothing stale)
    b._slot = undefined;
    hand.append(b);
  }
  // the cards' handler reads the table when clicked: the hand stays between renders, and
  // only the cards that changed are drawn anew (slots: dom.js patch)
  const wrap = h("div", { class: "hand-wrap" }, hand);
  for (const x of [wrap, hand, ...hand.children]) x._reuse = true;
  wrap._slot = "hand-wrap";
  hand._slot = "hand";
  return wrap;
}

// Why ``c`` may not be played now (the cards not dimmed are the ones that may).
function whyNot(c, d) {
  const name = cardName(c).charAt(0).toUpperCase() + cardName(c).slice(1);
  const lead = d.trick_lead;
  if (lead) {
    const suit = SUIT_NAMES[lead.slice(-1)];
    return `${name}: you must follow ${suit} while you hold any; the bright cards ` +
      "are the ones you may play.";
  }
  return `${name} may not be led now: the bright cards are the ones you may lead.`;
}

function renderStandingOut() {
  const g = T.game;
  const v = g.view;
  const [a, b] = v.in_game;
  return h("div", { class: "standing-out" },
    h("h2", {}, "You stand out this game"),
    h("p", {}, `${nameOf(a)} and ${nameOf(b)} are playing: ${v.scores[0]} to ${v.scores[1]}.`),
    h("p", { class: "muted" }, `The pool holds ${v.pool}. The winner stays; the loser makes ` +
      "room for you."),
    undoButton());
}

function resultText() {
  return resultOf(T.game, nameOf, T.game.seat);
}

function renderFinished() {
  const g = T.game;
  const formats = (T.opts.record_formats || ["json"]);
  const others = g.seats.filter((s) => s.seat !== g.seat);
  // this browser holds a seat in the rematch (it made it, or took its seat): go there
  const inRematch = g.rematch && (g.rematch_mine || store.get(g.rematch));
  const rematchLabel = !g.rematch ? (g.format === "pool"
    ? "Rematch (same rules, seats moved round)" : "Rematch (same rules, seats swapped)")
    : inRematch ? "Go to the rematch" : "Take your seat in the rematch";
  return h("div", { class: "finished", id: "finished" },
    h("h2", {}, "Game over"),
    h("p", { class: "result" }, resultText()),
    g.rematch && !inRematch ? h("p", { class: "rematch-offer", id: "rematch-offer" },
      `${others.map((s) => s.name).join(" and ")} offer${others.length === 1 ? "s" : ""} a ` +
      "rematch.") : null,
    h("div", { class: "row" },
      h("button", { type: "button", class: "act primary", id: "rematch",
        onclick: inRematch ? () => go("/play/" + g.rematch) : rematch }, rematchLabel),
      // a resigned game has its record and replay too (the resignation is in the record)
      formats.map((f) => h("button", { type: "button", class: "act",
        id: `download-${f}`, onclick: () => download(f) },
      `Download the record (${f === "text" ? "text" : "JSON"})`)),
      h("button", { type: "button", class: "act", id: "open-replay",
        onclick: () => go("/replay/" + g.id) }, "Replay the game"),
      h("button", { type: "button", class: "act", onclick: () => go("/") },
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
  // a partie has a fixed number of deals: say which one this is ("deal 3 of 6")
  const of = g.format === "partie" && rs.partie_deals
    ? (v.deal_number <= rs.partie_deals ? ` of ${rs.partie_deals}` : " (an extra deal: the " +
      "partie stood level)") : "";
  // the deal's count by name (by role alone, a player could not tell which was his)
  const r = d ? roleNames(v) : null;
  const tricks = (n) => `${n} trick${n === 1 ? "" : "s"}`;
  const extra = d ? h("div", { class: "muted small", id: "deal-count" },
    `This deal: ${nameOf(r.elder)} ${d.scores.elder} (${tricks(d.tricks_won.elder)}) · ` +
      `${nameOf(r.younger)} ${d.scores.younger} (${tricks(d.tricks_won.younger)})`) : null;
  const box = h("section", { class: "scores", "aria-label": "Scores" },
    h("div", { class: "title", title: g.rules }, `${titleOf(T.opts, g.rules)} · ${fmt}`),
    h("div", { class: "muted small", id: "deal-number" },
      g.format === "partie" ? `Deal ${v.deal_number}${of}`
        : `Game ${v.game_number} · deal ${v.deal_number}`),
    lines, extra, poolLines(v));
  box._slot = "scores";  // the points move at every trick, the rest seldom
  return box;
}

// A pool: who stands out of this game, and the games played before it (one the cut left
// this seat out of was played without it: say so, or the table seems to start at game 2)
function poolLines(v) {
  const g = T.game;
  if (g.format !== "pool") return null;
  const out = v.players.find((p) => !v.in_game.includes(p));
  const rows = v.games.map((r) => h("div", {}, gameLine(r) +
    (r.players.includes(g.seat) ? "" : " (you stood out)")));
  return h("div", { class: "muted small", id: "pool-games" },
    out === undefined || g.finished ? null
      : h("div", {}, out === g.seat ? "You stand out of this game." : `${nameOf(out)} stands out.`),
    rows, h("div", {}, `The pool holds ${v.pool}.`));
}

function renderInvite() {
  const g = T.game;
  const waiting = g.seats.filter((s) => s.kind === "human" && !s.joined);
  if (!waiting.length || g.finished) return null;
  const mine = store.get(T.id) || {};
  const invites = mine.invites || [];
  const box = h("section", { class: "invite", id: "invite" },
    h("h3", {}, "Invite a friend, or offer the seat in the lobby"));
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
      // the new link retires a challenge in the lobby: the seat may be offered again
      store.put(T.id, { invites: res.invites, offered: null });
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
    box.append(h("p", { class: "muted small" }, standingOut(v)
      ? "You stand out of this game: follow it by the spectator link."
      : "Nothing said yet this deal."));
    return box;
  }
  const list = h("ol", { class: "lines" });
  list._slot = "lines";
  box._slot = "dialog";  // a new line comes alone
  const rv = dealRoles(v);
  for (const u of d.dialog) {
    const w = whoSaid(rv, u.seat);
    list.append(h("li", { class: w.p === g.seat ? "me" : "them" },
      h("span", { class: "speaker" }, w.label + ": "),
      h("span", { class: "said" }, codesAsCards(u.said)),
      u.shown.length ? mini(sortHand(u.shown)) : null));
  }
  box.append(list);
  // the list shown (this one, or the one kept in its place), at its newest line when a
  // line came (a reader who scrolled back stays where he is until then)
  requestAnimationFrame(() => {
    const shown = list.isConnected ? list : document.querySelector(".side .dialog ol.lines");
    if (shown && shown._lines !== shown.childElementCount) {
      shown._lines = shown.childElementCount;
      shown.scrollTop = shown.scrollHeight;
    }
  });
  return box;
}

// The tricks of the deal so far: who led, who won, what each scored.
function renderTricks() {
  const g = T.game;
  const v = g.view;
  const d = v.deal || g.last_deal;
  if (!d || !d.tricks.length) return null;
  const r = roleNames(dealRoles(v));
  const who = (role) => plainName(role === "elder" ? r.elder : r.younger);
  const pts = trickPoints(d);
  const lines = h("ol", { class: "lines trick-lines" }, d.tricks.map((t, i) => {
      const follower = t.leader === "elder" ? "younger" : "elder";
      const scored = ["elder", "younger"].filter((x) => pts[i][x])
        .map((x) => `${who(x)} +${pts[i][x]}`).join(", ");
      return h("li", { class: t.winner === d.role ? "me" : "them" },
        h("span", { class: "tn" }, `${i + 1}.`), " ",
        `${who(t.leader)} led `, h("b", {}, cardShort(t.lead)), `, ${who(follower)} `,
        h("b", {}, cardShort(t.follow)), ` — ${who(t.winner)} won`,
        scored ? h("span", { class: "muted" }, ` (${scored})`) : null);
  }));
  lines._slot = "lines";
  const box = h("section", { class: "tricks", id: "tricks", "aria-label": "Tricks of this deal" },
    h("h3", {}, v.deal ? "Tricks of this deal" : "Tricks of the last deal"), lines);
  box._slot = "tricks";
  return box;
}

function eventLine(v, e) {
  const w = whoSaid(v, e.seat);
  const big = ["pique", "repique", "capot"].includes(e.kind);
  return h("li", { class: (w.p === T.game.seat ? "me" : "them") + (big ? " big" : "") },
    h("span", { class: "pts" }, `+${e.points}`), " ",
    h("span", {}, `${nameOf(w.p)}: ${e.kind}`),
    e.note ? h("span", { class: "muted" }, ` (${codesAsCards(e.note)})`) : null);
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
  const lines = h("ol", { class: "lines" }, d.events.map((e) => eventLine(dealRoles(v), e)));
  lines._slot = "lines";
  box.append(lines);
  box._slot = "events";  // a new line comes alone
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
  // the latest new deal this seat played: in a pool, the deals of a game it stands out
  // of are the others' (their summaries would stand over its own next game)
  for (let i = n - 1; i >= mine.ack; i--) {
    const s = g.view.deals[i];
    if (s.elder === g.seat || s.younger === g.seat) {
      // a learner sees the last trick on the table first, then the summary
      const last = g.last_deal && g.last_deal.number === i + 1 ? g.last_deal : null;
      if (last && last.tricks.length && (level() === "learner" || mine.guided)) {
        T.pausedDeal = i;
        renderTable();
      } else {
        showDealSummary(i);
      }
      return;
    }
  }
}

// The deal just finished, its last trick still on the table, and a Continue to the summary.
function renderLastTrick() {
  const g = T.game;
  const d = g.last_deal;
  const t = d.tricks[d.tricks.length - 1];
  const i = T.pausedDeal;
  const go = () => { T.pausedDeal = null; renderTable(); showDealSummary(i); };
  return h("div", { class: "last-trick-pause", id: "last-trick-pause" },
    h("h3", {}, d.tricks.length === 12 ? `The last trick of deal ${d.number}`
      : `The last trick played in deal ${d.number}`),
    h("div", { class: "trick" }, trickView(t, d, `trick ${d.tricks.length}: `)),
    h("p", {}, (t.winner === d.role ? "You won it." : `${plainName(opponentOf(g.view))} won it.`) +
      (d.tricks.length === 12 ? "" : " The deal stopped there: the game was won.")),
    h("button", { type: "button", class: "act primary", id: "summary-continue", onclick: go },
      "Continue to the summary"));
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
      players.map((p, i) => h("th", {}, `${nameOf(p)}, ${i ? "younger" : "elder"}`)))),
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
  const after = h("p", { class: "muted", id: "summary-after" }, afterDeal(s));
  // a game is won the moment the target is reached, even in the middle of a deal
  const rs = ruleSet(T.opts, g.rules);
  // (a deal played to its end has counted its last trick; one cut short has not)
  const cut = !s.by_kind.some((bk) => bk["last trick"]);
  const stopped = s.reached === null || s.reached === undefined ? null
    : h("p", { class: "stopped", id: "summary-stopped" }, `${nameOf(s.reached)} reached ` +
      `${rs.target || "the target"} in this deal: the game was won at that moment` +
      (cut ? " (what was left of the deal was neither played nor counted)." : "."));
  // a partie counts its deals as the side panel does ("deal 3 of 6"), a game by game
  const title = g.format === "partie" && rs.partie_deals
    ? `Deal ${s.number} of ${rs.partie_deals}${s.number > rs.partie_deals ? " (an extra deal)" : ""}`
    : `Deal ${s.number} of game ${s.game}`;
  // why each class was won, a declaration's count as its sum (learn/feedback.py)
  const words = last ? h("section", { class: "summary-words", id: "summary-words" },
    h("p", { class: "muted small" }, "Reading the deal…")) : null;
  if (words) {
    api("GET", `/api/games/${T.id}/feedback`, undefined, T.token).then((res) => {
      fill(words, h("ul", { class: "lines" }, res.lines.map((l) => h("li", {}, codesAsCards(l)))));
      explain(words);
    }, () => words.remove());
  }
  openModal(title, h("div", { class: "summary", id: "summary" },
    banners, words, table, stopped, why, after,
    h("button", { type: "button", class: "act primary", id: "summary-ok",
      onclick: closeModal }, g.finished ? "See the result" : "Next deal")));
}

function lastView(s) {
  // a view-like object to name the roles of a past deal
  return { in_game: [s.elder, s.younger], dealer: s.younger };
}

// Who held the roles of the deal the side panels show: the deal in play, else the last
// one finished (between deals, and while standing out of a pool's game, the players and
// the dealer of the view are those of the next deal or game, not of the deal shown).
function standingOut(v) {
  return !v.deal && !v.in_game.includes(T.game.seat) && !T.game.finished;
}

function dealRoles(v) {
  return v.deal || !v.deals.length ? v : lastView(v.deals[v.deals.length - 1]);
}

// A count with its sign: "+7", "-3", "0".

// One finished game of the match in a line: "Game 1: Ada wins (Ada 101, Bob 87), lurched".
function gameLine(r) {
  return `Game ${r.number}: ${r.winner === null ? "drawn" : nameOf(r.winner) + " wins"} ` +
    `(${r.players.map((p, i) => `${nameOf(p)} ${r.scores[i]}`).join(", ")})` +
    (r.rubiconed ? ", rubiconed" : "") + (r.lurch ? ", lurched" : "") +
    (r.settled ? `, settled at ${r.settled}` : "");
}

// After a deal: the game's score, or (the deal ended a game that the match goes on from)
// that game's result and who plays the next; in a pool, who stands out and the pool.
function afterDeal(s) {
  const g = T.game;
  const v = g.view;
  if (g.finished) return resultText();
  const score = (pre) => `${pre}: ` +
    v.in_game.map((p, i) => `${nameOf(p)} ${v.scores[i]}`).join(", ");
  const ended = v.games.find((r) => r.number === s.game);
  const later = v.deals.some((x) => x.game === s.game && x.number > s.number);
  if (!ended || later) return score("Game score");
  let text = `${gameLine(ended)}. Game ${v.game_number}: ` +
    v.in_game.map((p) => nameOf(p)).join(" v ") + ".";
  if (g.format === "pool") {
    const out = v.players.find((p) => !v.in_game.includes(p));
    if (out !== undefined) text += ` ${out === g.seat ? "You stand" : nameOf(out) + " stands"}` +
      " out of it.";
    text += ` The pool holds ${v.pool}.`;
  }
  return text;
}

// Score sheet, rules, links, hints ----------------------------------------------
function showSheet() {
  const g = T.game;
  const v = g.view;
  const players = v.players;
  const totals = {};
  const rows = [];
  let game = 0;
  // deals numbered within their game; a heading row for each game when there are several
  const several = g.format === "pool" || v.game_number > 1 || v.deals.some((s) => s.game > 1);
  for (const s of v.deals) {
    if (s.game !== game) {
      game = s.game;
      for (const p of players) totals[p] = 0;
      if (several) rows.push(h("tr", { class: "game-row" },
        h("th", { colspan: players.length + 1, scope: "rowgroup" }, `Game ${game}`)));
    }
    totals[s.elder] += s.points[0];
    totals[s.younger] += s.points[1];
    rows.push(h("tr", {}, h("td", {}, String(s.number)),
      players.map((p) => {
        const i = p === s.elder ? 0 : p === s.younger ? 1 : -1;
        return h("td", {}, i < 0 ? "—" : `${s.points[i]} → ${totals[p]}`);
      })));
  }
  const games = v.games.map((r) => h("li", {}, gameLine(r)));
  openModal("Score sheet", h("table", { class: "sheet" },
    h("thead", {}, h("tr", {}, h("th", {}, "deal"), players.map((p) => h("th", {}, nameOf(p))))),
    h("tbody", {}, rows.length ? rows : h("tr", {}, h("td", { colspan: players.length + 1 },
      "No deal finished yet.")))),
  games.length ? h("ul", {}, games) : null);
}

// The rule set: its summary, then every rule with its meaning and its source.
function showRules() {
  const rs = ruleSet(T.opts, T.game.rules);
  const all = h("div", { class: "rules-all", id: "rules-all" },
    h("p", { class: "muted small" }, "Every rule and its source…"));
  const lines = (rs.summaries && rs.summaries[T.game.format]) || rs.summary;
  openModal(rs.title, h("ul", { class: "rules-list" }, lines.map((l) => h("li", {}, l))),
    h("h3", {}, "Every rule, and where it comes from"), all);
  api("GET", `/api/rules/${encodeURIComponent(rs.name)}`).then((res) => {
    fill(all, h("dl", { class: "knobs" }, res.knobs.flatMap((k) => [
      h("dt", {}, (k.meaning || k.knob).replace(/\.$/, ""), ": ", h("b", {}, k.value)),
      h("dd", { class: "muted small" }, k.source)])));
    explain(all);
  }, (e) => fill(all, h("p", { class: "error" }, e.message)));
}

function showLinks() {
  const url = `${location.origin}/play/${T.id}#token=${T.token}`;
  openModal("Come back later", h("p", {}, "This browser remembers your seat. To take it " +
    "from another device, open this link there (keep it secret: it is your seat):"),
  h("input", { class: "invite-link", readonly: true, value: url, id: "resume-link",
    "aria-label": "Resume link" }));
}

// One request at a time: the button is disabled and "thinking" shown at once; an answer
// for a position gone by (a move was made meanwhile) is dropped.
async function askHint() {
  if (!T || !T.game || hintBusy()) return;  // one request for a position
  const mine = T;
  const asked = T.game.n;
  const req = mine.hintReq = (mine.hintReq || 0) + 1;
  mine.hintBusy = asked;
  mine.hint = null;
  renderTable();
  try {
    const words = level() === "learner" || (store.get(mine.id) || {}).guided ? "learner" : "expert";
    const res = await api("GET", `/api/games/${mine.id}/hint?level=${words}`, undefined, mine.token,
      { timeout: 200000 });  // the advisor may think a while on a loaded server
    if (T !== mine || !mine.game || mine.game.n !== asked) return;
    mine.hint = res.hint;
  } catch (e) {
    if (T === mine && mine.game && mine.game.n === asked) toast(e.message, "bad");
  } finally {
    if (mine.hintReq === req) mine.hintBusy = null;  // a later request is its own
    if (T === mine) renderTable();
  }
}

function hintBusy() {
  return !!T && T.hintBusy !== undefined && T.hintBusy !== null && !!T.game &&
    T.hintBusy === T.game.n;
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
  if ((e.key === "z" || e.key === "u") && T.game.practice && !T.game.finished) {
    e.preventDefault();
    if (T.game.can_undo) { undo(); return; }
    // say why nothing happens: a new deal's first question, or no move yet
    toast(T.game.view.deal_number > 1 || T.game.view.game_number > 1
      ? "Nothing to take back in this deal: the moves of the deals before stay (their " +
        "next hand has been seen)." : "You have made no move to take back yet.");
    return;
  }
  const cards = [...$main.querySelectorAll("#hand .card")];
  const i = cards.indexOf(document.activeElement);
  if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
    if (!cards.length) return;
    const next = i < 0 ? 0 : (i + (e.key === "ArrowRight" ? 1 : -1) + cards.length) % cards.length;
    cards[next].focus();
    e.preventDefault();
  } else if (/^[1-9]$/.test(e.key)) {
    const b = $main.querySelector(`#actions button[data-key="${e.key}"]`);
    if (b && !b.disabled) { b.click(); e.preventDefault(); }
  } else if (e.key === "?") {
    showRules();
  }
}

// ------------------------------------------------------------------ replay viewer
// One viewer at a time: its arrow keys are one listener for the page, not one more each
// time the replay opens; a step asked while another loads replaces it.
let R = null;
document.addEventListener("keydown", (e) => {
  if (!R || !location.pathname.startsWith("/replay/")) return;
  const tag = (e.target && e.target.tagName) || "";
  if (tag === "INPUT" && e.target.type !== "range") return;
  // from the step last asked for: keys pressed while a step loads add up
  if (e.key === "ArrowRight") { R.load(Math.min(R.steps, R.want + 1)); e.preventDefault(); }
  if (e.key === "ArrowLeft") { R.load(Math.max(0, R.want - 1)); e.preventDefault(); }
});

// An action of the record in words: "Ada plays the queen of hearts".  `lines` are the
// dialog lines it added, each with who said it: an answer can make the other show his
// cards, a declaration its speaker show his.
function wordAction(id, who, lines, names) {
  const [kind, ...restParts] = id.split(":");
  const rest = restParts.join(":");
  const said = (lines || []).map((l) => l.deed ? `${names[l.player]} ${codesAsCards(l.said)}`
    : `${names[l.player]}: “${codesAsCards(l.said)}”`).join(" · ");
  const cards = (t) => t.split(" ").filter((c) => /^[6-9TJQKA][SHDC]$/.test(c));
  switch (kind) {
    case "play": return `${who} plays the ${cardName(rest)}`;
    case "discard": {
      const cs = rest === "-" ? [] : cards(rest);
      return cs.length ? `${who} discards ${cs.length}: ${cs.map(cardShort).join(" ")}`
        : `${who} discards none`;
    }
    case "declare": case "pass": case "good": case "not-good": case "equal": case "making":
    case "answer": {
      if (kind === "pass") return said.length ? said : `${who} declares nothing`;
      return said.length ? said : `${who} ${kind.replace("-", " ")}`;
    }
    case "deal": return `${who} deals by ${rest}`;
    case "name": return rest.length === 2 ? `${who} names the ${cardName(rest)} as the lead`
      : `${who} names ${SUIT_NAMES[rest] || rest} as the lead`;
    case "appoint": return rest.length === 2 ? `${who} appoints the ${cardName(rest)}`
      : `${who} appoints ${SUIT_NAMES[rest] || rest}`;
    case "look": return `${who} looks at the leftovers`;
    case "decline": return `${who} leaves the leftovers unseen`;
    case "blanche": return `${who} shows carte blanche`;
    default: return said.length ? said : `${who}: ${id}`;
  }
}

async function showReplay(id) {
  document.title = "Piquet: replay";
  $nav.replaceChildren(h("button", { type: "button", class: "navbtn",
    onclick: () => go("/play/" + id) }, "Back to the table"));
  const mine = await seatOf(id);
  if (!mine || !mine.token) {
    R = null;
    $main.replaceChildren(h("p", { class: "error" }, mine && mine.missing
      ? sentence(mine.missing) : "This browser holds no seat at this game."));
    return;
  }
  const me = { id, step: 0, steps: 0, data: null, want: 0, loading: false };
  R = me;
  const body = h("div", { class: "replay", id: "replay" });
  $main.replaceChildren(body);
  me.load = async (step) => {
    me.want = step;
    if (me.loading) return; // the newest step asked is loaded next
    me.loading = true;
    try {
      while (R === me) {
        const target = me.want;
        const data = await api("GET", `/api/games/${id}/replay?step=${target}`, undefined,
          mine.token);
        if (R !== me) return;
        me.data = data;
        me.step = data.step;
        me.steps = data.steps;
        if (me.want === target) break;
      }
      if (R === me) draw();
    } catch (e) {
      body.replaceChildren(h("p", { class: "error" }, e.message));
    } finally { me.loading = false; }
  };
  function draw() {
    const data = me.data;
    const views = Object.values(data.views);
    const any = views.find((x) => x.deal) || views[0];
    const names = data.names;
    const roleOf = (v) => {
      const [a, b] = v.in_game;
      const younger = v.dealer;
      return { elder: younger === a ? b : a, younger };
    };
    const r = roleOf(any);
    const caption = (data.action
      ? wordAction(data.action.id, names[data.action.player], data.action.lines, names)
      : "The cards are cut.") +
      (data.resigned === null || data.resigned === undefined ? ""
        : ` · then ${names[data.resigned]} resigned`);
    const slider = h("input", { type: "range", min: 0, max: me.steps, value: me.step,
      id: "replay-slider", "aria-label": "Step", oninput: (e) => me.load(Number(e.target.value)) });
    // a step patches the viewer: the cards that did not move stay (slots: dom.js patch)
    const hands = views.filter((x) => x.deal).map((x) => {
      const hand = h("div", { class: "hand small-hand" }, sortHand(x.deal.hand).map((c) =>
        card(c)));
      hand._slot = "hand";
      const seat = h("div", { class: "replay-seat" },
        h("div", { class: "pname" }, `${names[x.player]} · ${x.deal.role}` +
          ` · ${x.deal.scores[x.deal.role]} this deal`),
        hand,
        x.deal.discards.length ? h("div", { class: "muted small" }, "discarded ",
          mini(x.deal.discards)) : null);
      seat._slot = "seat " + x.player;
      return seat;
    });
    const d = any.deal;
    const dialog = d ? h("ol", { class: "lines", id: "replay-dialog" }, d.dialog.slice(-8).map((u) =>
      h("li", {}, h("span", { class: "speaker" }, `${names[r[u.seat]]}: `),
        h("span", { class: "said" }, codesAsCards(u.said)),
        u.shown.length ? mini(u.shown) : null)))
      : null;
    const trick = d && d.trick_lead ? h("div", { class: "trick" }, card(d.trick_lead)) :
      d && d.tricks.length ? h("div", { class: "trick" },
        card(d.tricks[d.tricks.length - 1].lead), card(d.tricks[d.tricks.length - 1].follow))
        : null;
    if (trick) trick._slot = "trick";
    if (dialog) dialog._slot = "lines";
    const table = h("div", { class: "replay-table felt" }, hands, trick);
    table._slot = "table";
    const said = dialog ? h("section", { class: "dialog" }, h("h3", {}, "Dialog"), dialog)
      : null;
    if (said) said._slot = "dialog";
    patch(body, [
      h("div", { class: "replay-bar" },
        h("button", { type: "button", class: "act", "aria-label": "First step",
          onclick: () => me.load(0) }, "«"),
        h("button", { type: "button", class: "act", id: "replay-prev", "aria-label": "Back a step",
          onclick: () => me.load(Math.max(0, me.want - 1)) }, "◀"),
        h("span", { class: "step", id: "replay-step" }, `Step ${me.step} of ${me.steps}`),
        h("button", { type: "button", class: "act", id: "replay-next",
          "aria-label": "Forward a step", onclick: () => me.load(Math.min(me.steps, me.want + 1)) },
        "▶"),
        h("button", { type: "button", class: "act", "aria-label": "Last step",
          onclick: () => me.load(me.steps) }, "»"),
        slider),
      h("p", { class: "caption", id: "replay-caption" }, caption,
        ` · game ${any.game_number}, deal ${any.deal_number} · score ` +
          any.in_game.map((p, i) => `${names[p]} ${any.scores[i]}`).join(", ")),
      table, said]);
  }
  me.load(0);
  $main.append(analysisPanel(id, mine.token, (step) => me.load(step)));
}

route();
