// The tally: keep the score of a game played with real cards.  No build step.
// The players type (or tap) what happened at their table; the server keeps the score under
// their rule set and refuses what it forbids.  Every text is set as text (textContent),
// never as markup: names come from people.

import { cardName, cardShort, codesAsCards, isRed } from "./cards.js";
import { api, fill, h, toast } from "./dom.js";

const $main = document.getElementById("main");
const $nav = document.getElementById("nav");


// A card as short coloured text: "Q♥".
function chip(id) {
  return h("span", { class: "tchip" + (isRed(id) ? " red" : ""), title: cardName(id) },
    cardShort(id));
}
function chips(ids) {
  return ids.length ? h("span", { class: "tchips" }, ids.map(chip)) : h("span", { class: "muted" },
    "—");
}

// On a touch screen, focusing the entry would pop the keyboard up after every tap.
const TOUCH = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
function focusEntry() {
  if (!TOUCH && S && S.els) S.els.entry.focus({ preventScroll: true });
}

// ------------------------------------------------------------------ this browser's tallies
// {id: {token, names, rules, created}}
const mine = {
  all() {
    try { return JSON.parse(localStorage.getItem("piquet.tallies") || "{}") || {}; }
    catch { return {}; }
  },
  get(id) { return this.all()[id] || null; },
  put(id, data) {
    const all = this.all();
    all[id] = Object.assign(all[id] || {}, data);
    localStorage.setItem("piquet.tallies", JSON.stringify(all));
  },
  drop(id) {
    const all = this.all();
    delete all[id];
    localStorage.setItem("piquet.tallies", JSON.stringify(all));
  },
};

// ------------------------------------------------------------------ routing
function route() {
  const m = location.pathname.match(/^\/tally\/([A-Za-z0-9_-]+)$/);
  if (m) return showTally(m[1]);
  return showNew();
}

function navButtons(...buttons) {
  fill($nav, h("a", { class: "navbtn", href: "/", "aria-label": "Play a game" },
    label("Play a game", "Play")), ...buttons);
}

// A nav button's words: in full, and shorter on a phone (the bar keeps one row there).
function label(full, short) {
  return [h("span", { class: "wide" }, full),
    h("span", { class: "narrow", "aria-hidden": "true" }, short)];
}

