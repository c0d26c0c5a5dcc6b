// Between the players at the table (web/talk.py): the chat, a takeback asked of the
// other and answered, an abort before your first move.  No build step.  Every message is
// set as text (a text node), never as markup.

import { api, fill, h, toast } from "./dom.js";

// The chat of the table ``mine`` (the table's state, T in app.js), made once a table:
// the input keeps what is being typed while the table is drawn again.
export function chatFor(mine, names) {
  if (mine.talk) return mine.talk;
  // the players' own words: shown as written (no glossary marks)
  const list = h("ol", { class: "chat-lines no-terms", id: "chat-lines",
    "aria-live": "polite" });
  const input = h("input", { id: "chat-input", maxlength: 280, autocomplete: "off",
    placeholder: "Write to the other player", "aria-label": "Message to the other player" });
  const mute = h("button", { type: "button", class: "link small", id: "chat-mute" }, "Mute");
  const form = h("form", { class: "chat-form", id: "chat-form" }, input,
    h("button", { type: "submit", class: "act small", id: "chat-send" }, "Send"));
  const box = h("section", { class: "chat", id: "chat", "aria-label": "Chat" },
    h("h3", {}, "Chat ", mute), list, form,
    h("p", { class: "muted small" }, "Only the players read it (not spectators). " +
      "Be kind."));
  const talk = { box, list, input, mute, messages: [], muted: false, names };
  mine.talk = talk;
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    try {
      show(mine, await api("POST", `/api/games/${mine.id}/chat`, { text }, mine.token));
      input.value = "";
    } catch (err) { toast(err.message, "bad"); }
  });
  mute.addEventListener("click", async () => {
    try {
      show(mine, await api("POST", `/api/games/${mine.id}/chat/mute`, { muted: !talk.muted },
        mine.token));
    } catch (err) { toast(err.message, "bad"); }
  });
  loadChat(mine);
  return talk;
}

// Ask the server for the chat again (a message was written: the socket says "talk").
export async function loadChat(mine) {
  if (!mine.talk) return;
  try {
    show(mine, await api("GET", `/api/games/${mine.id}/chat`, undefined, mine.token));
  } catch { /* the table goes on without it */ }
}

function show(mine, data) {
  const talk = mine.talk;
  const before = talk.messages.length;
  talk.messages = data.messages || [];
  talk.muted = !!data.muted;
  talk.mute.textContent = talk.muted ? "Unmute" : "Mute";
  talk.mute.setAttribute("aria-pressed", talk.muted ? "true" : "false");
  fill(talk.list, talk.messages.length ? talk.messages.map((m) => h("li", {
    class: m.seat === mine.game.seat ? "me" : "them" },
  h("span", { class: "speaker" }, (m.seat === mine.game.seat ? "You" : talk.names(m.seat)) +
    ": "),
  h("span", { class: "said" }, m.text)))
    : h("li", { class: "muted small" }, talk.muted ? "Muted: the other player's messages " +
      "are hidden." : "No message yet."));
  requestAnimationFrame(() => { talk.list.scrollTop = talk.list.scrollHeight; });
  // a new message from the other player while the tab is hidden: the title says so
  const last = talk.messages[talk.messages.length - 1];
  if (talk.messages.length > before && before > 0 && last && last.seat !== mine.game.seat &&
      document.hidden) {
    document.title = "✉ New message · Piquet";
  }
}

// The takeback's line: a question asked of you (answer it), yours waiting, or the offer
// to ask; null when there is nothing to say (a practice game, the game over).
export function takebackLine(mine, name, redraw) {
  const g = mine.game;
  const tb = g.takeback;
  if (!tb || g.finished) return null;
  const send = async (body) => {
    try {
      const game = await api("POST", `/api/games/${mine.id}/takeback`, { ...body, n: g.n },
        mine.token);
      redraw(game);
    } catch (err) {
      toast(err.message, "bad");
      if (err.data && err.data.game) redraw(err.data.game);
    }
  };
  if (tb.asked !== null && tb.asked !== undefined && tb.asked !== g.seat) {
    return h("div", { class: "takeback ask", id: "takeback-asked", role: "status" },
      h("span", {}, `${name(tb.asked)} asks to take back their last move.`),
      h("button", { type: "button", class: "act small primary", id: "takeback-yes",
        onclick: () => send({ answer: "yes" }) }, "Let them"),
      h("button", { type: "button", class: "act small", id: "takeback-no",
        onclick: () => send({ answer: "no" }) }, "No"));
  }
  if (tb.asked === g.seat) {
    return h("p", { class: "takeback mine muted small", id: "takeback-waiting",
      role: "status" }, "You asked to take back your last move: waiting for the answer " +
      "(a move by either of you cancels it).");
  }
  if (tb.can_ask) {
    return h("div", { class: "takeback" }, h("button", { type: "button", class: "link small",
      id: "takeback-ask", onclick: () => send({}) }, "Ask to take back your last move"));
  }
  return null;
}

// The nav's abort: before your first move, the game ends with no result.
export function abortButton(mine, redraw) {
  const g = mine.game;
  if (!g.can_abort || g.finished) return null;
  return h("button", { type: "button", class: "navbtn", id: "btn-abort",
    title: "End the game before your first move: no result, nothing rated",
    onclick: async () => {
      try { redraw(await api("POST", `/api/games/${mine.id}/abort`, {}, mine.token)); }
      catch (err) { toast(err.message, "bad"); }
    } }, "Abort");
}
