// The analysis on the replay viewer: where each side gained or lost points against the
// strongest AI, for every deal that is over (GET /api/games/ID/analysis).  jump(step)
// shows that step on the viewer.  Text is always set as text.

import { cardName, cardSVG, codesAsCards } from "./cards.js";
import { api, fill, h, listen, patch, toast } from "./dom.js";
import { explain } from "./learn.js";

function mini(ids) {
  return h("span", { class: "minis" }, ids.map((id) => {
    const c = h("div", { class: "card mini", role: "img", "aria-label": cardName(id) });
    c.append(cardSVG(id));
    return c;
  }));
}
// cards, or "nothing" when there are none (a younger who took no card)
function cardsOr(ids) {
  return ids.length ? mini(ids) : h("span", {}, "nothing");
}
function pts(x) {
  const v = Math.round(x * 10) / 10;
  return `${v} point${Math.abs(v) === 1 ? "" : "s"}`;
}

// Both discards played out in the same deals: which did better, by how much a deal.
function verifiedText(v) {
  const d = Math.round(v.difference * 10) / 10;
  const noise = ` (give or take ${v.stderr}, the noise of ${v.samples} deals played out)`;
  if (d > 0) return ` · played out, the advisor's does better by ${pts(d)} a deal${noise}`;
  if (d < 0) return ` · played out, the discard made does better by ${pts(-d)} a deal` +
    `${noise}: the ranking is an estimate, and here it was wrong`;
  return ` · played out, no difference${noise}`;
}

const SVG = "http://www.w3.org/2000/svg";
function svg(tag, attrs, ...kids) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, String(v));
  for (const k of kids) el.append(k);
  return el;
}

// The deal's curve: after each decision, elder's points less younger's over the whole
// deal with best play by both from there on, both hands open (review/deal.py's "curve").  A
// point is a button: it shows that step on the viewer.
function curveEl(a, nameOf, jump) {
  const pts = a.curve || [];
  if (pts.length < 2) return null;
  const W = 640, H = 180, PAD = 28;
  const vals = pts.map((p) => p.margin);
  const top = Math.max(4, ...vals.map(Math.abs));
  const x = (i) => PAD + (i * (W - 2 * PAD)) / (pts.length - 1);
  const y = (v) => H / 2 - (v * (H / 2 - 16)) / top;
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "review-curve", role: "img",
    "aria-label": `How the deal went: ${nameOf("elder")}'s points less ` +
      `${nameOf("younger")}'s, from ${vals[0]} after the exchange to ${vals[vals.length - 1]}` });
  chart.append(svg("line", { x1: PAD, x2: W - PAD, y1: y(0), y2: y(0), class: "zero" }));
  chart.append(svg("text", { x: 2, y: 22, class: "axis" }, `${nameOf("elder")} ahead`));
  chart.append(svg("text", { x: 2, y: H - 4, class: "axis" }, `${nameOf("younger")} ahead`));
  chart.append(svg("polyline", { class: "line",
    points: pts.map((p, i) => `${x(i)},${y(p.margin)}`).join(" ") }));
  pts.forEach((p, i) => {
    const swing = i > 0 ? p.margin - pts[i - 1].margin : 0;
    const who = p.role ? nameOf(p.role) : "";
    const dot = svg("circle", { cx: x(i), cy: y(p.margin), r: swing ? 6 : 4,
      class: `dot${swing ? " swing" : ""}`, tabindex: "0", role: "button",
      "data-step": p.step },
    svg("title", {}, `${who ? who + ": " : ""}${codesAsCards(p.what)} · ` +
      `${nameOf("elder")} ${p.margin >= 0 ? "ahead by" : "behind by"} ` +
      `${Math.abs(p.margin)}` + (swing ? ` (${swing > 0 ? "+" : ""}${swing})` : "")));
    const go = () => jump(p.step + 1);
    listen(dot, "click", go);
    listen(dot, "keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") go(); });
    chart.append(dot);
  });
  return h("figure", { class: "review-curve-box" }, chart,
    h("figcaption", { class: "small" }, "How the deal stood after each decision: " +
      `${nameOf("elder")}'s points less ${nameOf("younger")}'s by the end of the deal, if ` +
      "both played their best from there with every card known. A drop or a rise is a " +
      "choice that gave points away; pick a dot to see that moment on the table."));
}

