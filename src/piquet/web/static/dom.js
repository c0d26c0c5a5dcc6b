// Small helpers shared by the card table (app.js) and the tally (tally.js).  No build step.
// Text is always set as text (a text node), never as markup.

// An element: h("p", {class: "x", onclick: f}, "text", child, [more children]).
export function h(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
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

// replaceChildren/append would print null as "null": drop the empty ones first
export function fill(parent, ...kids) {
  parent.replaceChildren(...kids.flat().filter((k) => k !== null && k !== undefined &&
    k !== false));
  return parent;
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