// ------------------------------------------------------------------ a new tally
async function showNew() {
  document.title = "Piquet: tally";
  navButtons();
  let opts;
  try { opts = await api("GET", "/api/options"); }
  catch (e) { fill($main, h("p", { class: "error" }, e.message)); return; }
  const ruleSel = h("select", { id: "tally-rules", name: "rules" },
    opts.rules.map((r) => h("option", { value: r.name, selected: r.name === opts.default_rules },
      `${r.name} — ${r.title}`)));
  const fmtBox = h("div", { class: "choices", id: "tally-formats", role: "radiogroup",
    "aria-label": "Format" });
  const saved = (localStorage.getItem("piquet.tally.names") || "").split("\n");
  const name1 = h("input", { id: "tally-name1", maxlength: 30, autocomplete: "off",
    placeholder: "First player", value: saved[0] || "" });
  const name2 = h("input", { id: "tally-name2", maxlength: 30, autocomplete: "off",
    placeholder: "Second player", value: saved[1] || "" });
  const games = h("input", { id: "tally-games", type: "number", min: 1, max: 9, value: 1,
    inputmode: "numeric" });
  const start = h("button", { class: "primary big", type: "submit", id: "tally-start" },
    "Start the score sheet");
  const about = h("div", { class: "about" });

  function refresh() {
    const r = opts.rules.find((x) => x.name === ruleSel.value) || opts.rules[0];
    const formats = r.formats.filter((f) => f !== "pool");
    const keep = formats.includes(r.default_format) ? r.default_format : formats[0];
    fill(fmtBox, formats.map((f) => h("label", { class: "choice" },
      h("input", { type: "radio", name: "format", value: f, checked: f === keep }),
      " " + r.format_labels[f])));
    fill(about, h("h3", {}, r.title), h("ul", {}, r.summary.map((line) => h("li", {}, line))));
  }
  ruleSel.addEventListener("change", refresh);

  const form = h("form", { class: "new-game tally-new", id: "tally-new" },
    h("h2", {}, "Keep the score of a game with real cards"),
    h("p", { class: "muted" }, "Deal and play with your own pack. Tell the sheet what " +
      "happens — the hands, the exchange, the declarations, the cards — and it keeps the " +
      "score under your rules, says when something is not allowed, and keeps the record."),
    h("label", { class: "field" }, "Rule set", ruleSel),
    h("div", { class: "field" }, h("span", {}, "Format"), fmtBox),
    h("div", { class: "tally-names" },
      h("label", { class: "field" }, "First player", name1),
      h("label", { class: "field" }, "Second player", name2)),
    h("label", { class: "field tally-games-field" }, "Games (or parties)", games),
    start);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    start.disabled = true;
    const f = fmtBox.querySelector("input:checked");
    const names = [name1.value.trim() || "Player 1", name2.value.trim() || "Player 2"];
    localStorage.setItem("piquet.tally.names", names.join("\n"));
    try {
      const res = await api("POST", "/api/tallies", { rules: ruleSel.value,
        format: f ? f.value : null, names, games: Number(games.value) || 1 });
      mine.put(res.id, { token: res.token, names: res.tally.names, rules: res.tally.rules,
        created: Date.now() });
      history.pushState(null, "", res.url);
      showTally(res.id, res.tally);
    } catch (err) {
      toast(err.message, "bad");
      start.disabled = false;
    }
  });

  const list = Object.entries(mine.all())
    .sort((a, b) => (b[1].created || 0) - (a[1].created || 0)).slice(0, 12);
  const yours = h("section", { class: "my-games" }, h("h2", {}, "Your score sheets"),
    list.length ? h("ul", {}, list.map(([id, t]) => h("li", {},
      h("a", { href: "/tally/" + id }, `${(t.names || []).join(" and ") || "tally"}`),
      h("span", { class: "muted" }, ` · ${t.rules || ""} · ` +
        new Date(t.created || 0).toLocaleString()),
      h("button", { class: "link", type: "button", "aria-label": "Forget this score sheet",
        onclick: () => { mine.drop(id); showNew(); } }, "forget"))))
      : h("p", { class: "muted" }, "None yet. Score sheets you start here are kept, and " +
        "you can come back to them after closing the tab."));
  fill($main, h("div", { class: "lobby" }, form, h("section", { class: "rules-about" }, about),
    yours));
  refresh();
}

// ------------------------------------------------------------------ the score sheet
let S = null; // {id, token, t (the tally's state), els}

const CORE_WORDS = ["good", "not good", "equal", "pass"];
const KEYWORDS = {
  cards: ["elder", "younger"],
  blanche: ["blanche"],
  exchange: ["discard", "take"],
  leftovers: ["name"],
  appoint: ["appoint"],
  declare: ["point", "sequence", "set"],
  play: [],
  over: [],
};

async function showTally(id, initial) {
  document.title = "Piquet: tally";
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.get("token")) {
    mine.put(id, { token: hash.get("token"), created: Date.now() });
    history.replaceState(null, "", "/tally/" + id);
  }
  const kept = mine.get(id);
  if (!kept || !kept.token) {
    navButtons(h("a", { class: "navbtn", href: "/tally", "aria-label": "New score sheet" },
      label("New score sheet", "New")));
    fill($main, h("div", { class: "panel" }, h("h2", {}, "Score sheet"),
      h("p", { class: "error" }, "This browser does not hold this score sheet's key. Open " +
        "the link for another device from the browser that started it.")));
    return;
  }
  S = { id, token: kept.token, t: null, busy: false };
  buildSheet();
  if (initial) { show(initial); return; }
  try { show(await api("GET", `/api/tallies/${id}`, undefined, S.token)); }
  catch (e) {
    fill($main, h("div", { class: "panel" }, h("h2", {}, "Score sheet"),
      h("p", { class: "error" }, e.message)));
  }
}

