// How a game ended, in words, for the players' tables (app.js) and the spectator's
// (watch.js).  No build step.

function signed(n) { return n > 0 ? `+${n}` : String(n); }

// How a game's settlement came about: the difference of the two totals, or (rubiconed)
// their sum; and 100 for the partie on top where the rule set gives it.
function settledHow(settled, won, lost, rubiconed) {
  const base = rubiconed ? won + lost : won - lost;
  const what = rubiconed ? `both totals, ${base}` : `the difference, ${base}`;
  if (settled === base + 100) return `: 100 for the partie and ${what}`;
  return settled === base ? `: ${what}` : "";
}

// ``g``: the game as a seat or a spectator is sent it (``result``, ``resigned``,
// ``format``, ``view.players``); ``name(p)``: player p's name; ``seat``: the reader's seat
// (then "You win"), or null for a spectator.
export function resultText(g, name, seat = null) {
  const res = g.result || {};
  const mine = (p) => seat !== null && p === seat;
  const w = res.winner;
  const known = w !== null && w !== undefined;
  if (g.aborted !== null && g.aborted !== undefined) {
    return `${mine(g.aborted) ? "You" : name(g.aborted)} aborted the game before the first ` +
      "move: no result, and nothing is rated.";
  }
  if (g.timed_out !== null && g.timed_out !== undefined) {
    const won = known ? (mine(w) ? " You win." : ` ${name(w)} wins.`) : "";
    return `${mine(g.timed_out) ? "You" : name(g.timed_out)} ran out of time: the game is ` +
      `lost on time.${won}`;
  }
  if (g.resigned !== null && g.resigned !== undefined) {
    if (mine(g.resigned)) return known ? `You resigned: ${name(w)} wins.` : "You resigned.";
    const won = !known ? (seat === null ? "." : ": you win.")
      : mine(w) ? ": you win." : `: ${name(w)} wins.`;
    return `${name(g.resigned)} resigned${won}`;
  }
  if (g.format === "pool") {
    if (!known) return "The pool is over.";
    const players = (g.view && g.view.players) || [];
    return `${mine(w) ? "You take" : name(w) + " takes"} the pool, winning two games ` +
      "running. Each laid one stake into the pool at the start and one more for each game " +
      "lost, a lurched loser one more to the winner; in all, stakes won or lost: " +
      players.map((p) => `${name(p)} ${res.ledger ? signed(res.ledger[p]) : ""}`)
        .join(", ") + ".";
  }
  const scores = res.scores || [];
  if (!known) return `A drawn game: ${scores.join(" to ")}.`;
  const lose = w === 0 ? 1 : 0;
  let text = `${mine(w) ? "You win" : name(w) + " wins"}, ${scores[w]} to ${scores[lose]}.`;
  if (res.rubiconed) text += " The loser is rubiconed.";
  if (res.settled) text += ` Settled at ${res.settled}${settledHow(res.settled, scores[w],
    scores[lose], !!res.rubiconed)}.`;
  if (res.lurch) text += " A lurch: the loser pays double.";
  return text;
}

