// SPDX-License-Identifier: MIT
// web/board.js: the board as SVG (10x10, and 8x8 or 12x12 for the other variants):
// pieces, click-to-move with the legal
// destinations shown (or drag the piece), a multi-capture entered square by square where the paths
// differ, the last move and its captured pieces marked, flip, square numbers, an arrow.
// Squares are numbered 1-50 as in FMJD 2.6: square 1 is the top left dark square
// seen from White; White's men start on 31-50. Every size numbers its dark squares
// the same way (1..size*size/2, row by row from the top seen from White); a variant's
// own names for them (algebraic "c3" in Russian) come with the game (setGeometry).

import { t } from './i18n.js';

const NS = 'http://www.w3.org/2000/svg';
const SIZE = 10;

// Row and column (0-based, row 0 at the top seen from White) of square s on a
// size x size board: its dark squares numbered along the rows, or, on a full board
// (Turkish: every square played), every square from a8 along the rank, then down.
export function squareRC(s, size = SIZE, full = false) {
  if (full) return [Math.floor((s - 1) / size), (s - 1) % size];
  const half = size / 2;
  const r = Math.floor((s - 1) / half);
  const i = (s - 1) % half;
  return [r, r % 2 === 0 ? 2 * i + 1 : 2 * i];
}

// A variant's position as the server sends it: one character per square (w, W, b,
// B or '.'), and the side to move.
export function posFromString(str, side) {
  const squares = [''];
  for (const ch of str) squares.push(ch === '.' ? '' : ch);
  return { squares, side };
}

// Parse a FEN "W:W31-50:B1-20" (K for kings, ranges) into {squares[1..50], side}.
export function parseFen(fen) {
  const squares = new Array(51).fill('');
  const parts = fen.trim().replace(/\.$/, '').split(':');
  const side = parts[0].trim().toUpperCase() === 'B' ? 'black' : 'white';
  for (const part of parts.slice(1)) {
    const p = part.trim();
    if (!p) continue;
    const color = p[0].toUpperCase() === 'W' ? 'w' : 'b';
    for (let item of p.slice(1).split(',')) {
      item = item.trim();
      if (!item) continue;
      let king = false;
      if (item[0] === 'K' || item[0] === 'k') {
        king = true;
        item = item.slice(1);
      }
      const [a, b] = item.split('-').map(Number);
      for (let s = a; s <= (b || a); s++) {
        if (s >= 1 && s <= 50) squares[s] = king ? color.toUpperCase() : color;
      }
    }
  }
  return { squares, side };
}

// pos as FEN; labels: a variant's names of its squares (algebraic "c3" or the
// records' numbers), else the squares' numbers 1-50.
export function toFen(pos, labels = null) {
  const list = (c) => {
    const out = [];
    const n = labels ? labels.length : 50;
    for (let s = 1; s <= n; s++) {
      const p = pos.squares[s];
      if (p && p.toLowerCase() === c) out.push((p === c.toUpperCase() ? 'K' : '') + (labels ? labels[s - 1] : s));
    }
    return out.join(',');
  };
  return `${pos.side === 'white' ? 'W' : 'B'}:W${list('w')}:B${list('b')}`;
}

// The position after move m ({path, captured, promote}); size: the board's (a man
// reaching the far row is crowned, or as m.promote says where the server says it).
export function applyMove(pos, m, size = SIZE) {
  const squares = pos.squares.slice();
  const from = m.path[0];
  const to = m.path[m.path.length - 1];
  let piece = squares[from];
  squares[from] = '';
  for (const c of m.captured) squares[c] = '';
  const half = size / 2, n = (size * size) / 2;
  if (m.promote !== undefined) {
    if (m.promote && piece) piece = piece.toUpperCase();
  } else {
    if (piece === 'w' && to <= half) piece = 'W';
    if (piece === 'b' && to > n - half) piece = 'B';
  }
  squares[to] = piece;
  return { squares, side: pos.side === 'white' ? 'black' : 'white' };
}

