// The spectator's page (/watch/ID#key=KEY) and the seat's button that makes the link.
// A spectator is sent the engine's public view only: shown and played cards, the dialog,
// the score; never a hand.  Text is always set as text.

import { backSVG, cardName, cardSVG, codesAsCards } from "./cards.js";
import { api, fill, h, patch, toast } from "./dom.js";
import { resultText } from "./result.js";

function card(id, cls) {
  const b = h("div", { class: "card" + (cls ? " " + cls : ""), role: "img",
    "aria-label": cardName(id), dataset: { card: id } });
  b.append(cardSVG(id));
  b._slot = "card " + id;  // the page keeps what did not change (dom.js patch)
  return b;
}
function backs(n) {
  const box = h("div", { class: "watch-backs", "aria-label": `${n} cards in hand`,
    role: "img" });
  for (let i = 0; i < n; i++) {
    const b = h("div", { class: "card back small", "aria-hidden": "true" });
    b.append(backSVG());
    b._slot = "back";
    box.append(b);
  }
  box._slot = "backs";
  return box;
}

// The table's nav button: make (or fetch) the spectator link and show it.
export function watchButton(gameId, token) {
  return h("button", { type: "button", class: "navbtn", id: "btn-watch",
    onclick: async () => {
      try {
        const res = await api("POST", `/api/games/${gameId}/watch-link`, {}, token);
        showLink(location.origin + res.url);
      } catch (e) { toast(e.message, "bad"); }
    } }, h("span", { class: "wide" }, "Spectator link"),
  h("span", { class: "narrow", "aria-hidden": "true" }, "Watch"));
}

function showLink(url) {
  let box = document.getElementById("watch-link-box");
  if (box) box.remove();
  const input = h("input", { class: "invite-link", id: "watch-link", readonly: true,
    value: url, "aria-label": "Spectator link" });
  box = h("div", { class: "watch-link-box", id: "watch-link-box", role: "dialog",
    "aria-label": "Spectator link" },
  h("p", {}, "Anyone with this link sees the game as the public does: the cards shown " +
    "and played, what is said, the score. Never a hand."),
  input,
  h("div", { class: "watch-link-actions" },
    h("button", { type: "button", class: "act small", onclick: () => {
      navigator.clipboard?.writeText(url).then(() => toast("Link copied."),
        () => toast("Select the link and copy it."));
    } }, "Copy link"),
    h("button", { type: "button", class: "act small", id: "watch-link-close",
      onclick: () => box.remove() }, "Close")));
  document.body.append(box);
  input.select();
}

const PHASE_WORDS = {
  deal: "the deal", blanche: "carte blanche", exchange: "the exchange",
  leftovers: "the stock's leftovers", appoint: "appointing the lead",
  declare: "the declarations", play: "the play",
};

let W = null; // the spectator page's state

function stop() {
  if (!W) return;
  W.stopped = true;
  clearTimeout(W.retry);
  clearTimeout(W.liveTimer);
  if (W.ws) { try { W.ws.close(); } catch { /* closed */ } }
  W = null;
}

export async function showWatch(id) {
  stop();
  document.title = "Piquet: watching";
  const $main = document.getElementById("main");
  fill(document.getElementById("nav"), h("span", { class: "watch-badge" }, "Spectator"));
  const frag = new URLSearchParams(location.hash.slice(1));
  const key = frag.get("key") || sessionStorage.getItem("piquet.watch." + id);
  if (!key) {
    fill($main, h("div", { class: "panel" }, h("h2", {}, "Spectator link"),
      h("p", { class: "error" }, "This link has no spectator key. Ask a player for the link.")));
    return;
  }
  sessionStorage.setItem("piquet.watch." + id, key);
  W = { id, key, ws: null, stopped: false, fails: 0, n: -1, live: true, liveTimer: 0 };
  const mine = W;
  fill($main, h("p", { class: "loading" }, "Finding the table…"));
  try {
    draw(await api("GET", `/api/games/${id}/watch`, undefined, key));
  } catch (e) {
    fill($main, h("div", { class: "panel" }, h("h2", {}, "Game not found"),
      h("p", {}, e.message)));
    return;
  }
  connect(mine);
}

