// Learning Piquet: the welcome, the glossary's tooltips and page, the lessons, the puzzles,
// the coach of a guided deal.  Every word and every judgement comes from the server
// (piquet.learn through web/learn_routes.py): the page never judges an answer.  No build
// step; text is always set as text, never as markup.

import { cardName, cardShort, cardSVG, isRed, sortHand } from "./cards.js";
import { api, csrfToken, fill, h, toast } from "./dom.js";

// ------------------------------------------------------------------ remembered choices
// "learner" (a newcomer: kind opponent, hints on, the last trick kept, the coach) or
// "expert"; null before the welcome is answered.
export function level() {
  const v = localStorage.getItem("piquet.level");
  return v === "learner" || v === "expert" ? v : null;
}
export function setLevel(v) {
  localStorage.setItem("piquet.level", v);
  keep({ level: v });
}

function progress(key) {
  try { return JSON.parse(localStorage.getItem("piquet.learn." + key) || "{}") || {}; }
  catch { return {}; }
}
function saveProgress(key, data) {
  localStorage.setItem("piquet.learn." + key, JSON.stringify(data));
  keep({ [key]: data });
}

// Logged in to an account (its CSRF cookie is there), the progress is kept with the
// account too (/api/account/progress): the server merges what is sent into what it keeps
// (a step answered on any device stays answered) and answers the whole, which this
// browser then holds.  Without an account it stays in this browser alone.
function holdLocally(p) {
  localStorage.setItem("piquet.learn.lessons", JSON.stringify(p.lessons || {}));
  localStorage.setItem("piquet.learn.puzzles", JSON.stringify(p.puzzles || {}));
  if (p.level) localStorage.setItem("piquet.level", p.level);
}
async function keep(part) {
  if (!csrfToken()) return;
  try {
    holdLocally((await api("POST", "/api/account/progress", { progress: part })).progress);
  } catch { /* kept in this browser; sent again with the next sync */ }
}
export async function syncProgress() {
  if (!csrfToken()) return;
  const mine = { lessons: progress("lessons"), puzzles: progress("puzzles") };
  if (level()) mine.level = level();
  await keep(mine);
}

// ------------------------------------------------------------------ the glossary
// One source of truth: the server's piquet.learn.glossary (its terms, and the forms a
// page marks, folded and longest first, as terms_in reads them).
let G = null;
let loading = null;
export function glossary() {
  if (G) return Promise.resolve(G);
  if (!loading) {
    loading = api("GET", "/api/learn/glossary").then((res) => {
      const terms = Object.fromEntries(res.terms.map((t) => [t.key, t]));
      const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      const byForm = Object.fromEntries(res.forms);
      const re = new RegExp("(?<![\\w-])(" + res.forms.map(([f]) => esc(f)).join("|") +
        ")(?![\\w-])", "g");
      G = { terms, list: res.terms, byForm, re };
      return G;
    }, (e) => { loading = null; throw e; });
  }
  return loading;
}
glossary().catch(() => { /* the page works without its tooltips */ });

// Lower case, accents dropped, one character for one (so positions stay the text's own).
function fold(text) {
  let out = "";
  for (const c of text) {
    const f = c.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
    out += f.length === 1 ? f : (c.toLowerCase().length === 1 ? c.toLowerCase() : "?");
  }
  return out;
}

// The terms named in ``text``: [{start, end, key}], the longest form first.
function found(text) {
  if (!G) return [];
  const out = [];
  const folded = fold(text);
  if (folded.length !== text.length) return out;
  G.re.lastIndex = 0;
  let m;
  while ((m = G.re.exec(folded))) {
    out.push({ start: m.index, end: m.index + m[1].length, key: G.byForm[m[1]] });
  }
  return out;
}

// A term as the page shows it: underlined, its definition on hover (title) and on focus
// (the popover), reachable by Tab.
export function termEl(key, text) {
  const t = G && G.terms[key];
  if (!t) return document.createTextNode(text);
  return h("abbr", { class: "term", tabindex: "0", title: `${t.name}: ${t.definition}`,
    dataset: { term: key, def: `${t.name}: ${t.definition}` } }, text);
}