// The game's curve (review/curve.py's "game_curve"): one line across every deal that is
// over, player 0's points less player 1's added up from the first deal; inside a deal
// its own curve, shifted to the points scored before it; the deals marked by their bands,
// each with the points it gave.  A point is a button: it shows that step on the viewer.
// Drawn once two deals are over.
function signed(v) {
  return v > 0 ? `+${v}` : v < 0 ? `−${-v}` : "0";
}
function gameCurveEl(g, names, jump, why) {
  // one deal: its own curve below says it all
  if (!g || g.deals.length < 2) return null;
  const [a, b] = [names[0] || "player 1", names[1] || "player 2"];
  const pts = g.points;
  const W = 640, H = 220, PAD = 28, TOP = 48;
  const vals = pts.map((p) => p.margin);
  const top = Math.max(4, ...vals.map(Math.abs));
  const n = g.deals.length;
  const band = (W - 2 * PAD) / n;
  // deal i (from 0) fills its band: its points spread evenly up to its right edge
  const xs = [PAD];
  g.deals.forEach((d, i) => {
    const k = d.last - d.first + 1;
    for (let j = 1; j <= k; j += 1) xs.push(PAD + band * i + (band * j) / k);
  });
  const mid = TOP + (H - TOP) / 2;
  const y = (v) => mid - (v * ((H - TOP) / 2 - 12)) / top;
  const last = g.totals;
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "review-curve game-curve",
    role: "img", "aria-label": `How the game went over its ${n} deal${n === 1 ? "" : "s"}: ` +
      `${a}'s points less ${b}'s, from 0 before the first deal to ` +
      `${last[0] - last[1]} after deal ${n}` });
  g.deals.forEach((d, i) => {
    const x0 = PAD + band * i;
    chart.append(svg("rect", { x: x0, y: TOP, width: band, height: H - TOP,
      class: `deal-band${i % 2 ? " odd" : ""}` }));
    chart.append(svg("text", { x: x0 + band / 2, y: TOP - 26, class: "axis deal-label",
      "text-anchor": "middle" }, n > 8 ? `${d.number}` : `Deal ${d.number}`));
    chart.append(svg("text", { x: x0 + band / 2, y: TOP - 5, class: "axis deal-change",
      "text-anchor": "middle", "data-deal": d.number }, signed(d.change)));
    if (i > 0) {
      chart.append(svg("line", { x1: x0, x2: x0, y1: TOP, y2: H,
        class: `deal-mark${d.game !== g.deals[i - 1].game ? " new-game" : ""}` }));
    }
  });
  chart.append(svg("line", { x1: PAD, x2: W - PAD, y1: y(0), y2: y(0), class: "zero" }));
  chart.append(svg("text", { x: 2, y: TOP + 16, class: "axis" }, `${a} ahead`));
  chart.append(svg("text", { x: 2, y: H - 4, class: "axis" }, `${b} ahead`));
  chart.append(svg("polyline", { class: "line",
    points: pts.map((p, i) => `${xs[i]},${y(p.margin)}`).join(" ") }));
  pts.forEach((p, i) => {
    if (i === 0) return;
    const end = g.deals.some((d) => d.last === i);
    const who = p.player === null || p.player === undefined ? "" : `${names[p.player]}: `;
    const dot = svg("circle", { cx: xs[i], cy: y(p.margin), r: end ? 5 : 3,
      class: `dot${end ? " deal-end" : ""}`, tabindex: "0", role: "button",
      "data-deal": p.deal, "data-step": p.step ?? "" },
    svg("title", {}, `Deal ${p.deal} · ${who}${codesAsCards(p.what)} · ` +
      (p.margin === 0 ? "level" : `${p.margin > 0 ? a : b} ahead by ${Math.abs(p.margin)}`)));
    if (p.step !== null && p.step !== undefined) {
      const go = () => jump(p.step + 1);
      listen(dot, "click", go);
      listen(dot, "keydown", (ev) => {
        if (ev.key === "Enter" || ev.key === " ") go();
      });
    }
    chart.append(dot);
  });
  const list = h("ol", { class: "game-curve-deals small" }, g.deals.map((d) => {
    const [pa, pb] = d.points;
    const gain = d.change === 0 ? "the margin unchanged"
      : `${d.change > 0 ? a : b} gained ${Math.abs(d.change)} on the other`;
    return h("li", { dataset: { deal: d.number } },
      h("b", {}, `Deal ${d.number}`), ` (${names[d.elder]} elder): ${a} scored ${pa}, ` +
        `${b} ${pb}; ${gain}. After it: ${a} ${d.totals[0]}, ${b} ${d.totals[1]}.` +
        (d.curve ? "" : ` (Inside the deal: ${why(d.number)}.)`));
  }));
  return h("figure", { class: "review-curve-box game-curve-box" },
    h("h3", {}, "How the game went"), chart,
    h("figcaption", { class: "small" }, `The line is ${a}'s points less ${b}'s, the ` +
      "deals' points added up from the first deal (a game's bonus at its end is not in " +
      `them): up is ${a} ahead, down ${b}. Each band is a deal, with what it moved the ` +
      `margin at its top (+ toward ${a}, − toward ${b}). Inside a deal the line follows ` +
      "where it stood after each decision if both played their best from there with every " +
      "card known, and ends on the score the deal gave (the red dots). Pick a dot to see " +
      "that moment on the table."), list);
}

