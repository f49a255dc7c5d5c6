// SPDX-License-Identifier: MIT
// web/puzzles.js: the puzzle trainer (#/puzzles, #/puzzles/daily, #/puzzles/ID): a
// puzzle's position on the board, the solver's moves sent to the server, which says
// whether each is right and answers with the opponent's reply; the solution shown when
// solved or failed, the puzzle rating of a signed-in solver. The API: docs/WEB.md
// "Puzzles".
import { Board, parseFen, applyMove } from './board.js';
import { t, serverText } from './i18n.js';

// The themes of the puzzle file's [Theme] tag (docs/PUZZLES.md), said in the language.
const THEMES = {
  shot: 'pz.theme_shot', 'majority-capture': 'pz.theme_majority', 'turkish-strike': 'pz.theme_turkish',
  breakthrough: 'pz.theme_breakthrough', endgame: 'pz.theme_endgame', win: 'pz.theme_win',
};
const themesText = (s) => (s || '').split(/[\s,]+/).filter(Boolean).map((x) => (THEMES[x] ? t(THEMES[x]) : x)).join(', ') || '-';

// root: the element to fill; api(method, path, body): the community's requests.
export function puzzleView(root, which, api) {
  root.innerHTML = '';
  let closed = false;
  let puzzle = null;
  let mine = []; // the solver's moves so far (hub)
  let pos = null;
  const h1 = document.createElement('h1');
  h1.textContent = t(which === 'daily' ? 'pz.daily' : 'pz.title');
  const layout = document.createElement('div');
  layout.className = 'layout';
  const boardCol = document.createElement('div');
  boardCol.className = 'board-col';
  const boardEl = document.createElement('div');
  boardEl.className = 'board-wrap';
  boardEl.id = 'puzzle-board';
  boardCol.append(boardEl);
  const side = document.createElement('div');
  side.className = 'side-col';
  const info = document.createElement('p');
  info.dataset.testid = 'pz-info';
  const status = document.createElement('p');
  status.className = 'status';
  status.setAttribute('aria-live', 'polite');
  status.dataset.testid = 'pz-status';
  const rating = document.createElement('p');
  rating.dataset.testid = 'pz-rating';
  const next = document.createElement('button');
  next.type = 'button';
  next.id = 'pz-next';
  next.textContent = t('pz.next');
  const daily = document.createElement('a');
  daily.href = '#/puzzles/daily';
  daily.className = 'button';
  daily.textContent = t('pz.daily');
  side.append(info, status, rating, next, ' ', daily);
  layout.append(boardCol, side);
  root.append(h1, layout);
  const board = new Board(boardEl, { onMove: (m) => play(m), onMessage: () => {} });
  window.damierPuzzleBoard = board; // for tests and the console

  let statusKey = 'pz.to_move';
  let statusParams = {};
  const say = (key, params = {}) => { statusKey = key; statusParams = params; status.textContent = t(key, params); };

  function show(p) {
    puzzle = p;
    mine = [];
    pos = parseFen(p.fen);
    board.flipped = p.turn === 'black';
    board.pos = pos;
    board.last = null;
    board.legal = p.legal;
    board.interactive = true;
    board.render();
    info.textContent = t('pz.info', { rating: p.rating, moves: p.moves, themes: themesText(p.themes) });
    say('pz.to_move', { side: t(p.turn === 'white' ? 'side.White' : 'side.Black') });
    window.damierPuzzle = p;
  }

  async function play(m) {
    if (!puzzle) return;
    board.interactive = false;
    pos = applyMove(pos, m);
    board.pos = pos;
    board.last = m;
    board.legal = [];
    board.render();
    mine.push(m.hub);
    const r = await api('POST', `/api/puzzles/${puzzle.id}/move`, { moves: mine });
    if (closed) return;
    if (!r.ok) { status.textContent = serverText(r.data.error); return; }
    const d = r.data;
    if (d.rating) rating.textContent = t('pz.rating_change', { before: d.rating.before, after: d.rating.after, change: (d.rating.change >= 0 ? '+' : '') + d.rating.change });
    if (!d.correct) { say('pz.wrong', { solution: d.solution.join(' ') }); return; }
    if (d.solved) { say('pz.solved', { solution: d.solution.join(' ') }); return; }
    say('pz.right');
    pos = applyMove(pos, d.reply);
    board.pos = pos;
    board.last = d.reply;
    board.legal = d.legal;
    board.interactive = true;
    board.render();
  }

  async function load(path) {
    const r = await api('GET', path);
    if (closed) return;
    if (!r.ok) { say('pz.none'); board.interactive = false; return; }
    show(r.data);
  }
  next.addEventListener('click', () => {
    if (which !== '' && which !== 'next') { location.hash = '#/puzzles'; return; }
    load(`/api/puzzles/next${puzzle ? `?after=${puzzle.id}` : ''}`);
  });
  load(which === 'daily' ? '/api/puzzles/daily' : which ? `/api/puzzles/${encodeURIComponent(which)}` : '/api/puzzles/next');
  api('GET', '/api/puzzles').then((r) => {
    if (!closed && r.ok && r.data.rating) rating.textContent = t('pz.your_rating', { rating: r.data.rating.rating });
  });
  return {
    cleanup: () => { closed = true; },
    // a new language: the texts said again (the board keeps its position)
    refresh: () => {
      h1.textContent = t(which === 'daily' ? 'pz.daily' : 'pz.title');
      next.textContent = t('pz.next');
      daily.textContent = t('pz.daily');
      status.textContent = t(statusKey, statusParams);
      if (puzzle) info.textContent = t('pz.info', { rating: puzzle.rating, moves: puzzle.moves, themes: themesText(puzzle.themes) });
    },
  };
}
