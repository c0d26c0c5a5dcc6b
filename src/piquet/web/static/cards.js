// Cards drawn as SVG: faces with pips, courts with a framed portrait, and backs.
// A card id is rank + suit: "QH", "TD" (ten), "7C".

const NS = "http://www.w3.org/2000/svg";
export const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
export const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
export const RANK_NAMES = {
  A: "ace", K: "king", Q: "queen", J: "knave", T: "ten",
  9: "nine", 8: "eight", 7: "seven", 6: "six",
};
const RANK_TEXT = { T: "10" };
const RANK_ORDER = "AKQJT9876";
const SUIT_ORDER = "SHCD"; // alternate colours in the hand

export function isRed(card) {
  return card[1] === "H" || card[1] === "D";
}

export function cardName(card) {
  return `${RANK_NAMES[card[0]]} of ${SUIT_NAMES[card[1]]}`;
}

export function cardShort(card) {
  return (RANK_TEXT[card[0]] || card[0]) + SUITS[card[1]];
}

// A line of the dialog or a count's note with its card codes ("shows AC QC") written as
// cards ("shows A♣ Q♣").
export function codesAsCards(text) {
  return text.replace(/\b([AKQJT9876])([SHDC])\b/g, (_m, r, su) => cardShort(r + su));
}

export function sortHand(cards) {
  return [...cards].sort((a, b) =>
    SUIT_ORDER.indexOf(a[1]) - SUIT_ORDER.indexOf(b[1]) ||
    RANK_ORDER.indexOf(a[0]) - RANK_ORDER.indexOf(b[0]));
}

function el(tag, attrs, text) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

// Pip positions (x, y, upside-down) for the number cards, in a 100 x 140 card.
const L = 31, C = 50, R = 69;
const PIPS = {
  6: [[L, 32], [R, 32], [L, 70], [R, 70], [L, 108, 1], [R, 108, 1]],
  7: [[L, 32], [R, 32], [C, 51], [L, 70], [R, 70], [L, 108, 1], [R, 108, 1]],
  8: [[L, 32], [R, 32], [C, 51], [L, 70], [R, 70], [C, 89, 1], [L, 108, 1], [R, 108, 1]],
  9: [[L, 30], [R, 30], [L, 56], [R, 56], [C, 70], [L, 84, 1], [R, 84, 1],
      [L, 110, 1], [R, 110, 1]],
  T: [[L, 30], [R, 30], [C, 43], [L, 56], [R, 56], [L, 84, 1], [R, 84, 1], [C, 97, 1],
      [L, 110, 1], [R, 110, 1]],
};
const COURT = {
  K: { fill: "#f3e2b3", glyph: "♚", band: "#b8860b" },
  Q: { fill: "#f5d6d9", glyph: "♛", band: "#a8324a" },
  J: { fill: "#d9e4f2", glyph: "♞", band: "#2f5d8a" },
};

function corner(g, card, color) {
  const rank = RANK_TEXT[card[0]] || card[0];
  g.append(el("text", { x: 11, y: 22, "font-size": rank.length > 1 ? 17 : 20,
    "font-weight": 700, fill: color, "text-anchor": "middle",
    "font-family": "DejaVu Serif, Georgia, serif", "letter-spacing": -1 }, rank));
  g.append(el("text", { x: 11, y: 39, "font-size": 16, fill: color, "text-anchor": "middle" },
    SUITS[card[1]]));
}

