// SPDX-License-Identifier: MIT
// web/a11y.js: the board for players who cannot see (issue 13): the board takes the
// keyboard focus (role "application"), the arrow keys move a cursor over the squares,
// each square reached is said through an ARIA live region with its number and piece
// ("square 32, white man"), Enter or Space selects and plays as a click would, "c"
// reads both clocks, "p" the whole position, "?" the keys. Moves played on the board
// (by either side) are said through the same region (announce()).

import { t, onLangChange } from './i18n.js';

const NS = 'http://www.w3.org/2000/svg';

// The name of the piece on square s of pos ('' for an empty square).
function pieceName(p) {
  if (!p) return t('access.empty');
  const names = { w: 'access.white_man', W: 'access.white_king', b: 'access.black_man', B: 'access.black_king' };
  return t(names[p]);
}

// Makes board (a Board of board.js) usable by keyboard and screen reader. opts.clocks:
// a function returning the clocks' text to read on "c" (or null). Returns
// {announce(text)}: says text in the board's live region.
export function makeAccessible(board, opts = {}) {
  const svg = board.svg;
  svg.setAttribute('role', 'application');
  svg.setAttribute('tabindex', '0');
  svg.setAttribute('aria-describedby', 'board-keys');
  let help = document.getElementById('board-keys');
  if (!help) {
    help = document.createElement('p');
    help.id = 'board-keys';
    help.className = 'sr-only';
    board.el.appendChild(help);
  }
  // the keys' names as <kbd> (Latin letters in every language); said again in a new
  // language while this board is on the page
  const say = () => {
    svg.setAttribute('aria-roledescription', t('access.board_role'));
    help.textContent = '';
    t('access.keys').split(/(\{\w+\})/).forEach((part) => {
      const key = { '{c}': 'C', '{p}': 'P' }[part];
      if (!key) { help.appendChild(document.createTextNode(part)); return; }
      const kbd = document.createElement('kbd');
      kbd.textContent = key;
      help.appendChild(kbd);
    });
  };
  say();
  onLangChange(() => { if (svg.isConnected) say(); });
  const live = document.createElement('div');
  live.className = 'sr-only';
  live.setAttribute('role', 'status');
  live.setAttribute('aria-live', 'polite');
  live.dataset.testid = 'board-live';
  board.el.appendChild(live);
  const announce = (text) => { live.textContent = text; };
  board.cursor = null; // [row, col] on the screen, 0-based from the top left

  // the square (1..n) under the screen cell [r, c], or 0 for a light square
  const squareOf = (r, c) => {
    const n = board.size - 1;
    if (board.flipped) { r = n - r; c = n - c; }
    if (board.mirror) c = n - c;
    if ((r + c) % 2 === 0) return 0;
    return r * (board.size / 2) + Math.floor(c / 2) + 1;
  };
  const label = (s) => (board.labels ? board.labels[s - 1] : String(s));
  const describe = () => {
    const [r, c] = board.cursor;
    const s = squareOf(r, c);
    if (!s) return t('access.light');
    let text = `${t('access.square', { n: label(s) })}, ${pieceName(board.pos.squares[s])}`;
    if (board.sel.includes(s)) text += `, ${t('access.selected')}`;
    else if (board.cands.some((m) => m.path[m.path.length - 1] === s)) text += `, ${t('access.destination')}`;
    return text;
  };
  const position = () => {
    const list = (c) => {
      const out = [];
      for (let s = 1; s < board.pos.squares.length; s++) {
        const p = board.pos.squares[s];
        if (p && p.toLowerCase() === c) out.push((p === p.toUpperCase() ? 'K' : '') + label(s));
      }
      return out.join(', ') || t('access.none');
    };
    return t('access.position', { white: list('w'), black: list('b') });
  };

  // the cursor drawn over the board after each drawing
  const render = board.render.bind(board);
  board.render = () => {
    render();
    if (!board.cursor) return;
    const [r, c] = board.cursor;
    const rect = document.createElementNS(NS, 'rect');
    for (const [k, v] of Object.entries({ x: c * 10 + 0.5, y: r * 10 + 0.5, width: 9, height: 9, class: 'kbd-cursor', 'data-testid': 'kbd-cursor' })) rect.setAttribute(k, v);
    svg.appendChild(rect);
  };

  // a click focuses the board too: the cursor appears only for the keyboard's focus
  let pointer = false;
  svg.addEventListener('pointerdown', () => { pointer = true; }, true);
  svg.addEventListener('pointerup', () => { pointer = false; }, true);
  svg.addEventListener('focus', () => {
    if (pointer) return;
    if (!board.cursor) {
      // start on the first piece that can move, else the bottom left corner
      const m = board.legal[0];
      if (m) {
        const n = board.size - 1;
        let [r, c] = [Math.floor((m.path[0] - 1) / (board.size / 2)), 0];
        const i = (m.path[0] - 1) % (board.size / 2);
        c = r % 2 === 0 ? 2 * i + 1 : 2 * i;
        if (board.mirror) c = n - c;
        if (board.flipped) { r = n - r; c = n - c; }
        board.cursor = [r, c];
      } else board.cursor = [board.size - 1, 0];
      board.render();
    }
    announce(describe());
  });
  svg.addEventListener('keydown', (ev) => {
    if (ev.ctrlKey || ev.altKey || ev.metaKey) return;
    const n = board.size - 1;
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (moves[ev.key]) {
      const [dr, dc] = moves[ev.key];
      const [r, c] = board.cursor || [n, 0];
      board.cursor = [Math.min(n, Math.max(0, r + dr)), Math.min(n, Math.max(0, c + dc))];
      board.render();
      announce(describe());
    } else if (ev.key === 'Enter' || ev.key === ' ') {
      if (!board.cursor) return;
      const s = squareOf(...board.cursor);
      if (!s) { announce(t('access.light')); ev.preventDefault(); return; }
      const before = board.legal;
      board.clickSquare(s);
      // a move played is said when the game's state comes back (announce); a
      // selection is said here
      if (board.legal === before && board.sel.length) announce(`${t('access.selected')} ${label(s)}`);
      else if (board.legal === before && !board.sel.length) announce(describe());
    } else if (ev.key === 'c' && opts.clocks) {
      announce(opts.clocks() || t('access.no_clock'));
    } else if (ev.key === 'p') {
      announce(position());
    } else if (ev.key === '?') {
      announce(t('access.keys', { c: 'C', p: 'P' }));
    } else return;
    ev.preventDefault();
  });
  return { announce, position };
}