export class Board {
  constructor(el, opts = {}) {
    this.el = el;
    this.onMove = opts.onMove || (() => {});
    this.onMessage = opts.onMessage || (() => {});
    this.onSelect = opts.onSelect || (() => {}); // a piece picked up (touch-move games)
    // the lessons: a piece of the side to move may be picked up and put on any empty
    // square even where no legal move goes, onTry(from, to) then judges the attempt
    this.onTry = opts.onTry || null;
    this.pos = parseFen('W:W31-50:B1-20');
    this.legal = [];
    this.last = null;
    this.flipped = false;
    this.numbers = false;
    this.interactive = false;
    this.sel = [];
    this.cands = [];
    this.arrow = null;
    this.arrows = [];
    this.onEdit = null; // the position editor: a click sets a square
    this.onEditMove = null; // the position editor: a piece dragged (from, to; to 0 = off the board)
    this.size = SIZE; // squares per side
    this.labels = null; // the squares' names (null: their numbers)
    this.coords = false; // files and ranks around the board (algebraic notation)
    this.mirror = false; // a turned board (a1 light): files mirrored
    this.full = false; // every square is played (Turkish), not only the dark ones
    this.svg = document.createElementNS(NS, 'svg');
    this.svg.setAttribute('viewBox', `0 0 ${SIZE * 10} ${SIZE * 10}`);
    this.svg.setAttribute('class', 'board');
    this.svg.setAttribute('role', 'img');
    this.svg.setAttribute('aria-label', t('board.aria'));
    this.svg.dataset.i18nAttr = 'aria-label:board.aria'; // said again when the language changes
    el.appendChild(this.svg);
    this.svg.addEventListener('click', (ev) => this.click(ev));
    // dragging a piece: press on it, move, release on the destination
    this.drag = null;
    this.suppressClick = false;
    this.svg.addEventListener('pointerdown', (ev) => this.dragStart(ev));
    this.svg.addEventListener('pointermove', (ev) => this.dragMove(ev));
    this.svg.addEventListener('pointerup', (ev) => this.dragEnd(ev));
    this.svg.addEventListener('pointercancel', () => this.dragCancel());
    this.render();
  }

  svgPoint(ev) {
    const pt = this.svg.createSVGPoint();
    pt.x = ev.clientX;
    pt.y = ev.clientY;
    return pt.matrixTransform(this.svg.getScreenCTM().inverse());
  }

  dragStart(ev) {
    const sq = this.squareAt(ev);
    if (this.onEdit && this.onEditMove) {
      // the editor: any piece may be dragged to another square, or off the board
      if (!sq || !this.pos.squares[sq]) return;
      const p = this.svgPoint(ev);
      this.drag = { from: sq, x: p.x, y: p.y, moved: false, edit: true };
      return;
    }
    if (!this.interactive || !sq || !this.legal.some((m) => m.path[0] === sq)) return;
    const p = this.svgPoint(ev);
    this.drag = { from: sq, x: p.x, y: p.y, moved: false };
  }

  dragMove(ev) {
    const d = this.drag;
    if (!d) return;
    const p = this.svgPoint(ev);
    if (!d.moved && Math.hypot(p.x - d.x, p.y - d.y) < 2) return;
    if (!d.moved) {
      d.moved = true;
      if (!d.edit && (this.sel[0] !== d.from || this.sel.length !== 1)) { this.sel = []; this.clickSquare(d.from); }
      try { this.svg.setPointerCapture(ev.pointerId); } catch (e) { /* not captured */ }
    }
    const g = this.svg.querySelector(`g.piece[data-sq="${d.from}"]`);
    if (g) g.setAttribute('transform', `translate(${p.x - d.x} ${p.y - d.y})`);
  }

  dragEnd(ev) {
    const d = this.drag;
    this.drag = null;
    if (!d || !d.moved) return;
    this.suppressClick = true;
    setTimeout(() => { this.suppressClick = false; }, 0);
    const to = this.squareAt(ev);
    this.render();
    if (d.edit) {
      if (to !== d.from && this.onEditMove) this.onEditMove(d.from, to);
      return;
    }
    if (to && to !== d.from) this.clickSquare(to);
  }

  dragCancel() {
    this.drag = null;
    this.render();
  }

  // The board of a variant: {size, labels, coords, invert} (the state's "board"), or
  // null for the 10x10 board of international draughts.
  setGeometry(b) {
    const size = b ? b.size : SIZE;
    const coords = !!(b && b.coords);
    this.labels = b ? b.labels : null;
    this.mirror = !!(b && b.invert);
    this.full = !!(b && b.full);
    if (size !== this.size || coords !== this.coords) {
      this.size = size;
      this.coords = coords;
      const w = size * 10;
      this.svg.setAttribute('viewBox', coords ? `-5 0 ${w + 5} ${w + 5}` : `0 0 ${w} ${w}`);
      this.svg.dataset.size = size;
    }
  }

  setPosition(pos) { this.pos = pos; this.clearSelection(); }
  setLegal(moves) { this.legal = moves || []; this.clearSelection(); }
  setLastMove(m) { this.last = m; this.render(); }
  setFlipped(f) { this.flipped = f; this.render(); }
  setNumbers(n) { this.numbers = n; this.render(); }
  setInteractive(i) { this.interactive = i; this.clearSelection(); }
  setArrow(path) { this.arrow = path; this.render(); }
  setArrows(paths) { this.arrows = paths; this.render(); } // the other lines' moves (multi-PV)
  clearSelection() { this.sel = []; this.cands = []; this.render(); }