// The face of ``card`` as an <svg> element: a copy of the one drawn the first time (a
// copy is made many times faster than the drawing, and the table shows many cards).
const faces = new Map();
export function cardSVG(card) {
  let face = faces.get(card);
  if (!face) { face = drawFace(card); faces.set(card, face); }
  const copy = face.cloneNode(true);
  copy._ident = "face " + card;  // its markup, named (dom.js patch)
  return copy;
}
function drawFace(card) {
  const svg = el("svg", { viewBox: "0 0 100 140", class: "card-svg", "aria-hidden": "true" });
  const color = isRed(card) ? "#c0262d" : "#1d1d1f";
  svg.append(el("rect", { x: 1, y: 1, width: 98, height: 138, rx: 8, fill: "#fffdf8",
    stroke: "#b9b3a6", "stroke-width": 1.2 }));
  const top = el("g");
  corner(top, card, color);
  const bottom = el("g", { transform: "rotate(180 50 70)" });
  corner(bottom, card, color);
  svg.append(top, bottom);
  const rank = card[0];
  const suit = SUITS[card[1]];
  if (rank === "A") {
    svg.append(el("text", { x: 50, y: 88, "font-size": 58, fill: color,
      "text-anchor": "middle" }, suit));
  } else if (COURT[rank]) {
    const c = COURT[rank];
    svg.append(el("rect", { x: 22, y: 16, width: 56, height: 108, rx: 4, fill: c.fill,
      stroke: c.band, "stroke-width": 1.5 }));
    svg.append(el("rect", { x: 25, y: 19, width: 50, height: 102, rx: 3, fill: "none",
      stroke: c.band, "stroke-width": 0.6 }));
    svg.append(el("text", { x: 50, y: 62, "font-size": 34, fill: color,
      "text-anchor": "middle" }, c.glyph));
    svg.append(el("line", { x1: 25, y1: 70, x2: 75, y2: 70, stroke: c.band,
      "stroke-width": 0.8 }));
    const lower = el("g", { transform: "rotate(180 50 70)" });
    lower.append(el("text", { x: 50, y: 62, "font-size": 34, fill: color,
      "text-anchor": "middle" }, c.glyph));
    svg.append(lower);
    svg.append(el("text", { x: 31, y: 30, "font-size": 11, fill: color,
      "text-anchor": "middle" }, suit));
    svg.append(el("text", { x: 69, y: 118, "font-size": 11, fill: color,
      "text-anchor": "middle" }, suit));
    svg.append(el("text", { x: 50, y: 76, "font-size": 11, "font-weight": 700,
      fill: c.band, "text-anchor": "middle", "font-family": "DejaVu Serif, Georgia, serif" },
      rank));
  } else {
    for (const [x, y, flip] of PIPS[rank] || []) {
      const t = el("text", { x, y: y + 7, "font-size": 21, fill: color,
        "text-anchor": "middle" }, suit);
      if (flip) t.setAttribute("transform", `rotate(180 ${x} ${y})`);
      svg.append(t);
    }
  }
  return svg;
}

// A card back as an <svg> element (a copy of the one drawn the first time).
let backDrawn = null;
export function backSVG() {
  if (!backDrawn) backDrawn = drawBack();
  const copy = backDrawn.cloneNode(true);
  copy._ident = "back";
  return copy;
}
function drawBack() {
  const svg = el("svg", { viewBox: "0 0 100 140", class: "card-svg", "aria-hidden": "true" });
  svg.append(el("rect", { x: 1, y: 1, width: 98, height: 138, rx: 8, fill: "#fbf7ee",
    stroke: "#b9b3a6", "stroke-width": 1.2 }));
  svg.append(el("rect", { x: 7, y: 7, width: 86, height: 126, rx: 5, fill: "#7b1e2b" }));
  // a lattice, clipped by a nested <svg> (its viewport clips its content)
  const inner = el("svg", { x: 7, y: 7, width: 86, height: 126, viewBox: "0 0 86 126" });
  const g = el("g", { stroke: "#c9a25a", "stroke-width": 0.8, opacity: 0.6 });
  for (let i = -126; i < 86 + 126; i += 9) {
    g.append(el("line", { x1: i, y1: 0, x2: i + 126, y2: 126 }));
    g.append(el("line", { x1: i, y1: 0, x2: i - 126, y2: 126 }));
  }
  inner.append(g);
  svg.append(inner);
  svg.append(el("rect", { x: 7, y: 7, width: 86, height: 126, rx: 5, fill: "none",
    stroke: "#e4c98f", "stroke-width": 2 }));
  svg.append(el("rect", { x: 32, y: 52, width: 36, height: 36, rx: 4,
    transform: "rotate(45 50 70)", fill: "#7b1e2b", stroke: "#e4c98f", "stroke-width": 1.5 }));
  svg.append(el("text", { x: 50, y: 78, "font-size": 22, fill: "#e4c98f",
    "text-anchor": "middle", "font-family": "DejaVu Serif, Georgia, serif" }, "P"));
  return svg;
}
