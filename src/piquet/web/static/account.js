// Accounts in the lobby: log in, make an account, log out, delete it (web/accounts.py).
// Playing needs no account; one keeps your games and your ratings on every device.
// Text is always set as text, never as markup.

import { api, fill, h, toast } from "./dom.js";
import { explain } from "./learn.js";

let known = undefined; // the last answer of GET /api/account (undefined: not asked yet)

// The account this browser is logged in to ({name, ratings, ...}), or null.
export async function currentAccount(fresh) {
  if (known === undefined || fresh) {
    try { known = (await api("GET", "/api/account")).account; }
    catch { known = null; }
  }
  return known;
}

const FORMAT_WORDS = { game: "a game", partie: "a partie" };

function ratingsLine(account) {
  const r = account.ratings || {};
  const parts = Object.keys(FORMAT_WORDS).filter((f) => r[f]).map((f) =>
    `${FORMAT_WORDS[f]}: ${Math.round(r[f].rating)} (` + (r[f].games ? `${r[f].games} ` +
    `rated game${r[f].games === 1 ? "" : "s"})` : "your start, from your games against " +
    "the computer; no rated game yet)"));
  return parts.length ? "Your rating in " + parts.join("; in ") + "."
    : "No rated game yet: a newcomer starts at 1500 (as strong as the beginner Nell; your " +
      "games against the computer while logged in place your start), and the first games " +
      "move it most.";
}

// The lobby's account panel; ``changed()`` is called after a login, logout or deletion.
export function accountSection(changed) {
  const section = h("section", { class: "account panel", id: "account",
    "aria-labelledby": "account-title" }, h("h2", { id: "account-title" }, "Your account"));
  const draw = async () => {
    const account = await currentAccount();
    if (account) drawIn(section, account, changed);
    else drawOut(section, changed);
  };
  draw();
  return section;
}

function drawIn(section, account, changed) {
  const out = h("button", { type: "button", class: "act", id: "logout", onclick: async () => {
    try { await api("POST", "/api/account/logout", {}); } catch (e) { toast(e.message, "bad"); }
    known = null;
    changed();
  } }, "Log out");
  const del = h("button", { type: "button", class: "link", id: "delete-account",
    onclick: () => askDelete(section, account, changed) }, "Delete my account…");
  fill(section, h("h2", { id: "account-title" }, "Your account"),
    h("p", {}, "Logged in as ", h("strong", { id: "account-name" }, account.name),
      ". Your games are kept with your account: log in on another device to find them there."),
    h("p", { class: "muted small", id: "account-ratings" }, ratingsLine(account)),
    h("div", { class: "row" }, out, del));
  explain(section);
}

function askDelete(section, account, changed) {
  const pw = h("input", { type: "password", id: "delete-password", autocomplete:
    "current-password", maxlength: 128, required: true });
  const form = h("form", { class: "delete-account", id: "delete-form" },
    h("p", {}, "Deleting your account deletes its list of games and its ratings, on every " +
      "device. The games themselves stay for the other players in them. This cannot be " +
      "undone."),
    h("label", { class: "field" }, "Your password, to confirm", pw),
    h("div", { class: "row" },
      h("button", { type: "submit", class: "act danger", id: "delete-yes" },
        "Delete my account"),
      h("button", { type: "button", class: "act", onclick: () => drawIn(section, account,
        changed) }, "Keep it")));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      await api("POST", "/api/account/delete", { password: pw.value });
      known = null;
      toast("Your account is deleted.");
      changed();
    } catch (err) { toast(err.message, "bad"); }
  });
  fill(section, h("h2", { id: "account-title" }, "Delete your account?"), form);
  explain(section);
  pw.focus();
}

function drawOut(section, changed) {
  const name = h("input", { id: "account-login-name", maxlength: 30, autocomplete: "username",
    required: true });
  const pw = h("input", { type: "password", id: "account-password", maxlength: 128,
    autocomplete: "current-password", required: true });
  const login = h("button", { type: "submit", class: "act primary", id: "account-login" },
    "Log in");
  const make = h("button", { type: "button", class: "act", id: "account-register" },
    "Make an account");
  const form = h("form", { class: "account-form", id: "account-form" },
    h("label", { class: "field" }, "Name", name),
    h("label", { class: "field" }, "Password (8 characters or more)", pw),
    h("div", { class: "row" }, login, make));
  const send = async (path) => {
    try {
      await api("POST", path, { name: name.value, password: pw.value });
      known = undefined;  // asked again: with the account's ratings
      changed();
    } catch (err) { toast(err.message, "bad"); }
  };
  form.addEventListener("submit", (e) => { e.preventDefault(); send("/api/account/login"); });
  make.addEventListener("click", () => {
    if (!form.reportValidity()) return;
    send("/api/account/register");
  });
  fill(section, h("h2", { id: "account-title" }, "Your account"),
    h("p", { class: "muted small" }, "Playing needs no account. An account keeps your " +
      "games on every device and gives you a rating for rated games against other players."),
    form);
  explain(section);
}
