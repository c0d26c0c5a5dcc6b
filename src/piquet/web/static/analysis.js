// The analysis on the replay viewer: where each side gained or lost points against the
// strongest AI, for every deal that is over (GET /api/games/ID/analysis).  jump(step)
// shows that step on the viewer.  Text is always set as text.

import { cardName, cardSVG } from "./cards.js";
import { api, fill, h } from "./dom.js";
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

export function analysisPanel(gameId, token, jump) {
  const body = h("div", { class: "analysis-body" }, h("p", { class: "muted" },
    "Looking at the deals…"));
  const panel = h("section", { class: "analysis", id: "analysis",
    "aria-labelledby": "analysis-title" },
  h("h2", { id: "analysis-title" }, "Analysis"),
  h("p", { class: "muted small" }, "Where each side gained or lost points against the " +
    "strongest AI: the exchange against the advisor, sinks and answers against the expert, " +
    "and the cards whose double-dummy value dropped (both hands open)."), body);
  let timer = null;
  async function load() {
    if (!panel.isConnected && panel.dataset.loaded) return;
    let data;
    try { data = await api("GET", `/api/games/${gameId}/analysis`, undefined, token); }
    catch (e) { fill(body, h("p", { class: "error" }, e.message)); return; }
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
    fill(body, data.deals.map((d) => deal(d, names)));
    explain(body);
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
      // the costliest choice of the dialog (review.py: each is valued alone, the rest of
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
    return h("article", { class: "analysis-deal", dataset: { deal: d.number } },
      h("h3", {}, `${title} · ${nameOf("elder")} ${a.points.elder}, ${nameOf("younger")} ` +
        `${a.points.younger}`),
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
          : h("p", {}, `${nameOf(role)}: ${faceDown}.`))));
  }
  load();
  return panel;
}