function buildSheet() {
  const els = {};
  els.scores = h("section", { class: "tscores", id: "tally-scores", "aria-live": "polite" });
  els.next = h("p", { class: "tnext", id: "tally-next" });
  els.refusal = h("p", { class: "trefusal", id: "tally-refusal", role: "alert", hidden: true });
  els.who = h("select", { id: "tally-who", "aria-label": "Who does it" });
  els.entry = h("input", { id: "tally-entry", type: "text", autocomplete: "off",
    autocapitalize: "off", spellcheck: "false", maxlength: 300, enterkeyhint: "send",
    placeholder: "e.g. discard 7C 8C take QH JD", "aria-label": "Entry" });
  els.send = h("button", { class: "act primary", type: "submit", id: "tally-send" }, "Enter");
  els.words = h("div", { class: "twords", id: "tally-words" });
  els.picker = h("div", { class: "tpicker", id: "tally-picker", role: "group",
    "aria-label": "Cards" });
  els.finished = h("div", { class: "tfinished", id: "tally-finished", hidden: true });
  els.deal = h("section", { class: "tpanel tdeal", id: "tally-deal" });
  els.dialog = h("section", { class: "tpanel", id: "tally-dialog" });
  els.entries = h("section", { class: "tpanel", id: "tally-entries" });
  els.sheet = h("section", { class: "tpanel", id: "tally-sheet" });
  els.help = h("details", { class: "tpanel thelp", id: "tally-help" },
    h("summary", {}, "The entries"), h("pre", {}));
  const form = h("form", { class: "tentry", id: "tally-form" },
    els.who, els.entry, els.send);
  form.addEventListener("submit", (e) => { e.preventDefault(); submit(els.entry.value); });
  els.entry.addEventListener("input", markPicked);
  S.els = els;
  navButtons(
    h("a", { class: "navbtn", href: "/tally", "aria-label": "New score sheet" },
      label("New score sheet", "New")),
    h("button", { class: "navbtn", type: "button", id: "tally-download", onclick: download,
      "aria-label": "Download the record" }, label("Download the record", "Record")),
    h("button", { class: "navbtn", type: "button", id: "tally-share", onclick: shareLink,
      "aria-label": "Link for another device" }, label("Link for another device", "Link")));
  fill($main, h("div", { class: "tally" },
    h("div", { class: "tally-work" },
      els.scores, els.finished,
      h("section", { class: "tpanel tinput" }, els.next, form, els.refusal, els.words,
        els.picker),
      els.deal),
    h("div", { class: "tally-side" }, els.dialog, els.entries, els.sheet, els.help)));
}

function setBusy(busy) {
  S.busy = busy;
  $main.dataset.busy = busy ? "1" : "0";
  S.els.send.disabled = busy;
}

async function submit(raw, { keep } = {}) {
  let text = (raw || "").trim();
  if (!text || S.busy) return;
  if (text.toLowerCase() === "help") { S.els.help.open = true; S.els.help.scrollIntoView(); return; }
  if (text.toLowerCase() === "undo") { undo(); return; }
  const who = S.els.who.value;
  if (who && !/^[^:]{1,40}:/.test(text)) text = `${who}: ${text}`;
  let stale = false;
  setBusy(true);
  try {
    // made on the version shown: if another device entered meanwhile, 409 and a reload
    const t = await api("POST", `/api/tallies/${S.id}/entries`,
      { entry: text, version: S.t ? S.t.version : null }, S.token);
    // a line refused earlier and left as it was is done with once anything is accepted:
    // later taps and picked cards must not be added to it
    if (!keep || S.els.entry.value === S.refused) S.els.entry.value = "";
    S.refused = null;
    S.els.who.value = "";
    refuse(null);
    show(t);
  } catch (e) {
    refuse(e);
    if (!keep) S.refused = S.els.entry.value;
    // "whoever is to act" again: a refused "who" must not hold for the entries after
    S.els.who.value = "";
    stale = e.status === 409;
  } finally {
    setBusy(false);
    focusEntry();
  }
  if (stale) refresh();
}

