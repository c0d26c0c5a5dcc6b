// Small helpers shared by the card table (app.js) and the tally (tally.js).  No build step.
// Text is always set as text (a text node), never as markup.

// An element: h("p", {class: "x", onclick: f}, "text", child, [more children]).
export function h(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) listen(e, k.slice(2), v);
    else if (k === "dataset") Object.assign(e.dataset, v);
    else if (v === true) e.setAttribute(k, "");
    else e.setAttribute(k, String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

// An event handler on ``e``, marked: patch() keeps no element with handlers of its own
// unless told they read the state when called (not values of the render that made them).
export function listen(e, type, f) {
  e.addEventListener(type, f);
  e._on = true;
}

function present(kids) {
  return kids.flat().filter((k) => k !== null && k !== undefined && k !== false);
}

// replaceChildren/append would print null as "null": drop the empty ones first
export function fill(parent, ...kids) {
  parent.replaceChildren(...present(kids));
  return parent;
}

// a node's markup, read (never written: the page sets text as text)
const markup = new XMLSerializer();

function handlers(e) {
  if (e._on) return true;
  if (!e.querySelectorAll) return false;
  for (const x of e.querySelectorAll("*")) if (x._on) return true;
  return false;
}

// As fill(), but only what changed is replaced: a child already in ``parent`` whose markup
// (or ``_ident``, a name for its whole markup) is the one its new twin's would be stays,
// with its layout, focus, scroll and glossary marks; one the builder
// returns itself (a node kept across renders) stays too.  A child with event handlers is
// kept only with ``reuseHandlers``, or its own ``_reuse``: its handlers read the state when
// called, or only what its markup says.  Returns the nodes put in new (a
// slot's new children among them): the ones to run explain() over.
export function patch(parent, kids, { reuseHandlers = false } = {}) {
  const old = new Map();
  for (const c of parent.childNodes) {
    if (c._sig === undefined) continue;
    if (!old.has(c._sig)) old.set(c._sig, []);
    old.get(c._sig).push(c);
  }
  const out = [];
  const fresh = [];
  for (let k of present(kids)) {
    if (!(k instanceof Node)) k = document.createTextNode(String(k));
    if (k.parentNode === parent) { out.push(k); continue; }
    // a container named by ``_slot`` (no handlers of its own, or ones that read the state
    // when called: ``_reuse``) is kept, its attributes set and its children patched in
    // turn: a hand that lost one card keeps the other eleven
    if (k._slot && (!k._on || k._reuse)) {
      const slot = [...parent.children].find((c) => c._slot === k._slot &&
        c.tagName === k.tagName && (!c._on || k._reuse) && !out.includes(c));
      if (slot) {
        for (const a of [...slot.attributes]) {
          if (!k.hasAttribute(a.name)) slot.removeAttribute(a.name);
        }
        for (const a of k.attributes) {
          if (slot.getAttribute(a.name) !== a.value) slot.setAttribute(a.name, a.value);
        }
        fresh.push(...patch(slot, [...k.childNodes], { reuseHandlers }));
        out.push(slot);
      } else {
        out.push(k);
        fresh.push(k);
      }
      continue;
    }
    // what it shows: its markup, or the name of a copy of one (a card's picture, _ident)
    const sig = k._ident !== undefined ? "=" + k._ident
      : "\u0000" + (k.nodeType === Node.ELEMENT_NODE
        ? markup.serializeToString(k) : k.textContent);
    const same = (old.get(sig) || []).shift();
    if (same && !out.includes(same) && (reuseHandlers || k._reuse || !handlers(same))) {
      out.push(same);
      continue;
    }
    k._sig = sig;
    out.push(k);
    fresh.push(k);
  }
  const keep = new Set(out);
  for (const c of [...parent.childNodes]) if (!keep.has(c)) c.remove();
  let at = parent.firstChild;
  for (const k of out) {
    if (k === at) at = at.nextSibling;
    else parent.insertBefore(k, at);
  }
  return fresh;
}

// The CSRF token of the account's session (a cookie this page may read; another site's
// page may not), or null when not logged in.
export function csrfToken() {
  const m = document.cookie.match(/(?:^|;\s*)piquet_csrf=([^;]+)/);
  return m ? decodeURIComponent(m[1]) : null;
}

// An answer of the API other than 2xx; status 0 when the server could not be reached.
// ``data``: the whole answer (a 409 of an action carries the game as it stands).
export class ApiError extends Error {
  constructor(status, message, data) { super(message); this.status = status; this.data = data; }
}

// One call of the JSON API; the bearer token when given.  Throws ApiError with the
// server's {"error": ...} message; status 0 when the server cannot be reached or does not
// answer within ``timeout`` ms (a connection that went silent must not leave the table
// waiting for ever).
export async function api(method, path, body, token, { timeout = 30000 } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = "Bearer " + token;
  // logged in: every change carries the CSRF token that goes with the session (the server
  // refuses a change that carries the login cookie without it)
  const csrf = method !== "GET" ? csrfToken() : null;
  if (csrf) headers["X-CSRF-Token"] = csrf;
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), timeout);
  try {
    let r;
    try {
      r = await fetch(path, { method, headers, credentials: "same-origin", signal: stop.signal,
        body: body === undefined ? undefined : JSON.stringify(body) });
    } catch (e) {
      throw new ApiError(0, stop.signal.aborted
        ? "the server did not answer in time: check the connection"
        : "the server cannot be reached: check the connection");
    }
    const type = r.headers.get("content-type") || "";
    const data = type.includes("json") ? await r.json().catch(() => null) : await r.text();
    if (!r.ok) throw new ApiError(r.status, (data && data.error) || r.statusText, data);
    return data;
  } finally {
    clearTimeout(timer);
  }
}

// A passing message in the page's #toast element ("bad" for a refusal).
let toastTimer = null;
export function toast(text, kind) {
  const $toast = document.getElementById("toast");
  $toast.textContent = text;
  $toast.className = "toast show" + (kind ? " " + kind : "");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { $toast.className = "toast"; }, 4200);
}