const SKIP = "abbr.term, script, style, input, textarea, select, kbd, .no-terms, svg";
// Mark every glossary term in the text under ``root``; a button (no focusable inside a
// button) takes the definitions of its terms as its title instead.
export function explain(root) {
  if (!root) return root;
  if (!G) { glossary().then(() => explain(root), () => {}); return root; }
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const nodes = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) nodes.push(n);
  for (const node of nodes) {
    const parent = node.parentElement;
    if (!parent || parent.closest(SKIP)) continue;
    const hits = found(node.data);
    if (!hits.length) continue;
    const holder = parent.closest("button, option, summary, a");
    if (holder && holder.tagName !== "SUMMARY" && holder.tagName !== "A") {
      const keys = new Set((holder.dataset.terms || "").split(" ").filter(Boolean));
      for (const x of hits) keys.add(x.key);
      holder.dataset.terms = [...keys].join(" ");
      holder.title = [...keys].map((k) => `${G.terms[k].name}: ${G.terms[k].definition}`)
        .join("\n");
      continue;
    }
    const frag = document.createDocumentFragment();
    let at = 0;
    for (const x of hits) {
      if (x.start > at) frag.append(node.data.slice(at, x.start));
      frag.append(termEl(x.key, node.data.slice(x.start, x.end)));
      at = x.end;
    }
    if (at < node.data.length) frag.append(node.data.slice(at));
    // in a flex or grid box each node is an item: keep the words one item ("Rule set")
    const display = parent.isConnected ? getComputedStyle(parent).display : "";
    node.replaceWith(/flex|grid/.test(display) || parent.classList.contains("field")
      ? h("span", {}, frag) : frag);
  }
  return root;
}

// Text in pieces from the server ({text} or {text, term}) as nodes.
function pieces(segs) {
  return segs.flatMap((s) => (s.term ? [termEl(s.term, s.text)] : withCards(s.text)));
}