// The tally as the server has it now (another device may have entered meanwhile).
async function refresh() {
  if (!S || !S.token || S.busy) return;
  try {
    const t = await api("GET", `/api/tallies/${S.id}`, undefined, S.token);
    // redrawn only when it moved: a redraw every few seconds would close an open menu
    if (!S.t || t.version !== S.t.version || t.n !== S.t.n) show(t);
  }
  catch (e) { /* keep what is shown; the next entry says what is wrong */ }
}
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible" && S && S.t) refresh();
});
// a sheet open on two devices: each shows the other's entries within a few seconds
setInterval(() => {
  if (document.visibilityState === "visible" && S && S.t && !S.t.finished) refresh();
}, 4000);

async function undo() {
  if (S.busy) return;
  let stale = false;
  setBusy(true);
  try {
    show(await api("POST", `/api/tallies/${S.id}/undo`,
      { version: S.t ? S.t.version : null }, S.token));
    refuse(null);
  } catch (e) { refuse(e); stale = e.status === 409; }
  finally { setBusy(false); }
  if (stale) refresh();
}

function refuse(err) {
  const el = S.els.refusal;
  if (!err) { el.hidden = true; el.textContent = ""; return; }
  el.hidden = false;
  el.textContent = (err.status >= 400 && err.status < 500 && err.status !== 401 &&
    err.status !== 404 ? "Refused: " : "") + err.message;
}

// ------------------------------------------------------------------ showing the state
function show(t) {
  S.t = t;
  $main.dataset.n = String(t.n);
  $main.dataset.version = String(t.version);
  $main.dataset.phase = t.deal ? t.deal.phase : "over";
  document.title = `Piquet: ${t.names.join(" and ")}`;
  mine.put(S.id, { names: t.names, rules: t.rules });
  renderScores(t);
  S.els.next.replaceChildren(h("span", { class: "phase-tag" }, "Next"), " ", t.expecting);
  renderFinished(t);
  renderWho(t);
  renderWords(t);
  renderPicker(t);
  renderDeal(t);
  renderDialog(t);
  renderEntries(t);
  renderSheet(t);
  S.els.help.querySelector("pre").textContent = t.help;
}

function roleOf(t, name) {
  if (!t.deal) return null;
  for (const role of ["elder", "younger"]) {
    if (t.deal.cards[role].name === name) return role;
  }
  return null;
}

function renderScores(t) {
  fill(S.els.scores,
    h("div", { class: "tscores-head" },
      h("span", { class: "title" }, `Game ${t.game_number}, deal ${t.deal_number}`),
      h("span", { class: "muted small" }, ` · ${t.rules} · ${t.format}`)),
    h("div", { class: "tscores-lines" }, t.names.map((name, i) => {
      const role = roleOf(t, name);
      const acting = t.deal && t.deal.to_act_name === name;
      return h("div", { class: "tscore" + (acting ? " acting" : ""), dataset: { player: i } },
        h("span", { class: "tscore-who" }, h("span", { class: "pname" }, name),
          role ? h("span", { class: "role" }, role) : null),
        h("span", { class: "pts", id: `tally-score-${i}` }, String(t.scores[i])));
    })));
}

function renderFinished(t) {
  const el = S.els.finished;
  el.hidden = !t.finished;
  if (!t.finished) { el.replaceChildren(); return; }
  fill(el, h("h2", {}, "The match is over"), h("p", { class: "result" }, t.result_text),
    h("div", { class: "row" },
      h("button", { class: "act primary", type: "button", onclick: download },
        "Download the record"),
      h("button", { class: "act", type: "button", onclick: undo }, "Undo the last entry")));
}

function renderWho(t) {
  const keep = S.els.who.value;
  const opts = [h("option", { value: "" }, "Whoever is to act")];
  for (const role of ["elder", "younger"]) {
    const name = t.deal ? t.deal.cards[role].name : null;
    opts.push(h("option", { value: role }, name ? `${name} (${role})` : role));
  }
  fill(S.els.who, opts);
  S.els.who.value = keep;
}