// Every finding that cost points, the costliest first, in words (review/deal.py's "say").
function mistakes(a) {
  const all = [
    ...a.exchange.filter((e) => (e.loss ?? 0) > 0.5)
      .map((e) => ({ e, cost: e.loss, part: "exchange" })),
    ...a.declarations.filter((e) => e.loss > 0)
      .map((e) => ({ e, cost: e.loss, part: "declarations" })),
    ...a.play.map((e) => ({ e, cost: e.drop, part: "play" })),
  ];
  return all.sort((p, q) => q.cost - p.cost);
}

export function analysisPanel(gameId, token, jump) {
  const body = h("div", { class: "analysis-body" }, h("p", { class: "muted" },
    "Looking at the deals…"));
  const panel = h("section", { class: "analysis", id: "analysis",
    "aria-labelledby": "analysis-title" },
  h("h2", { id: "analysis-title" }, "Analysis"),
  h("p", { class: "muted small" }, "Where each player gained or lost points, judged " +
    "against the computer at its strongest: the cards laid out in the exchange against the " +
    "advisor's choice, each declaration and answer against the expert's, and each card " +
    "played against the best card there was with every hand known."), body);
  let timer = null;
  async function load() {
    if (!panel.isConnected && panel.dataset.loaded) return;
    let data;
    try { data = await api("GET", `/api/games/${gameId}/analysis`, undefined, token); }
    catch (e) {
      fill(body, h("p", { class: "error" }, e.message));
      // over this browser's quota of analyses, or the workers failing: ask again later
      clearTimeout(timer);
      if (e.status === 429 || e.status === 503) timer = setTimeout(load, 10000);
      return;
    }
    panel.dataset.loaded = "1";
    panel.dataset.pending = String(data.pending);
    draw(data);
    clearTimeout(timer);
    if (data.pending) timer = setTimeout(load, 2000);
  }
  function draw(data) {
    const names = data.names;
    if (!data.deals.length) {
      fill(body, h("p", { class: "muted" }, data.finished
        ? "No deal was played to its end: nothing to analyse."
        : "No deal is over yet."));
      return;
    }
    // why a deal's own curve is not in the game's: not analysed yet, face down, or none
    const why = (number) => {
      const d = data.deals[number - 1];
      if (!d || d.status !== "ready") return "being analysed";
      if (d.analysis.hidden) return "drawn when the game is over, with every card known";
      return "no decision to draw";
    };
    // asked again every two seconds while deals are pending: a deal already drawn the same
    // stays (with its open details), only what changed is drawn and explained
    for (const x of patch(body, [gameCurveEl(data.game_curve, names, jump, why),
      data.deals.map((d) => deal(d, names))])) explain(x);
  }
  // Play from here: a new practice game at this decision, the same cards, the computer
  // opposite (POST /api/games/ID/from/STEP); the seat is kept where the table keeps them.
  async function playFrom(step, btn) {
    btn.disabled = true;
    try {
      const res = await api("POST", `/api/games/${gameId}/from/${step}`, undefined, token);
      let all = {};
      try { all = JSON.parse(localStorage.getItem("piquet.games") || "{}") || {}; }
      catch { all = {}; }
      all[res.id] = { token: res.token, seat: res.seat, rules: res.rules, format: res.format,
        opponent: "expert", created: Date.now(), invites: [], ack: 0, from: gameId };
      localStorage.setItem("piquet.games", JSON.stringify(all));
      location.assign("/play/" + res.id);
    } catch (e) {
      btn.disabled = false;
      toast(e.message);
    }
  }
  function playHere(step) {
    const btn = h("button", { type: "button", class: "act small play-from",
      title: "A new practice game against the computer from just before this choice, " +
        "with the same cards: try the better move and see what it gives",
      onclick: () => playFrom(step, btn) }, "Play from here");
    return btn;
  }
  function showAt(step) {
    return h("button", { type: "button", class: "link show-step",
      onclick: () => jump(step + 1) }, "show");
  }
  function deal(d, names) {
    const title = `Deal ${d.number}`;
    if (d.status !== "ready") {
      return h("article", { class: "analysis-deal pending", dataset: { deal: d.number } },
        h("h3", {}, title), h("p", { class: "muted" }, "Being analysed…"));
    }
    const a = d.analysis;
    if (a.error || a.note) {  // not analysed, or nothing to analyse (ended as dealt)
      return h("article", { class: "analysis-deal", dataset: { deal: d.number } },
        h("h3", {}, title), h("p", { class: "muted" }, (a.error || a.note) + "."));
    }
    const nameOf = (role) => names[a.players[role]] || role;
    // between people, until the game is over, the other's cards and choices stay face
    // down (the server leaves them out: a.hidden names the roles)
    const faceDown = "their cards and choices stay face down until the game is over, " +
      "as at the table";
    const losses = ["elder", "younger"].map((role) => {
      const l = a.losses[role];
      if (!l) {
        return h("li", { dataset: { role } }, h("b", {}, nameOf(role)),
          ` (${role}) scored ${a.points[role]}; ${faceDown}.`);
      }
      // the costliest choice of the dialog (review/deal.py: each is valued alone, the rest of
      // the deal as it was, so two may count the same points and are not added up)
      const n = a.declarations.filter((x) => x.role === role && x.loss > 0).length;
      const decl = l.declarations <= 0 ? "cost nothing" : n > 1
        ? `cost ${pts(l.declarations)} (the costliest of ${n} choices, each valued alone, ` +
          "so not to be added)" : `cost ${pts(l.declarations)}`;
      // the play's drops are each measured from the position as it stood, both hands
      // open: they are not points lost from the score, and may add up to more than it
      const drops = a.play.filter((p) => p.role === role).length;
      const play = drops === 0 ? "every card the best (both hands open)"
        : `${drops} card${drops === 1 ? "" : "s"} below the best, their drops in ` +
          `double-dummy value adding up to ${pts(l.play)} over the deal (each measured ` +
          "from where the deal then stood, both hands open: not points off the score)";
      // the exchange's loss: the advisor's best discard against the one made, each worth
      // its average over deals played out from the same hand (not this deal's points)
      const valued = a.exchange.some((e) => e.role === role && !e.error);
      const exch = !valued ? "not valued (see the exchange below)"
        : Math.round(l.exchange * 10) === 0 ? "as good as the advisor's best"
        : `${pts(l.exchange)} a deal worse than the advisor's best, in points won less ` +
          "points given (its average over deals played out from the same hand, not this " +
          "deal's score)";
      return h("li", { dataset: { role } }, h("b", {}, nameOf(role)),
        ` (${role}) scored ${a.points[role]}. Against the best: the discard ${exch}; ` +
        `the declarations ${decl}; the play: ` +
        (a.cards_played === 0 ? "none (the game was won before it)" : play));
    });
    const ex = a.exchange.map((e) => h("li", {},
      h("b", {}, nameOf(e.role)), " discarded ", cardsOr(e.made),
      e.error ? h("span", { class: "muted" }, " · " + e.error)
        : h("span", {}, ` · the advisor: `, cardsOr(e.best),
          e.made.join() === e.best.join() ? " (the same)"
            : ` · rank ${e.rank ?? "?"} of ${e.of}` + (e.verified ? verifiedText(e.verified)
              : "")),
      " ", showAt(e.step)));
    const decl = a.declarations.map((x) => h("li", {},
      h("b", {}, nameOf(x.role)), ` ${x.kind === "sink" ? "sank" : x.kind === "answer"
        ? "answered" : "said"}: “${x.made}”; the expert: “${x.expert}” · ` +
        (x.loss > 0 ? `cost ${pts(x.loss)}` : x.loss < 0 ? `gained ${pts(-x.loss)}`
          : "no difference in this deal"), " ", showAt(x.step)));
    const play = a.play.map((p) => h("li", {},
      h("b", {}, nameOf(p.role)), ` trick ${p.trick}: played `, mini([p.card]),
      p.best.length > 1 ? " instead of any of " : " instead of ", mini(p.best),
      ` · dropped ${pts(p.drop)}`, " ", showAt(p.step)));
    const worst = mistakes(a);
    const found = worst.map(({ e, cost, part }) => h("li", { class: "review-mistake",
      dataset: { part } },
    h("b", {}, nameOf(e.role)), h("span", { class: "no-terms" }, ` · cost ${pts(cost)} · `),
    h("span", { class: "say" }, e.say),
    " ", part === "play" ? h("span", {}, mini([e.card]), " → ", mini(e.best))
      : part === "exchange" ? h("span", {}, mini(e.made), " → ", mini(e.best)) : "",
    " ", showAt(e.step), " ", playHere(e.step)));
    const curve = curveEl(a, nameOf, jump);
    const article = h("article", { class: "analysis-deal", dataset: { deal: d.number } },
      h("h3", {}, `${title} · ${nameOf("elder")} ${a.points.elder}, ${nameOf("younger")} ` +
        `${a.points.younger}`),
      curve || (a.hidden ? h("p", { class: "muted" }, "The curve of the deal is shown " +
        "when the game is over (it is worked out with every card known).") : ""),
      h("h4", {}, "The biggest mistakes first"),
      found.length ? h("ol", { class: "review-mistakes" }, found)
        : h("p", { class: "muted" }, "No choice gave points away that the analysis could " +
          "find: every card kept its value and the exchange matched the advisor's."),
      h("details", { class: "review-details" }, h("summary", {}, "Every finding, part by part"),
      h("ul", { class: "analysis-losses" }, losses),
      h("h4", {}, "The exchange"), ex.length ? h("ul", {}, ex)
        : h("p", { class: "muted" }, "No exchange."),
      h("h4", {}, "Sinks and answers"), decl.length ? h("ul", {}, decl)
        : h("p", { class: "muted" }, "Every declaration and answer was the expert's."),
      h("h4", {}, "The play"), play.length ? h("ul", { class: "analysis-drops" }, play)
        : h("p", { class: "muted" }, a.cards_played === 0
          ? "No card was played: the game was won before the play."
          : "Every card kept the double-dummy value."),
      h("details", {}, h("summary", {}, "The hands as dealt"),
        ["elder", "younger"].map((role) => a.hands[role]
          ? h("p", {}, `${nameOf(role)}: `,
            mini(a.hands[role].dealt), " discarded ", cardsOr(a.hands[role].discards),
            " took ", cardsOr(a.hands[role].taken))
          : h("p", {}, `${nameOf(role)}: ${faceDown}.`)))));
    // a deal analysed is final, and its handlers read only its own steps (and ``jump``,
    // the panel's): kept while drawn the same
    article._reuse = true;
    return article;
  }
  load();
  return panel;
}