function connect(mine) {
  if (mine.stopped) return;
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/api/games/${mine.id}/watch/ws`);
  mine.ws = ws;
  ws.addEventListener("open", () => ws.send(JSON.stringify({ key: mine.key })));
  ws.addEventListener("message", (ev) => {
    if (mine.stopped || !location.pathname.startsWith("/watch/")) { stop(); return; }
    let msg;
    try { msg = JSON.parse(ev.data); } catch { return; }
    // the socket sends the game as it now stands, in order: an undo (a smaller n) too
    if (msg.type === "view") { mine.fails = 0; draw(msg.view, true); }
    else if (msg.type === "live") setLive(mine, !!msg.ok);
  });
  ws.addEventListener("close", (ev) => {
    if (mine.stopped || ev.code === 4404 || ev.code === 4401) return;
    mine.fails += 1;
    mine.retry = setTimeout(() => connect(mine),
      Math.min(8000, 500 * 2 ** Math.min(4, mine.fails)));
  });
}

// Live updates between server processes degraded (the server says so): ask for the game
// every two seconds until they are back, and say so under the table.
function setLive(mine, ok) {
  mine.live = ok;
  clearTimeout(mine.liveTimer);
  const poll = async () => {
    if (mine.stopped || mine.live) return;
    try {
      const g = await api("GET", `/api/games/${mine.id}/watch`, undefined, mine.key);
      if (!mine.stopped) draw(g, true);
    } catch { /* try again */ }
    if (!mine.stopped && !mine.live) mine.liveTimer = setTimeout(poll, 2000);
  };
  if (!ok) mine.liveTimer = setTimeout(poll, 2000);
  const note = document.getElementById("watch-live");
  if (note) note.hidden = ok;
}

// The deal just finished, as the public saw it: what each counted, until the next deal's
// play begins (the next deal is dealt at once).
function lastDeal(ld, names) {
  const who = (role) => names[role === "elder" ? ld.elder : ld.younger];
  const tricks = (n) => `${n} trick${n === 1 ? "" : "s"}`;
  return h("section", { class: "watch-last", id: "watch-last" },
    h("h3", {}, `Deal ${ld.number} is over`),
    h("p", { id: "watch-last-result" }, ["elder", "younger"].map((r) =>
      `${who(r)} ${ld.scores[r]} (${tricks(ld.tricks_won[r])})`).join(" · ")),
    ld.events.length ? h("ol", { class: "lines" }, ld.events.map((e) => h("li", {},
      `+${e.points} ${who(e.seat)}: ${e.kind}`, e.note ? h("span", { class: "muted" },
        ` (${codesAsCards(e.note)})`) : null))) : null);
}

function draw(g, current = false) {
  if (!W || (!current && g.n < W.n)) return;
  W.n = g.n;
  const $main = document.getElementById("main");
  if (!location.pathname.startsWith("/watch/")) { stop(); return; }
  const v = g.view;
  // a friend's seat nobody has taken yet has a placeholder name ("Friend 1"): not shown
  const names = v.names.map((n, p) => (g.seats && g.seats[p] && !g.seats[p].joined
    ? "(seat not taken yet)" : n));
  $main.dataset.n = String(g.n);
  const over = !!g.finished;
  const live = v.deal; // none once the game is over (a resigned game keeps its deal)
  const d = live || g.last_deal;
  const elder = live ? v.elder : (g.last_deal ? g.last_deal.elder : null);
  const younger = live ? v.in_game.find((p) => p !== elder)
    : (g.last_deal ? g.last_deal.younger : null);
  const who = (role) => (role === "elder" ? elder : younger);
  const score = h("p", { class: "watch-score", id: "watch-score" },
    v.in_game.map((p, i) => `${names[p]} ${v.scores[i]}`).join(" · "),
    ` · game ${v.game_number}, deal ${v.deal_number}`);
  const status = over ? `The game is over. ${resultText(g, (p) => names[p])}`
    : live ? (g.to_act !== null ? `${names[g.to_act]} to act · ` : "") +
      (PHASE_WORDS[live.phase] || live.phase)
      : "Between deals.";
  // the deal just finished stays in view until the next deal's play
  // (a game resigned in a deal shows that deal as it was left, not the one before)
  const showLast = g.last_deal && (!live || (!over && live.phase !== "play"));
  // the cards shown or played by a seat: one more is drawn alone
  const minis = (cls, words, ids) => {
    const list = h("span", { class: "minis" }, ids.map((c) => card(c, "mini")));
    list._slot = "minis";
    const line = h("div", { class: cls }, words, list);
    line._slot = cls;
    return line;
  };
  const seat = (role) => {
    if (!d) return null;
    const p = who(role);
    const box = h("div", { class: "watch-seat", dataset: { role } },
      h("div", { class: "pname" }, `${p === null ? role : names[p]} · ${role}` +
        ` · ${d.scores[role]} this deal`),
      live ? backs(d.hand_counts[role]) : null,
      d.shown[role].length ? minis("watch-note", "shown ", d.shown[role]) : null,
      d.played[role].length ? minis("watch-note watch-played", "played ", d.played[role])
        : null,
      h("div", { class: "watch-note" }, `discarded ${d.discard_counts[role]} (unseen)`));
    box._slot = "seat " + role;
    return box;
  };
  const lastTrick = d && d.tricks.length ? d.tricks[d.tricks.length - 1] : null;
  const trick = d && d.trick_lead
    ? h("div", { class: "trick watch-trick", id: "watch-trick" }, card(d.trick_lead))
    : lastTrick ? h("div", { class: "trick watch-trick", id: "watch-trick" },
      card(lastTrick.lead), card(lastTrick.follow),
      h("div", { class: "trick-note" }, `won by ${names[who(lastTrick.winner)] ?? lastTrick.winner}`))
      : h("div", { class: "trick watch-trick", id: "watch-trick" });
  trick._slot = "trick";
  // the words said, as the seats' tables give them, with the speaker's name
  const dialog = d && d.dialog.length ? h("ol", { class: "lines", id: "watch-dialog" },
    d.dialog.map((u) => h("li", {},
      h("span", { class: "speaker" }, `${names[who(u.seat)] ?? u.seat}: `),
      h("span", { class: "said" }, codesAsCards(u.said)),
      u.shown.length ? h("span", { class: "minis" }, u.shown.map((c) => card(c, "mini")))
        : null))) : null;
  if (dialog) dialog._slot = "lines";
  const said = dialog ? h("section", { class: "dialog watch-said" }, h("h3", {}, live
    ? "What was said" : "What was said in the last deal"), dialog) : null;
  if (said) said._slot = "said";
  const table = h("div", { class: "felt watch-table" }, seat("younger"), trick, seat("elder"));
  table._slot = "table";
  // each view patches the page: only what changed is drawn again (no handlers here)
  const page = h("div", { class: "watch", id: "watch" },
    h("h1", { class: "watch-title" }, `${names.filter((_, p) => v.in_game.includes(p))
      .join(" v ")}`, h("span", { class: "muted small" }, ` · ${g.rules}`)),
    score,
    h("p", { class: "caption", id: "watch-status" }, status),
    showLast ? lastDeal(g.last_deal, names) : null,
    table, said,
    h("p", { class: "muted small" }, "You are watching: the players' hands stay hidden."),
    h("p", { class: "muted small", id: "watch-live", hidden: W.live !== false },
      "Live updates are slow just now: the table is asked for every two seconds."));
  page._slot = "watch";
  patch($main, [page]);
  // the newest words in sight when a line came (the box scrolls; the whole dialog is in
  // it; a reader who scrolled back stays where he is until then)
  const shown = dialog && document.getElementById("watch-dialog");
  if (shown && shown._lines !== shown.childElementCount) {
    shown._lines = shown.childElementCount;
    shown.scrollTop = shown.scrollHeight;
  }
}