function wordButton(word, cls) {
  return h("button", { type: "button", class: "act small tword " + (cls || ""),
    dataset: { word }, onclick: () => submit(word, { keep: true }) }, word);
}
function keyButton(word) {
  return h("button", { type: "button", class: "act small tkey", dataset: { key: word },
    onclick: () => addToEntry(word) }, word + " …");
}

function renderWords(t) {
  const phase = t.deal ? t.deal.phase : "over";
  const words = t.deal ? t.deal.words : [];
  const extra = words.filter((w) => !CORE_WORDS.includes(w));
  const keys = t.deal && t.deal.pending_take ? ["take"] : (KEYWORDS[phase] || []);
  const dealers = phase === "cards" && t.deal_number === 1
    ? t.names.map((n) => wordButton(`dealer ${n}`, "tdealer")) : [];
  fill(S.els.words,
    // only the answers that stand now (not "good" while elder has yet to declare)
    phase === "declare" ? CORE_WORDS.filter((w) => words.includes(w)).map((w) => wordButton(w))
      : null,
    extra.map((w) => wordButton(w)),
    dealers,
    keys.map(keyButton),
    h("button", { type: "button", class: "act small tundo", id: "tally-undo",
      onclick: undo }, "↶ undo"),
    h("button", { type: "button", class: "act small", onclick: () => {
      S.els.entry.value = ""; markPicked(); focusEntry(); } }, "clear"));
}

function addToEntry(word) {
  const e = S.els.entry;
  const v = e.value.replace(/\s+$/, "");
  e.value = (v ? v + " " : "") + word + " ";
  markPicked();
  focusEntry();
}

const RANKS = "AKQJT9876";
const SUIT_ROWS = "SHCD";

function pickedCards() {
  const out = new Set();
  for (const tok of S.els.entry.value.toUpperCase().split(/[\s,;:]+/)) {
    const m = tok.match(/^(10|[AKQJT9876])([SHDC])$/);
    if (m) out.add((m[1] === "10" ? "T" : m[1]) + m[2]);
  }
  return out;
}

function toggleCard(id) {
  const e = S.els.entry;
  const picked = pickedCards();
  if (picked.has(id)) {
    e.value = e.value.split(/(\s+)/).filter((tok) => tok.trim().toUpperCase() !== id)
      .join("").replace(/\s{2,}/g, " ");
  } else {
    const v = e.value.replace(/\s+$/, "");
    e.value = (v ? v + " " : "") + id + " ";
  }
  markPicked();
  focusEntry();
}

function markPicked() {
  const picked = pickedCards();
  for (const b of S.els.picker.querySelectorAll("button[data-card]")) {
    const on = picked.has(b.dataset.card);
    b.classList.toggle("picked", on);
    b.setAttribute("aria-pressed", on ? "true" : "false");
  }
}

function renderPicker(t) {
  const ranks = t.deck_size === 36 ? RANKS : RANKS.slice(0, 8);
  const d = t.deal;
  const holding = new Set();
  const gone = new Set();
  if (d) {
    const actor = d.pending_take || d.to_act;
    if (d.phase === "cards") {
      for (const role of ["elder", "younger"]) d.cards[role].dealt.forEach((c) => gone.add(c));
    } else {
      if (actor) d.cards[actor].hand.forEach((c) => holding.add(c));
      for (const role of ["elder", "younger"]) {
        d.cards[role].played.forEach((c) => gone.add(c));
        d.cards[role].discards.forEach((c) => gone.add(c));
      }
    }
  }
  fill(S.els.picker, [...SUIT_ROWS].map((suit) => h("div", { class: `tpick-row r${ranks.length}` },
    [...ranks].map((rank) => {
      const id = rank + suit;
      const cls = ["tpick", isRed(id) ? "red" : "", holding.has(id) ? "holding" : "",
        gone.has(id) ? "gone" : ""].filter(Boolean).join(" ");
      return h("button", { type: "button", class: cls, dataset: { card: id },
        "aria-label": cardName(id), "aria-pressed": "false",
        onclick: () => toggleCard(id) }, cardShort(id));
    }))));
  markPicked();
}