  xy(s) {
    const n = this.size - 1;
    let [r, c] = squareRC(s, this.size, this.full);
    if (this.mirror) c = n - c;
    if (this.flipped) { r = n - r; c = n - c; }
    return [c * 10, r * 10];
  }

  squareAt(ev) {
    const p = this.svgPoint(ev);
    const n = this.size - 1;
    let c = Math.floor(p.x / 10), r = Math.floor(p.y / 10);
    if (this.flipped) { r = n - r; c = n - c; }
    if (this.mirror) c = n - c;
    if (r < 0 || r > n || c < 0 || c > n) return 0;
    if (this.full) return r * this.size + c + 1;
    if ((r + c) % 2 === 0) return 0;
    return r * (this.size / 2) + Math.floor(c / 2) + 1;
  }

  // A click (or a square given by a test or the keyboard) in the move being entered.
  click(ev) {
    if (this.suppressClick) { this.suppressClick = false; return; }
    const sq = ev && ev.target && ev.target.dataset && ev.target.dataset.sq
      ? Number(ev.target.dataset.sq) : this.squareAt(ev);
    this.clickSquare(sq);
  }

  clickSquare(sq) {
    if (this.onEdit && sq) { this.onEdit(sq); return; }
    if (!this.interactive || !sq) return;
    const starting = this.legal.filter((m) => m.path[0] === sq);
    if (this.sel.length === 0 || (this.sel.length === 1 && starting.length > 0)) {
      if (this.sel.length === 1 && this.sel[0] === sq) { this.clearSelection(); return; }
      if (starting.length === 0 && !(this.onTry && this.ownPiece(sq))) { this.clearSelection(); return; }
      this.sel = [sq];
      this.cands = starting;
      this.render();
      this.onSelect(sq);
      return;
    }
    const k = this.sel.length;
    const ends = this.cands.filter((m) => m.path[m.path.length - 1] === sq);
    if (ends.length === 1) { this.play(ends[0]); return; }
    const steps = this.cands.filter((m) => m.path.length > k && m.path[k] === sq);
    if (steps.length === 1 && steps[0].path.length === k + 1) { this.play(steps[0]); return; }
    if (steps.length === 1 && ends.length === 0) { this.play(steps[0]); return; }
    if (steps.length > 0) {
      this.sel.push(sq);
      this.cands = steps;
      this.onMessage(() => t('board.next_landing')); // a function: said again in a new language
      this.render();
      return;
    }
    if (ends.length > 1) {
      this.onMessage(() => t('board.landing_squares'));
      return;
    }
    if (this.onTry && k === 1 && !this.pos.squares[sq]) { // an attempt the rules may refuse
      const from = this.sel[0];
      this.clearSelection();
      this.onTry(from, sq);
      return;
    }
    this.clearSelection();
  }

  // whether square sq holds a piece of the side to move
  ownPiece(sq) {
    const p = this.pos.squares[sq];
    return !!p && p.toLowerCase() === (this.pos.side === 'black' ? 'b' : 'w');
  }

  play(m) {
    this.sel = [];
    this.cands = [];
    this.render();
    this.onMove(m);
  }

  rect(x, y, cls, extra = {}) {
    const r = document.createElementNS(NS, 'rect');
    r.setAttribute('x', x);
    r.setAttribute('y', y);
    r.setAttribute('width', 10);
    r.setAttribute('height', 10);
    r.setAttribute('class', cls);
    for (const [k, v] of Object.entries(extra)) r.setAttribute(k, v);
    return r;
  }

  el_(name, attrs) {
    const e = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    return e;
  }