// ------------------------------------------------------------------ small pictures
function cardEl(id, opts = {}) {
  const b = h(opts.button ? "button" : "div", {
    class: "card" + (opts.cls ? " " + opts.cls : ""), type: opts.button ? "button" : null,
    role: opts.button ? null : "img", "aria-label": cardName(id), dataset: { card: id },
    onclick: opts.onclick || null });
  b.append(cardSVG(id));
  return b;
}
function textCards(ids) {
  return h("span", { class: "textcards" }, ids.map((id) =>
    h("span", { class: "textcard" + (isRed(id) ? " red" : ""), title: cardName(id) },
      cardShort(id))));
}
// Card codes in a sentence ("play QH") with their suit signs.
function withCards(text) {
  const out = [];
  const re = /\b(10|[2-9TJQKA])([SHDC])\b/g;
  let at = 0;
  let m;
  while ((m = re.exec(text))) {
    if (m.index > at) out.push(text.slice(at, m.index));
    const id = (m[1] === "10" ? "T" : m[1]) + m[2];
    out.push(textCards([id]));
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

// A seat's view of a deal (DealView.to_json): what it holds, what was said, the trick.
function position(v, who) {
  const role = v.role;
  const hand = h("div", { class: "learn-hand", "aria-label": "Your cards" },
    sortHand(v.hand).map((c) => cardEl(c, { cls: "small" })));
  const said = v.dialog.length ? h("ol", { class: "lines learn-dialog" }, v.dialog.map((u) =>
    h("li", { class: u.seat === role ? "me" : "them" },
      h("span", { class: "speaker" }, (u.seat === role ? "You" : who || "The other") + ": "),
      withCards(u.said), u.shown.length ? textCards(sortHand(u.shown)) : null))) : null;
  const lead = v.trick_lead ? h("p", { class: "learn-trick" }, "On the table: ",
    cardEl(v.trick_lead, { cls: "small" }),
    v.opponent_played.includes(v.trick_lead) ? " (he led it)" : " (you led it)") : null;
  const tricks = v.tricks.length ? h("p", { class: "muted small" },
    `Tricks so far: you ${v.tricks_won[role]}, he ${v.tricks_won[role === "elder"
      ? "younger" : "elder"]}.`) : null;
  const score = h("p", { class: "muted small" }, `You are ${role}` +
    (role === "elder" ? " (you did not deal)" : " (you dealt)") +
    `. Phase: ${v.phase}. Your score in the deal: ${v.scores[role]}.`);
  return h("div", { class: "learn-position" }, score, hand, lead, said, tricks);
}

// ------------------------------------------------------------------ the welcome
// Asked on the first visit; a newcomer gets a kind opponent, hints on, today's game by
// its title; the expert is one click away either way.
export function welcomeSection(apply) {
  const box = h("section", { class: "welcome panel", id: "welcome", "aria-live": "polite" });
  const draw = () => {
    const lv = level();
    if (lv === null) {
      fill(box, h("h2", {}, "Have you played Piquet?"),
        h("p", {}, "Piquet is a card game for two from the 16th century on. If it is new to " +
          "you, the table will teach it as you play."),
        h("div", { class: "welcome-choices" },
          h("button", { type: "button", class: "primary big", id: "welcome-new",
            onclick: () => { setLevel("learner"); apply("learner"); draw(); } },
          "No: teach me"),
          h("button", { type: "button", class: "act", id: "welcome-expert",
            onclick: () => { setLevel("expert"); apply("expert"); draw(); } },
          "Yes: I know the game")));
    } else if (lv === "learner") {
      fill(box, h("h2", {}, "Learn Piquet at the table"),
        h("p", {}, "Start with a guided first deal: a kind opponent, and a coach at your " +
          "side who says what each step is and what it would do."),
        h("p", { class: "welcome-links" },
          h("a", { href: "/learn", id: "learn-link", class: "primary-link" },
            "Guided deal, lessons and puzzles"), " · ",
          h("a", { href: "/learn/glossary", id: "glossary-link" }, "Glossary")),
        h("p", { class: "muted small" }, "New games below start against a kind opponent " +
          "with hints on. ",
        h("button", { type: "button", class: "linklike", id: "welcome-expert",
          onclick: () => { setLevel("expert"); apply("expert"); draw(); } },
        "I know the game: the expert's settings")));
    } else {
      fill(box, h("p", { class: "muted small" }, "New to Piquet? ",
        h("a", { href: "/learn", id: "learn-link" }, "Learn it at the table"), " · ",
        h("a", { href: "/learn/glossary", id: "glossary-link" }, "Glossary"), " · ",
        h("button", { type: "button", class: "linklike", id: "welcome-new",
          onclick: () => { setLevel("learner"); apply("learner"); draw(); } },
        "Use the newcomer's settings")));
    }
    explain(box);
  };
  draw();
  return box;
}

// ------------------------------------------------------------------ the pages
export async function showLearn(path, $main, $nav, go, startGuided) {
  $nav.replaceChildren(
    h("a", { class: "navbtn", href: "/learn", id: "nav-learn" }, "Learn"),
    h("a", { class: "navbtn", href: "/learn/glossary", id: "nav-glossary" }, "Glossary"),
    h("a", { class: "navbtn", href: "/learn/puzzles", id: "nav-puzzles" }, "Puzzles"),
    h("a", { class: "navbtn", href: "/", id: "nav-home" }, "Play"));
  explain($nav);
  $main.replaceChildren(h("p", { class: "loading" }, "Opening the book…"));
  try {
    await Promise.all([glossary(), syncProgress()]);
    let m;
    if (path === "/learn/glossary") return await showGlossary($main);
    if (path === "/learn/puzzles") return await showPuzzles($main);
    if ((m = path.match(/^\/learn\/lessons\/([a-z0-9-]+)$/))) return await showLesson($main, m[1]);
    return await showLearnHome($main, go, startGuided);
  } catch (e) {
    fill($main, h("div", { class: "panel" }, h("h2", {}, "Not found"),
      h("p", { class: "error" }, e.message), h("a", { href: "/learn" }, "Back to the lessons")));
  }
}

async function showLearnHome($main, go, startGuided) {
  document.title = "Learn Piquet";
  const [opts, ls] = await Promise.all([api("GET", "/api/options"),
    api("GET", "/api/learn/lessons")]);
  const done = progress("lessons");
  const rules = h("select", { id: "guided-rules", name: "guided-rules" },
    opts.rules.map((r) => h("option", { value: r.name, selected: r.name === "rubicon" },
      r.title)));
  const start = h("button", { type: "button", class: "primary big", id: "guided-start",
    onclick: async () => {
      start.disabled = true;
      try { await startGuided(rules.value); } catch (e) {
        toast(e.message, "bad");
        start.disabled = false;
      }
    } }, "Play a guided first deal");
  const solved = Object.values(progress("puzzles"));
  fill($main, h("div", { class: "learn" },
    h("section", { class: "hero" }, h("h1", {}, "Learn Piquet"),
      h("p", { class: "lead" }, "From never having played to a sound game: a deal played " +
        "with a coach, fourteen short lessons whose questions the rules engine answers, " +
        "and puzzles from real deals.")),
    h("section", { class: "panel", id: "guided" }, h("h2", {}, "A guided first deal"),
      h("p", {}, "You play a whole deal against a kind opponent (the book's player). At " +
        "each of your decisions the coach says what it is, what it would do and why, and " +
        "after your choice what it cost if it was weak. Every term is explained the first " +
        "time it comes up."),
      h("label", { class: "field" }, "Rule set", rules), start),
    h("section", { class: "panel", id: "lessons" }, h("h2", {}, "Lessons"),
      h("ol", { class: "lesson-list" }, ls.lessons.map((l) => {
        const d = done[l.key] || {};
        const n = Object.keys(d).length;
        return h("li", {}, h("a", { href: `/learn/lessons/${l.key}`, id: `lesson-${l.key}` },
          l.title), " ", h("span", { class: "muted small" }, l.summary),
        l.rules !== "rubicon" ? h("span", { class: "muted small" }, ` (${l.rules_title})`)
          : null,
        l.questions ? h("span", { class: "badge" + (n >= l.questions ? " done" : "") },
          `${n}/${l.questions}`) : null);
      }))),
    h("section", { class: "panel", id: "puzzles-box" }, h("h2", {}, "Puzzles"),
      h("p", {}, "Positions from real deals where one choice is clearly better: what to " +
        "lay out, what to declare, what to lead or play. The solver judges your answer " +
        "and says by how much."),
      h("p", {}, h("a", { href: "/learn/puzzles", id: "puzzles-link" }, "Solve puzzles"),
        solved.length ? ` (${solved.filter((x) => x.best).length} right of ` +
          `${solved.length} tried)` : "")),
    h("section", { class: "panel" }, h("h2", {}, "Glossary"),
      h("p", {}, "Every word of the game in plain words, with how each period's text uses " +
        "it: ", h("a", { href: "/learn/glossary" }, "the glossary"), "."))));
  explain($main);
}

async function showGlossary($main) {
  document.title = "Glossary · Piquet";
  const filter = h("input", { type: "search", id: "glossary-filter", placeholder: "Find a term",
    "aria-label": "Find a term" });
  const list = h("dl", { class: "glossary", id: "glossary" });
  const draw = () => {
    const q = fold(filter.value.trim());
    fill(list, G.list.filter((t) => !q || fold(t.name).includes(q) ||
      fold(t.definition).includes(q)).flatMap((t) => [
      h("dt", { id: t.key }, h("a", { href: `#${t.key}`, class: "no-terms" }, t.name)),
      h("dd", {}, h("p", {}, t.definition), h("p", { class: "muted" }, "Example: ", t.example),
        t.uses.length ? h("ul", { class: "uses" }, t.uses.map((u) => h("li", {},
          h("b", {}, u.source + ": "), u.how, u.quote ? h("q", {}, u.quote) : null))) : null,
        t.see.length ? h("p", { class: "small" }, "See also: ", t.see.map((k, i) =>
          [i ? ", " : "", h("a", { href: `#${k}` }, G.terms[k].name)])) : null)]));
    explain(list);
  };
  filter.addEventListener("input", draw);
  fill($main, h("div", { class: "learn" }, h("h1", {}, "Glossary"),
    h("p", { class: "lead" }, `${G.list.length} terms of Piquet in plain words. Point at ` +
      "or tab to an underlined word anywhere in the game to read its entry."),
    filter, list));
  draw();
  if (location.hash) {
    const el = document.getElementById(location.hash.slice(1));
    if (el) el.scrollIntoView();
  }
}

async function showLesson($main, key) {
  const l = await api("GET", `/api/learn/lessons/${key}`);
  document.title = `${l.title} · Learn Piquet`;
  const all = progress("lessons");
  const done = all[key] || {};
  const steps = l.step_list.map((s) => {
    const box = h("article", { class: "step panel", id: `step-${s.index}` },
      h("p", { class: "step-text" }, pieces(s.text)));
    if (s.position) box.append(position(s.position));
    if (s.question) box.append(questionBox(key, s, done, all));
    return box;
  });
  fill($main, h("div", { class: "learn lesson", id: "lesson", dataset: { key } },
    h("p", { class: "muted small" }, h("a", { href: "/learn" }, "Lessons"), " › ",
      l.rules_title),
    h("h1", {}, l.title), h("p", { class: "lead" }, l.summary), steps,
    h("p", { class: "lesson-next" }, l.next
      ? h("a", { href: `/learn/lessons/${l.next}`, id: "next-lesson", class: "primary-link" },
        "Next lesson") : h("a", { href: "/learn/puzzles", id: "next-lesson" }, "On to the puzzles"))));
  explain($main);
}

function questionBox(key, s, done, all) {
  const q = s.question;
  const out = h("p", { class: "verdict", role: "status", "aria-live": "polite" });
  const send = async (answer, button) => {
    if (button) button.disabled = true;
    out.textContent = "Checking…";
    try {
      const res = await api("POST", `/api/learn/lessons/${key}/steps/${s.index}/check`,
        { answer });
      out.className = "verdict " + (res.correct ? "good" : "bad");
      fill(out, res.correct ? "Right: " : "Not quite. The answer: ", withCards(res.answer));
      if (res.correct) {
        done[s.index] = true;
        all[key] = done;
        saveProgress("lessons", all);
      }
    } catch (e) {
      out.className = "verdict bad";
      out.textContent = e.message;
    } finally { if (button) button.disabled = false; }
  };
  const fixed = { winner: ["elder", "younger", "neither"], blanche: ["yes", "no"],
    lurch: ["yes", "no"] }[q.ask];
  let form;
  if (fixed) {
    form = h("div", { class: "answer-choices" }, fixed.map((a) => {
      const b = h("button", { type: "button", class: "act", dataset: { answer: a },
        onclick: () => send(a, b) }, a);
      return b;
    }));
  } else {
    const input = h("input", { class: "answer", name: "answer", autocomplete: "off",
      "aria-label": q.prompt, placeholder: ["best", "playable", "missing"].includes(q.ask)
        ? "cards, e.g. QH 10S" : q.ask === "exchange" ? "e.g. 1 to 5" : "a number" });
    const b = h("button", { type: "submit", class: "act primary" }, "Check");
    form = h("form", { class: "answer-form", onsubmit: (e) => { e.preventDefault();
      send(input.value, b); } }, input, b);
  }
  if (done[s.index]) { out.className = "verdict good"; out.textContent = "Answered before."; }
  return h("div", { class: "question" }, h("p", { class: "prompt" }, q.prompt), form, out);
}

// Keys 1-9 choose a puzzle's choice, as at the table.
document.addEventListener("keydown", (e) => {
  if (location.pathname !== "/learn/puzzles" || e.altKey || e.ctrlKey || e.metaKey) return;
  const tag = (e.target && e.target.tagName) || "";
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || !/^[1-9]$/.test(e.key)) return;
  const b = document.querySelector(`#puzzle-choices button[data-choice="${e.key}"]`);
  if (b && !b.disabled) { e.preventDefault(); b.click(); }
});

async function showPuzzles($main) {
  document.title = "Puzzles · Learn Piquet";
  const params = new URLSearchParams(location.search);
  const solved = progress("puzzles");
  let seed = Number(params.get("n") || localStorage.getItem("piquet.learn.puzzle-n") || 1);
  const pick = { rules: params.get("rules") || localStorage.getItem("piquet.learn.puzzle-rules")
    || "rubicon", theme: params.get("theme") || "", difficulty: params.get("difficulty") || "" };
  const body = h("div", { id: "puzzle" });
  const filters = h("form", { class: "puzzle-filters", id: "puzzle-filters" });
  const load = async () => {
    fill(body, h("p", { class: "loading" }, "Dealing a position…"));
    const q = new URLSearchParams({ seed: String(seed) });
    for (const [k, v] of Object.entries(pick)) if (v) q.set(k, v);
    let p;
    try { p = await api("GET", "/api/learn/puzzles?" + q); }
    catch (e) { fill(body, h("p", { class: "error" }, e.message)); return; }
    if (!filters.childElementCount) {
      const sel = (name, items, value) => h("select", { name, id: `puzzle-${name}`,
        onchange: (e) => { pick[name] = e.target.value; if (name === "rules") {
          localStorage.setItem("piquet.learn.puzzle-rules", e.target.value); } load(); } },
      items.map(([v, t]) => h("option", { value: v, selected: v === value }, t)));
      fill(filters,
        h("label", { class: "field" }, "Rule set", sel("rules",
          p.rule_sets.map((r) => [r.name, r.title]), pick.rules)),
        h("label", { class: "field" }, "Theme", sel("theme",
          [["", "every theme"], ...p.themes.map((t) => [t.value, t.title])], pick.theme)),
        h("label", { class: "field" }, "Difficulty", sel("difficulty",
          [["", "any"], ...p.difficulties.map((d) => [d, d])], pick.difficulty)));
      explain(filters);
    }
    const tried = Object.values(solved);
    const verdict = h("div", { class: "verdict", id: "puzzle-verdict", role: "status",
      "aria-live": "polite" });
    const next = h("button", { type: "button", class: "act primary", id: "puzzle-next",
      hidden: true, onclick: () => { seed += 1; localStorage.setItem("piquet.learn.puzzle-n",
        String(seed)); load(); } }, "Next puzzle");
    const buttons = p.choices.map((c) => h("button", { type: "button", class: "act choice",
      dataset: { choice: String(c.n) }, onclick: () => answer(c) },
    h("kbd", {}, String(c.n)), " ", withCards(c.label)));
    const answer = async (c) => {
      for (const b of buttons) b.disabled = true;
      verdict.textContent = "The solver is judging…";
      try {
        const v = await api("POST", `/api/learn/puzzles/${p.id}/answer`, { answer: String(c.n) });
        solved[p.id] = { best: v.best, cost: v.cost };
        saveProgress("puzzles", solved);
        verdict.className = "verdict " + (v.best ? "good" : "bad");
        fill(verdict, h("p", {}, withCards(v.text)),
          h("p", { class: "muted small" }, withCards(`Best: ${v.best_choice.label}, by about ` +
            `${v.margin.toFixed(1)} points of the deal over the next best, judged in ` +
            `${v.worlds} deals that fit what you see.`)));
        for (const b of buttons) {
          if (b.dataset.choice === String(c.n)) b.classList.add(v.best ? "right" : "wrong");
        }
        next.hidden = false;
        next.focus();
        explain(verdict);
      } catch (e) {
        verdict.className = "verdict bad";
        verdict.textContent = e.message;
        for (const b of buttons) b.disabled = false;
      }
    };
    fill(body, h("div", { class: "panel puzzle", dataset: { id: p.id } },
      h("p", { class: "muted small" }, `${p.rules_title} · ${p.theme_title} · ${p.difficulty}` +
        ` · puzzle ${seed}` + (tried.length ? ` · ${tried.filter((x) => x.best).length} ` +
        `right of ${tried.length} tried` : "")),
      h("h2", {}, "What is best here?"),
      position(p.view, "The other player"),
      h("div", { class: "choices-list", id: "puzzle-choices" }, buttons), verdict, next));
    explain(body);
  };
  fill($main, h("div", { class: "learn" }, h("h1", {}, "Puzzles"),
    h("p", { class: "lead" }, "One choice is clearly better. Choose, then read why."),
    filters, body));
  await load();
}

// ------------------------------------------------------------------ the coach
// The coach's panel of a guided game: its note asked once per position, then its word on
// your last choice (that one plays deals out: the note does not wait for it).  One request
// at a time; an answer for a position gone by is dropped; "thinking" shown at once.
export function coachPanel(T, render) {
  const g = T.game;
  const c = T.coach || (T.coach = { n: -1, before: null, after: null, busy: false,
    judging: false, error: null });
  const mine = T;
  const ask = (part) => api("GET", `/api/games/${T.id}/coach?part=${part}`, undefined,
    T.token, { timeout: 200000 });
  // the word on your last choice: one request at a time, asked again if the game moved on
  const judge = () => {
    if (c.judging) return;
    const at = c.n;
    c.judging = true;
    ask("after").then((res) => { c.after = res.after; }, () => {}).finally(() => {
      c.judging = false;
      if (!mine.game || T !== mine) return;
      if (c.n !== at) judge();
      render();
    });
  };
  if (c.n !== g.n && !c.busy) {
    const asked = g.n;
    c.busy = true;
    c.error = null;
    // a busy server (this page's own hint and the word on the last choice still being
    // worked out) refuses a third job with 429: the note is asked again a little later,
    // as "thinking", never left as an error for the rest of the position
    let again = false;
    ask("before").then((res) => { c.before = res.before; }, (e) => {
      if (e.status === 429 && (c.refused = (c.refused || 0) + 1) <= 60) { again = true; return; }
      c.before = null;
      c.error = e.message;
    }).finally(() => {
      if (again) {
        setTimeout(() => {
          c.busy = false;
          if (mine.game && T === mine) render();
        }, 2000);
        return;
      }
      c.refused = 0;
      c.n = asked;
      c.busy = false;
      if (!mine.game || T !== mine) return;
      judge();
      render();
    });
  }
  const box = h("section", { class: "coach", id: "coach", "aria-live": "polite",
    "aria-label": "The coach" }, h("h3", {}, "Coach"));
  box.dataset.judging = c.judging ? "1" : "0";  // a word on the last choice still to come
  const fresh = c.n === g.n;
  if (c.error && fresh) box.append(h("p", { class: "error small" }, c.error));
  if (c.after && c.after.cost) {
    box.append(h("div", { class: "coach-after", id: "coach-after" },
      h("b", {}, c.after.title + ": "), c.after.sentences.flatMap((s) => withCards(s + " "))));
  } else if (c.after) {
    box.append(h("p", { class: "small coach-after-ok" },
      c.after.sentences.flatMap((s) => withCards(s + " "))));
  } else if (c.judging) {
    box.append(h("p", { class: "muted small thinking", id: "coach-judging" },
      "Weighing your last choice…"));
  }
  if (c.busy || !fresh && g.your_turn) {
    box.append(h("p", { class: "thinking", id: "coach-thinking" }, "The coach is thinking…"));
  } else if (c.before && g.your_turn) {
    const n = c.before;
    box.append(h("div", { class: "coach-before", id: "coach-before" },
      h("h4", {}, n.title), n.sentences.map((s) => h("p", {}, withCards(s))),
      n.terms.length ? h("dl", { class: "coach-terms" }, n.terms.flatMap((t) => [
        h("dt", {}, termEl(t.key, t.name)), h("dd", {}, t.definition)])) : null));
  } else if (!g.your_turn && !g.finished) {
    box.append(h("p", { class: "muted small" }, "The other player is choosing."));
  }
  return box;
}