function renderDeal(t) {
  const d = t.deal;
  if (!d) { fill(S.els.deal, h("h3", {}, "The deal"), h("p", { class: "muted" }, "—")); return; }
  const seat = (role) => {
    const c = d.cards[role];
    const rows = [["Hand", c.hand]];
    if (d.phase !== "cards") {
      rows.push(["Laid out", c.discards], ["Taken in", c.taken], ["Played", c.played]);
    }
    return h("div", { class: "tseat" + (d.to_act === role ? " acting" : ""),
      dataset: { role } },
      h("div", { class: "who" }, h("span", { class: "pname" }, c.name),
        h("span", { class: "role" }, role + (role === "younger" ? " · deals" : ""))),
      h("dl", {}, rows.flatMap(([label, ids]) => [h("dt", {}, label),
        h("dd", {}, chips(ids),
          label === "Taken in" && c.taken_unknown ? h("span", { class: "muted" },
            ` ${c.taken_unknown} to enter`) : null)])));
  };
  const trick = d.trick_lead ? h("p", { class: "small" }, "Led: ", chip(d.trick_lead)) : null;
  fill(S.els.deal, h("h3", {}, d.phase === "cards" ? "The cards dealt" :
    `The deal · ${d.phase}`),
  h("div", { class: "tseats" }, seat("elder"), seat("younger")), trick,
  d.phase !== "cards" ? h("p", { class: "small muted" },
    `This deal: ${d.cards.elder.name} ${d.points.elder}, ` +
    `${d.cards.younger.name} ${d.points.younger}; tricks so far ${d.tricks.length}`) : null);
}

function renderDialog(t) {
  // between deals (and at the end) the deal just finished stays shown until the next
  // deal's cards are entered
  const last = t.last_deal;
  const d = last || t.deal;
  const lines = d ? d.dialog : [];
  const events = d ? d.events : [];
  fill(S.els.dialog, h("h3", {}, last ? `The dialog of deal ${last.number} (finished)`
    : "The dialog"),
    lines.length ? h("ul", { class: "lines", id: "tally-dialog-lines" }, lines.map((u) =>
      h("li", { class: u.seat === "elder" ? "me" : "them" },
        // what each said in his own words ("I take three."), as at the card table
        h("span", { class: "speaker" }, u.name), ": ", h("span", { class: "said" }, codesAsCards(u.said)),
        u.shown.length ? [" ", chips(u.shown)] : null)))
      : h("p", { class: "muted small" }, "Nothing said yet in this deal."),
    events.length ? [h("h3", {}, "Counted"), h("ul", { class: "lines events" },
      events.map((e) => h("li", { class: e.seat === "elder" ? "me" : "them" },
        h("span", { class: "pts" }, `+${e.points}`), " ", h("span", { class: "speaker" },
          e.name), ` ${e.kind}` + (e.note ? ` (${codesAsCards(e.note)})` : ""))))] : null);
}

function renderEntries(t) {
  // one line an entry: the cards of a line entered together are one entry, as undo takes
  // them back together
  const groups = [];
  for (const e of t.entries) {
    const last = groups[groups.length - 1];
    if (last && last[0].entry === e.entry) last.push(e); else groups.push([e]);
  }
  const part = (e) => [e.by ? h("span", { class: "speaker" }, e.by + ": ") : null,
    h("span", { class: "tentry-text" },
      e.by ? e.text.replace(/^(elder|younger): /, "") : e.text),
    // a mistake of the table: what it costs, and the passage it follows
    e.note ? h("span", { class: "tentry-note muted small" }, ` (${e.note})`) : null];
  const list = h("ol", { class: "lines tentries", id: "tally-entry-list" },
    groups.map((g) => h("li", { value: g[0].entry, dataset: { steps: String(g.length) } },
      g.flatMap((e, i) => i ? [" · ", ...part(e)] : part(e)))));
  fill(S.els.entries, h("h3", {}, `Entries (${groups.length})`),
    t.entries.length ? list : h("p", { class: "muted small" }, "None yet."));
  list.scrollTop = list.scrollHeight;
}