  render() {
    const svg = this.svg;
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const size = this.size, nsq = this.full ? size * size : (size * size) / 2;
    const lightParity = this.mirror ? 1 : 0; // a turned board's dark squares move one file
    for (let r = 0; r < size; r++) {
      for (let c = 0; c < size; c++) {
        if (!this.full && (r + c) % 2 === lightParity) svg.appendChild(this.rect(c * 10, r * 10, 'sq light'));
      }
    }
    if (this.coords) {
      // files a.. under the board, ranks 1.. beside it, as seen from the side below
      for (let i = 0; i < size; i++) {
        const file = this.el_('text', { x: i * 10 + 5, y: size * 10 + 4, class: 'coord', 'text-anchor': 'middle' });
        file.textContent = String.fromCharCode(97 + (this.flipped ? size - 1 - i : i));
        svg.appendChild(file);
        const rank = this.el_('text', { x: -2.5, y: i * 10 + 6.5, class: 'coord', 'text-anchor': 'middle' });
        rank.textContent = String(this.flipped ? i + 1 : size - i);
        svg.appendChild(rank);
      }
    }
    const lastSquares = new Set(this.last ? this.last.path : []);
    const lastCapt = new Set(this.last ? this.last.captured : []);
    const dest = new Map();
    const k = this.sel.length;
    for (const m of this.cands) {
      const end = m.path[m.path.length - 1];
      dest.set(end, 'end');
      if (m.path.length > k + 1 && !dest.has(m.path[k])) dest.set(m.path[k], 'step');
    }
    for (let s = 1; s <= nsq; s++) {
      const [x, y] = this.xy(s);
      let cls = this.full ? 'sq dark full' : 'sq dark';
      if (lastSquares.has(s)) cls += ' last';
      if (this.sel.includes(s)) cls += ' selected';
      svg.appendChild(this.rect(x, y, cls, { 'data-sq': s, 'data-testid': `sq-${s}` }));
      if (this.numbers) {
        const t = this.el_('text', { x: x + 0.8, y: y + 2.8, class: this.full ? 'num full' : 'num' });
        t.textContent = this.labels ? this.labels[s - 1] : s;
        t.dataset.sq = s;
        svg.appendChild(t);
      }
      const p = this.pos.squares[s];
      if (p) {
        const white = p.toLowerCase() === 'w';
        const g = this.el_('g', { class: `piece ${white ? 'white' : 'black'}${p === p.toUpperCase() ? ' king' : ''}` });
        g.appendChild(this.el_('circle', { cx: x + 5, cy: y + 5.4, r: 4, class: 'shadow', 'data-sq': s }));
        g.appendChild(this.el_('circle', { cx: x + 5, cy: y + 5, r: 4, class: 'body', 'data-sq': s }));
        g.appendChild(this.el_('circle', { cx: x + 5, cy: y + 5, r: 2.6, class: 'ring', 'data-sq': s }));
        if (p === p.toUpperCase()) {
          const crown = this.el_('path', {
            d: `M${x + 2.9} ${y + 6.2} L${x + 2.6} ${y + 3.6} L${x + 3.9} ${y + 4.8} L${x + 5} ${y + 3.2} L${x + 6.1} ${y + 4.8} L${x + 7.4} ${y + 3.6} L${x + 7.1} ${y + 6.2} Z`,
            class: 'crown', 'data-sq': s,
          });
          g.appendChild(crown);
        }
        g.dataset.sq = s;
        svg.appendChild(g);
      }
      if (lastCapt.has(s)) {
        svg.appendChild(this.el_('path', {
          d: `M${x + 3} ${y + 3} L${x + 7} ${y + 7} M${x + 7} ${y + 3} L${x + 3} ${y + 7}`,
          class: 'captured-mark', 'data-sq': s,
        }));
      }
      if (dest.has(s)) {
        svg.appendChild(this.el_('circle', {
          cx: x + 5, cy: y + 5, r: dest.get(s) === 'end' ? 1.8 : 1.3,
          class: dest.get(s) === 'end' ? 'dest' : 'dest step', 'data-sq': s, 'data-testid': `dest-${s}`,
        }));
      }
    }
    // the best move's arrow, and fainter ones for the other lines (multi-PV), drawn
    // under it
    const arrows = [...(this.arrows || [])].reverse().filter((a) => a && a.length >= 2);
    if (this.arrow && this.arrow.length >= 2) arrows.push(this.arrow);
    if (arrows.length) {
      const defs = this.el_('defs', {});
      for (const [id, cls] of [['arrowhead', 'arrowhead'], ['arrowhead-alt', 'arrowhead alt']]) {
        const marker = this.el_('marker', { id, markerWidth: 4, markerHeight: 4, refX: 2, refY: 2, orient: 'auto' });
        marker.appendChild(this.el_('path', { d: 'M0,0 L4,2 L0,4 Z', class: cls }));
        defs.appendChild(marker);
      }
      svg.appendChild(defs);
      arrows.forEach((a, i) => {
        const best = i === arrows.length - 1 && a === this.arrow;
        const pts = a.map((s) => { const [x, y] = this.xy(s); return `${x + 5},${y + 5}`; });
        svg.appendChild(this.el_('polyline', {
          points: pts.join(' '), class: best ? 'arrow' : 'arrow alt',
          'marker-end': best ? 'url(#arrowhead)' : 'url(#arrowhead-alt)', 'data-testid': best ? 'arrow' : 'arrow-alt',
        }));
      });
    }
  }
}