function renderSheet(t) {
  const [a, b] = t.names;
  const totals = {};
  totals[a] = 0;
  totals[b] = 0;
  const rows = [];
  let game = null;
  for (const d of t.deals) {
    if (d.game !== game) {
      game = d.game;
      totals[a] = 0;
      totals[b] = 0;
      if (t.games > 1 || t.deals.some((x) => x.game !== 1)) {
        rows.push(h("tr", { class: "call" }, h("th", { colspan: 3 }, `Game ${d.game}`)));
      }
    }
    const pts = {};
    pts[d.elder] = d.points[0];
    pts[d.younger] = d.points[1];
    totals[a] += pts[a] || 0;
    totals[b] += pts[b] || 0;
    rows.push(h("tr", {}, h("th", {}, `Deal ${d.number}`),
      h("td", {}, `${pts[a] || 0} → ${totals[a]}`), h("td", {}, `${pts[b] || 0} → ${totals[b]}`)));
  }
  const games = t.games_done.map((g) => h("li", {},
    `Game ${g.number}: ` + (g.winner === null ? "drawn" : `${g.winner} wins`) +
    ` (${g.players.map((p, i) => `${p} ${g.scores[i]}`).join(", ")})` +
    (g.rubiconed ? ", rubiconed" : "") + (g.lurch ? ", a lurch" : "") +
    (g.settled ? `, settled at ${g.settled}` : "")));
  fill(S.els.sheet, h("h3", {}, "Score sheet"),
    h("table", { class: "sheet", id: "tally-sheet-table" },
      h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, a), h("th", {}, b))),
      h("tbody", {}, rows.length ? rows : h("tr", {}, h("td", { colspan: 3, class: "muted" },
        "No deal finished yet."))),
      h("tfoot", {}, h("tr", {}, h("th", {}, "Now"), h("td", {}, String(t.scores[0])),
        h("td", {}, String(t.scores[1]))))),
    games.length ? h("ul", { class: "rules-list" }, games) : null);
}

// ------------------------------------------------------------------ record and link
async function download() {
  try {
    const r = await fetch(`/api/tallies/${S.id}/record`,
      { headers: { Authorization: "Bearer " + S.token } });
    if (!r.ok) throw new Error((await r.json().catch(() => ({}))).error || r.statusText);
    const blob = await r.blob();
    const a = h("a", { href: URL.createObjectURL(blob), download: `piquet-tally-${S.id}.json` });
    document.body.append(a);
    a.click();
    a.remove();
  } catch (e) { toast(e.message, "bad"); }
}

// The link is shown in the sheet to select and copy (a phone on a plain-http address has
// no clipboard for a page), and copied besides where the browser allows it.
async function shareLink() {
  const link = `${location.origin}/tally/${S.id}#token=${S.token}`;
  let copied = false;
  try {
    await navigator.clipboard.writeText(link);
    copied = true;
  } catch { /* shown below to copy by hand */ }
  document.getElementById("tally-share-box")?.remove();
  const field = h("input", { type: "text", readonly: true, value: link, id: "tally-share-link",
    class: "invite-link", "aria-label": "Link for another device",
    onfocus: (e) => e.target.select() });
  const box = h("div", { class: "tpanel share-box", id: "tally-share-box", role: "group",
    "aria-label": "Link for another device" },
    h("p", {}, copied
      ? "Copied. This link opens the score sheet on another device; keep it private."
      : "Copy this link to open the score sheet on another device; keep it private."),
    field,
    h("button", { type: "button", class: "link", onclick: () => box.remove() }, "close"));
  $main.querySelector(".tally-work").prepend(box);
  field.focus();
  field.select();
}

window.addEventListener("popstate", route);
route();
