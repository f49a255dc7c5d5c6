// SPDX-License-Identifier: MIT
// web/app.js: the pages of `damier serve`: new game, a game (play, clocks, draw,
// resign, review, PDN), the analysis board and the PDN upload. The API: docs/WEB.md.
import { Board, parseFen, applyMove, toFen, posFromString } from './board.js';
import { makeAccessible } from './a11y.js';
import { learnView } from './lessons.js';
import { setupSimulForm, simulView, nextBoard } from './simul.js';
import { setupTourneyForm, tourneyView } from './tourney.js';
import { libraryView, explorerPanel } from './library.js';
import { blindfoldChosen, setBlindfold, speechOn, setSpeech, spokenMove, speak } from './blindfold.js';
import { t, initLang, setLang, currentLang, onLangChange, serverText, reasonText } from './i18n.js';

const $ = (sel) => document.querySelector(sel);

async function api(method, path, body, raw) {
  const opts = { method, headers: { ...community.authHeaders() } };
  if (body !== undefined) {
    opts.body = raw ? body : JSON.stringify(body);
    opts.headers['Content-Type'] = raw ? 'text/plain' : 'application/json';
  }
  const res = await fetch(path, opts);
  let data = null;
  try { data = await res.json(); } catch (e) { data = { error: `HTTP ${res.status}` }; }
  return { status: res.status, ok: res.ok, data };
}

function wsUrl(path) {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${path}`;
}

function fmtClock(ms) {
  if (ms === null || ms === undefined) return '';
  if (ms > 1e12) return '';
  ms = Math.max(0, ms);
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  // correspondence: days, then hours and minutes
  if (h >= 24) return t('clock.days', { d: Math.floor(h / 24), hm: `${h % 24}:${String(m).padStart(2, '0')}` });
  if (h > 0) return `${h}:${String(m).padStart(2, '0')}:${String(sec).padStart(2, '0')}`;
  if (ms < 10000) return `${m}:${String(sec).padStart(2, '0')}.${Math.floor((ms % 1000) / 100)}`;
  return `${m}:${String(sec).padStart(2, '0')}`;
}

// the connection's state ('', 'connected', 'reconnecting'), shown in the page's language
let connState = '';
function setConn(state) {
  connState = state;
  const el = $('#conn');
  el.textContent = state ? t(state === 'connected' ? 'conn.connected' : 'conn.reconnecting') : '';
  el.dataset.state = state;
  el.classList.toggle('down', state === 'reconnecting');
}

// A player's name as the server gives it: the default names in the page's language.
function playerName(name) {
  if (name === 'White' || name === 'Black') return sideWord(name.toLowerCase());
  const m = /^damier level (\d+)$/.exec(name || '');
  return m ? t('name.engine', { level: m[1] }) : name;
}
const sideWord = (side) => t(side === 'white' ? 'side.White' : 'side.Black');
// "name (side)", or the side alone for the default name ("White" playing White)
function playerLine(name, side) {
  if (name && name.toLowerCase() === side) return sideWord(side);
  return t('game.player', { name: playerName(name), side: sideWord(side) });
}

// A message element whose text is said again in the new language when it changes:
// set(text or a function giving the text).
function messenger(sel) {
  let fn = () => '';
  const set = (f) => { fn = typeof f === 'function' ? f : () => f || ''; $(sel).textContent = fn(); };
  set.refresh = () => { $(sel).textContent = fn(); };
  return set;
}
let refreshView = null; // the active view's re-rendering in a new language

// A WebSocket that reconnects by itself (0.3 s, doubling to 3 s).
class Socket {
  constructor(path, onMessage, onOpen) {
    this.path = path;
    this.onMessage = onMessage;
    this.onOpen = onOpen || (() => {});
    this.delay = 300;
    this.closed = false;
    this.pending = new Map();
    this.nextId = 1;
    this.open();
  }
  open() {
    if (this.closed) return;
    this.ws = new WebSocket(wsUrl(this.path));
    this.ws.onopen = () => { this.delay = 300; setConn('connected'); this.onOpen(); };
    this.ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      if (msg.id !== undefined && this.pending.has(msg.id)) {
        this.pending.get(msg.id)(msg);
        this.pending.delete(msg.id);
      }
      this.onMessage(msg);
    };
    this.ws.onclose = () => {
      if (this.closed) return;
      setConn('reconnecting');
      for (const cb of this.pending.values()) cb({ t: 'error', error: 'connection lost' });
      this.pending.clear();
      setTimeout(() => this.open(), this.delay);
      this.delay = Math.min(this.delay * 2, 3000);
    };
  }
  ready() { return this.ws && this.ws.readyState === WebSocket.OPEN; }
  send(msg) {
    if (!this.ready()) return Promise.resolve({ t: 'error', error: 'not connected' });
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.ws.send(JSON.stringify({ ...msg, id }));
    });
  }
  close() { this.closed = true; if (this.ws) this.ws.close(); }
}

// The variants' names, by the server's names (the new-game form's options too).
const VARIANTS = {
  international: 'variant.international', brazilian: 'variant.brazilian', russian: 'variant.russian',
  english: 'variant.english', canadian: 'variant.canadian', antidraughts: 'variant.antidraughts',
  czech: 'variant.czech', italian: 'variant.italian', killer: 'variant.killer',
  breakthrough: 'variant.breakthrough', spanish: 'variant.spanish', pool: 'variant.pool',
  thai: 'variant.thai', frisian: 'variant.frisian', frysk: 'variant.frysk', portuguese: 'variant.portuguese', turkish: 'variant.turkish',
};
const variantName = (v) => (VARIANTS[v] ? t(VARIANTS[v]) : String(v || ''));

// ---- my games (links kept in this browser) -----------------------------------------

// An entry's title: {kind: 'engine', level, you} | {kind: 'human', you} | {kind: 'review',
// white, black}; entries of older pages have a text title.
function gameTitle(g) {
  if (g.variant && g.variant !== 'international') return `${variantName(g.variant)}: ${gameTitle({ ...g, variant: null })}`;
  if (g.kind === 'engine') return t('home.title_engine', { level: g.level, side: sideWord(g.you) });
  if (g.kind === 'human') return t('home.title_friend', { side: sideWord(g.you) });
  if (g.kind === 'review') return t('home.title_review', { white: g.white, black: g.black });
  return g.title || '';
}

function myGames() {
  try { return JSON.parse(localStorage.getItem('damier.games') || '[]'); } catch (e) { return []; }
}
function rememberGame(entry) {
  const list = myGames().filter((g) => g.id !== entry.id);
  list.unshift(entry);
  localStorage.setItem('damier.games', JSON.stringify(list.slice(0, 30)));
}

// ---- views ---------------------------------------------------------------------------

let current = null; // the active view's cleanup

function show(name) {
  for (const v of document.querySelectorAll('.view')) v.hidden = v.id !== `view-${name}`;
}

function route() {
  if (current) { current(); current = null; }
  refreshView = null;
  const h = location.hash.replace(/^#/, '') || '/';
  const parts = h.split('?')[0].split('/').filter(Boolean);
  const query = new URLSearchParams(h.split('?')[1] || '');
  let cv;
  if (parts[0] === 'game' && parts[1] && parts[2]) {
    show('game');
    current = gameView(parts[1], parts[2], query);
  } else if (parts[0] === 'analysis') {
    show('analysis');
    current = analysisView(query.get('fen'), query.get('variant'));
  } else if ((cv = simulView(parts, show))) {
    current = cv.cleanup;
    refreshView = cv.refresh;
  } else if ((cv = tourneyView(parts, show))) {
    current = cv.cleanup;
    refreshView = cv.refresh;
  } else if ((cv = libraryView(parts, query, show))) {
    current = cv.cleanup;
    refreshView = cv.refresh;
  } else if ((cv = learnView(parts, show))) {
    current = cv.cleanup;
    refreshView = cv.refresh;
  } else if ((cv = community.communityView(parts, query, show))) {
    current = cv.cleanup;
    refreshView = cv.refresh;
  } else if (parts[0] === 'upload') {
    show('upload');
    current = null;
    refreshView = refreshUpload;
  } else {
    show('home');
    homeView();
    refreshView = homeView;
  }
}

function homeView() {
  setConn('');
  const list = myGames();
  const el = $('#my-games');
  el.innerHTML = '';
  if (list.length) { const h = document.createElement('h2'); h.textContent = t('home.my_games'); el.appendChild(h); }
  const ul = document.createElement('ul');
  for (const g of list) {
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = `#/game/${g.id}/${g.key}`;
    a.textContent = `${gameTitle(g)} (${new Date(g.created).toLocaleString(currentLang())})`;
    li.appendChild(a);
    ul.appendChild(li);
  }
  el.appendChild(ul);
  yourTurn(list);
}

// The games kept in this browser where it is the player's move (GET
// /api/games/your-turn), the most urgent first, with the time left and the deadline.
let yourTurnSeq = 0;
async function yourTurn(list) {
  const el = $('#your-turn');
  const seq = ++yourTurnSeq;
  const keys = list.filter((g) => g.kind !== 'review' && g.key).map((g) => g.key);
  if (!keys.length) { el.innerHTML = ''; return; }
  const r = await api('GET', `/api/games/your-turn?keys=${encodeURIComponent(keys.join(','))}`);
  if (seq !== yourTurnSeq) return; // a newer view asked again
  el.innerHTML = '';
  if (!r.ok || !r.data.games.length) return;
  const h = document.createElement('h2');
  h.textContent = t('home.your_turn');
  el.appendChild(h);
  const ul = document.createElement('ul');
  const games = r.data.games.slice().sort((a, b) => (a.deadline ?? Infinity) - (b.deadline ?? Infinity));
  for (const g of games) {
    const mine = list.find((x) => x.id === g.id) || {};
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = `#/game/${g.id}/${g.key}`;
    a.textContent = gameTitle({ ...mine, variant: g.variant });
    li.appendChild(a);
    if (g.deadline !== null && g.remaining_ms !== null) {
      const span = document.createElement('span');
      span.className = 'deadline';
      span.textContent = ' ' + t('home.deadline', { left: fmtClock(g.remaining_ms), when: new Date(Date.now() + g.remaining_ms).toLocaleString(currentLang()) });
      li.appendChild(span);
    }
    ul.appendChild(li);
  }
  el.appendChild(ul);
}

const createError = messenger('#create-error');

function setupHome() {
  setupSimulForm();
  setupTourneyForm();
  const form = $('#new-game');
  const sync = () => {
    const engine = form.opponent.value === 'engine';
    for (const e of form.querySelectorAll('.engine-only')) e.hidden = !engine;
    form.querySelector('.custom-time').hidden = form.time.value !== 'custom';
    form.querySelector('.corr-only').hidden = !form.time.value.startsWith('corr:');
  };
  form.addEventListener('change', sync);
  sync();
  // the FEN field shows the chosen variant's initial position (its own squares' names)
  const placeholder = async () => {
    const v = form.variant.value;
    const r = await api('GET', `/api/position?variant=${encodeURIComponent(v)}&fen=`);
    if (r.ok && form.variant.value === v) form.fen.placeholder = r.data.fen;
  };
  form.variant.addEventListener('change', placeholder);
  placeholder();
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const time = form.time.value === 'custom' ? form.custom_time.value.trim() : form.time.value;
    const body = { opponent: form.opponent.value, side: form.side.value, level: Number(form.level.value), time };
    if (time.startsWith('corr:')) { // correspondence: days per move, a total budget optional
      delete body.time;
      body.correspondence = { days_per_move: Number(time.slice(5)) };
      if (Number(form.corr_budget.value) > 0) body.correspondence.budget_days = Number(form.corr_budget.value);
    }
    if (form.variant.value !== 'international') body.variant = form.variant.value;
    if (form.fen.value.trim()) body.fen = form.fen.value.trim();
    if (form.touch_move.checked) body.touch_move = true;
    if (Number(form.handicap.value) > 0) {
      body.handicap = Number(form.handicap.value);
      if (form.handicap_side.value) body.handicap_side = form.handicap_side.value;
    }
    const r = await api('POST', '/api/games', body);
    if (!r.ok) { createError(() => serverText(r.data.error)); return; }
    createError('');
    if (form.blindfold.checked) setBlindfold(r.data.id, true);
    rememberGame({ id: r.data.id, key: r.data.key, kind: body.opponent, level: body.level, you: r.data.you, created: Date.now(), links: r.data.links, variant: body.variant });
    location.hash = `#/game/${r.data.id}/${r.data.key}`;
  });
}

// ---- a game ----------------------------------------------------------------------------

function gameView(id, key, query) {
  let state = null;
  // blindfold (blindfold.js): the board hidden, the moves written and spoken
  if (query && query.get('blindfold') === '1') setBlindfold(id, true);
  let blind = blindfoldChosen(id);
  // a board of a simultaneous display (simul.js): after the host's move, the next board
  const simul = query && query.get('simul') ? query : null;
  $('#simul-bar').hidden = !simul;
  if (simul) {
    $('#simul-bar-text').textContent = t('simul.on_board', { n: simul.get('board') });
    $('#simul-all').href = `#/simul/${simul.get('simul')}/${simul.get('skey')}`;
  }
  let advancing = false;
  let viewPly = null; // null: the current position
  let flipped = null;
  let received = performance.now();
  let notes = null; // the engine's annotation {marks, evals, best, loss}
  let sealing = false; // the next move is sealed (adjournment), not played
  $('#eval-graph').toggleAttribute('hidden', true); // an SVG element has no .hidden
  $('#btn-annotated-pdn').hidden = true;
  const board = new Board(resetEl('#game-board'), {
    onMove: (m) => sendMove(m.hub),
    onMessage: (f) => msg(f),
    // touch-move: a piece picked up is announced; the server keeps the rule
    onSelect: (sq) => { if (state && state.touch_move && !state.touched) action('touch', { square: sq }); },
  });
  window.damierBoard = board; // for tests and the console
  // keyboard and screen reader (a11y.js): "c" reads the clocks as shown
  const access = makeAccessible(board, {
    clocks: () => (state && state.clock
      ? ['white', 'black'].map((sd) => `${t(sd === 'white' ? 'side.White' : 'side.Black')} ${$(`#view-game .clock[data-side=${sd}]`)?.textContent || ''}`).join(', ')
      : ''),
  });
  let saidPly = null; // the last move said in the live region
  const msg = messenger('#game-message');
  const statusMsg = messenger('#game-status');

  async function sendMove(text) {
    msg('');
    if (sealing) { // adjournment: the move is sealed, not played
      sealing = false;
      if (await action('seal', { move: text })) msg(() => t('game.sealed'));
      return;
    }
    const payload = { t: 'move', move: text, ply: state ? state.ply : undefined };
    let r;
    if (sock.ready()) {
      r = await sock.send(payload);
      if (r.t === 'error') msg(() => serverText(r.error));
    } else {
      const h = await api('POST', `/api/games/${id}/move`, { key, move: text, ply: payload.ply });
      if (!h.ok) msg(() => serverText(h.data.error)); else render(h.data);
    }
  }

  async function action(path, body) {
    msg('');
    const r = await api('POST', `/api/games/${id}/${path}`, { key, ...body });
    if (!r.ok) msg(() => serverText(r.data.error)); else render(r.data);
    return r.ok;
  }

  // the positions of the game (a variant's from the server's squares, its moves
  // crowning as the server says)
  function positions() {
    const b = state.board;
    const side = state.start_fen.startsWith('B') ? 'black' : 'white';
    const list = [b ? posFromString(state.start_position, side) : parseFen(state.start_fen)];
    for (const m of state.moves) list.push(applyMove(list[list.length - 1], m, b ? b.size : 10));
    return list;
  }

  function render(s) {
    if (s) {
      if (state && s.version < state.version && s.ply <= state.ply) return; // an older state
      state = s;
      received = performance.now();
      window.damierState = s;
    }
    if (!state) return;
    if (saidPly !== null && state.ply > saidPly && state.moves.length) {
      const m = state.moves[state.ply - 1];
      const side = (state.ply % 2 === 1) === !state.start_fen.startsWith('B') ? 'side.White' : 'side.Black';
      access.announce(t('access.played', { side: t(side), move: m.text }));
      if (blind) {
        $('#blind-last').textContent = t('access.played', { side: t(side), move: m.text });
        if (speechOn()) speak(t('access.played', { side: t(side), move: spokenMove(m.text) }));
        if (state.turn === state.you && state.result === '*') $('#move-input').focus();
      }
    }
    // your move while the page is in the background (correspondence: days later): the
    // window's title says so, and a system notification when the player allowed them
    if (saidPly !== null && state.ply > saidPly && state.turn === state.you && state.result === '*' && document.hidden) {
      const m = state.moves[state.ply - 1];
      document.title = t('game.title_your_move', { move: m ? m.text : '' });
      if (typeof Notification !== 'undefined' && Notification.permission === 'granted') {
        try { new Notification(t('game.notify_title'), { body: t('access.played', { side: sideWord(state.turn === 'white' ? 'black' : 'white'), move: m ? m.text : '' }), tag: `damier-${id}` }); } catch (e) { /* not allowed here */ }
      }
    }
    if (saidPly === null) blindIntro();
    // the host has moved on this board (or ended its game): on to the next board
    if (simul && !advancing && saidPly !== null && state.ply > saidPly && state.moves.length &&
        ((state.ply % 2 === 1) === !state.start_fen.startsWith('B')) === (state.you === 'white')) {
      advancing = true;
      setTimeout(() => nextBoard(simul), 700);
    }
    saidPly = state.ply;
    showBlind();
    if (flipped === null) flipped = state.you === 'black';
    board.flipped = flipped;
    board.setGeometry(state.board || null);
    const variant = state.variant && state.variant !== 'international';
    const vEl = $('#game-variant');
    vEl.textContent = variant ? variantName(state.variant) : '';
    vEl.hidden = !variant;
    $('#move-input').placeholder = variant ? (state.legal[0] ? state.legal[0].text : '') : '32-28, 19x28, 28x19x10';
    const ply = viewPly === null ? state.ply : viewPly;
    const pos = positions()[ply];
    board.pos = pos;
    board.last = ply > 0 ? state.moves[ply - 1] : null;
    const live = viewPly === null && state.result === '*' && state.turn === state.you;
    // touch-move: the touched piece is the one to play
    board.legal = !live ? [] : state.touched ? state.legal.filter((m) => m.path[0] === state.touched) : state.legal;
    board.interactive = live;
    if (!live) { board.sel = []; board.cands = []; }
    board.render();
    // players and clocks
    const top = flipped ? 'white' : 'black', bottom = flipped ? 'black' : 'white';
    $('#view-game .player.top .name').textContent = playerLine(state.names[top], top);
    $('#view-game .player.bottom .name').textContent = playerLine(state.names[bottom], bottom);
    tick();
    // status
    let status;
    if (state.result !== '*') {
      const who = t(state.result === '2-0' ? 'result.white_wins' : state.result === '0-2' ? 'result.black_wins' : 'result.draw');
      // a variant's rule with its numbers ("30 moves without capture") in English
      const reason = currentLang() === 'en' && state.reason_text ? state.reason_text : reasonText(state.reason);
      status = t('result.line', { who, result: state.result, reason });
      if (state.arbiter_note) status += ' ' + t('game.arbiter_note', { note: state.arbiter_note });
    } else {
      status = t('status.to_move', { side: sideWord(state.turn) });
      if (state.you === state.turn) status += t('status.you');
      if (state.engine && state.engine.thinking) status += t('status.thinking');
      if (state.sealed) status += t('status.sealed', { side: sideWord(state.sealed) });
      else if (state.clock && state.clock.paused) status += t('status.paused');
    }
    if (state.result === '*' && state.touched) {
      const name = state.board ? state.board.labels[state.touched - 1] : String(state.touched);
      status += t('status.touched', { square: name });
    }
    if (viewPly !== null) status += t('status.reviewing', { n: Math.ceil(viewPly / 2) });
    statusMsg(status);
    community.gamePlayers(id, key, state); // accounts and ratings (community.js)
    const playing = state.result === '*' && (state.you === 'white' || state.you === 'black') && state.mode !== 'review';
    const offerFromOther = state.draw_offer && state.draw_offer !== state.you;
    $('#btn-draw').hidden = !playing || offerFromOther;
    $('#btn-draw').disabled = state.draw_offer === state.you;
    $('#btn-draw').textContent = t(state.draw_offer === state.you ? 'game.draw_offered' : 'game.offer_draw');
    $('#btn-accept').hidden = !playing || !offerFromOther;
    $('#btn-decline').hidden = !playing || !offerFromOther;
    $('#btn-resign').hidden = !playing;
    const tbOther = state.takeback_offer && state.takeback_offer !== state.you;
    $('#btn-takeback').hidden = !playing || tbOther || state.ply === 0;
    $('#btn-takeback').disabled = state.takeback_offer === state.you;
    $('#btn-takeback').textContent = t(state.takeback_offer === state.you ? 'game.takeback_asked' : 'game.takeback');
    $('#btn-tb-accept').hidden = !playing || !tbOther;
    $('#btn-tb-decline').hidden = !playing || !tbOther;
    if (tbOther && playing) msg(() => t('game.takeback_request', { side: sideWord(state.takeback_offer) }));
    $('#move-form').hidden = !playing;
    // conditional moves (correspondence): while the opponent is to move, "if he plays X,
    // I play Y" pairs, kept and played by the server
    const condOk = playing && state.clock && state.clock.correspondence && state.turn !== state.you;
    $('#cond-form').hidden = !condOk;
    $('#btn-notify').hidden = !(playing && state.clock && state.clock.correspondence &&
      typeof Notification !== 'undefined' && Notification.permission === 'default');
    $('#cond-current').textContent = state.conditional && state.conditional.length
      ? t('game.conditional_now', { moves: state.conditional.join(' ') }) : '';
    $('#btn-adjust').hidden = !(playing && state.touch_move && state.turn === state.you && !state.touched);
    // adjournment: the player to move may seal a move where the game has an arbiter
    $('#btn-seal').hidden = !(playing && state.arbiter && state.clock && !state.clock.paused && state.turn === state.you);
    $('#btn-seal').textContent = t(sealing ? 'game.sealing' : 'game.seal');
    if (offerFromOther && playing) msg(() => t('game.draw_request', { side: sideWord(state.draw_offer) }));
    $('#btn-pdn').href = `/api/games/${id}/pdn?key=${key}`;
    // the arbiter's panel (the arbiter's link): the clocks, time added, a decision
    const arbiter = state.you === 'arbiter' && state.result === '*' && state.mode !== 'review';
    $('#arbiter-panel').hidden = !arbiter;
    if (arbiter) {
      const paused = !!(state.clock && state.clock.paused);
      $('#arb-pause').hidden = !state.clock || paused;
      $('#arb-resume').hidden = !state.clock || !paused;
      $('#arb-time').hidden = !state.clock;
    }
    // move list
    const ol = $('#move-list');
    ol.innerHTML = '';
    // numbered moves begin with the side that moves first (Black in English checkers)
    const first = state.board ? state.board.first : 'white';
    const startBlack = (state.start_fen.startsWith('B') ? 'black' : 'white') !== first;
    let li = null;
    state.moves.forEach((m, i) => {
      const black = (i % 2 === 1) !== startBlack; // the second mover's move
      if (!black || !li) {
        li = document.createElement('li');
        ol.appendChild(li);
        if (black) { const dots = document.createElement('span'); dots.textContent = '…'; li.appendChild(dots); }
      }
      const sp = document.createElement('span');
      sp.textContent = m.text + (notes && notes.marks[i] ? notes.marks[i] : '');
      if (notes && notes.marks[i]) sp.classList.add(notes.marks[i].startsWith('?') ? 'bad' : 'good');
      if (notes && notes.marks[i].startsWith('?') && notes.best[i]) sp.title = t('game.best', { move: notes.best[i] });
      sp.dataset.ply = i + 1;
      if (i + 1 === ply) sp.classList.add('current');
      sp.addEventListener('click', () => { viewPly = i + 1 === state.ply ? null : i + 1; render(); });
      li.appendChild(sp);
    });
    drawGraph(ply);
    const cur = ol.querySelector('.current');
    if (cur && viewPly === null) cur.scrollIntoView({ block: 'nearest' });
    // links (the creator's)
    const mine = myGames().find((g) => g.id === id);
    const links = $('#links');
    links.innerHTML = '';
    if (mine && mine.links && state.mode !== 'review') {
      for (const [side, url] of Object.entries(mine.links)) {
        // the players' links where both are people; the arbiter's in every game
        if (side === state.you || (state.mode !== 'human' && side !== 'arbiter')) continue;
        const l = document.createElement('label');
        l.textContent = side === 'spectator' ? t('game.link_spectator')
          : side === 'arbiter' ? t('game.link_arbiter') : t('game.link_for', { side: sideWord(side) });
        const inp = document.createElement('input');
        inp.readOnly = true;
        inp.value = `${location.origin}/${url.replace(/^\//, '')}`;
        inp.dataset.testid = `link-${side}`;
        l.appendChild(inp);
        links.appendChild(l);
      }
    }
  }

  // the blindfold view: the board and what shows it (analysis, annotation) hidden
  // while the game goes on; the last move written in the panel's live region
  function showBlind() {
    const over = state && state.result !== '*';
    $('#game-board').hidden = blind;
    // blindfold: the board is not in the page at all (not only hidden), so that nothing
    // (a screen reader, the page's source) shows the position
    if (blind && board.svg.isConnected) board.svg.remove();
    else if (!blind && !board.svg.isConnected) board.el.prepend(board.svg);
    $('#blind-panel').hidden = !blind;
    $('#btn-blindfold').setAttribute('aria-pressed', String(blind));
    $('#btn-speak').hidden = !blind;
    $('#btn-speak').setAttribute('aria-pressed', String(speechOn()));
    $('#btn-analyse').hidden = blind && !over;
    $('#btn-annotate').hidden = blind && !over;
  }
  function blindIntro() {
    if (!blind || !state) return;
    const m = state.moves[state.ply - 1];
    const side = (state.ply % 2 === 1) === !state.start_fen.startsWith('B') ? 'side.White' : 'side.Black';
    $('#blind-last').textContent = m ? t('access.played', { side: t(side), move: m.text })
      : state.you === 'white' || state.you === 'black' ? t('blind.start', { side: sideWord(state.you) }) : '';
  }

  function drawGraph(ply) {
    const svg = $('#eval-graph');
    if (!notes || !notes.evals.length) { svg.toggleAttribute('hidden', true); return; }
    svg.toggleAttribute('hidden', false);
    const n = notes.evals.length;
    const x = (i) => (n > 1 ? (i / (n - 1)) * 200 : 100);
    const y = (v) => 30 - (Math.max(-300, Math.min(300, v)) / 300) * 28;
    const pts = notes.evals.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
    let html = `<rect x="0" y="0" width="200" height="30" class="g-white"/><rect x="0" y="30" width="200" height="30" class="g-black"/>`;
    html += `<polyline points="${pts}" class="g-line"/>`;
    if (ply > 0 && ply <= n) html += `<line x1="${x(ply - 1)}" x2="${x(ply - 1)}" y1="0" y2="60" class="g-cur"/>`;
    svg.innerHTML = html;
  }
  $('#eval-graph').onclick = (ev) => {
    if (!notes || !state) return;
    const r = ev.currentTarget.getBoundingClientRect();
    const n = notes.evals.length;
    const i = Math.round(((ev.clientX - r.left) / r.width) * (n - 1));
    viewPly = i + 1 >= state.ply ? null : i + 1;
    render();
  };

  function tick() {
    if (!state) return;
    const top = flipped ? 'white' : 'black', bottom = flipped ? 'black' : 'white';
    const c = state.clock;
    for (const [pos, side] of [['top', top], ['bottom', bottom]]) {
      const el = $(`#view-game .player.${pos} .clock`);
      if (!c) { el.textContent = ''; el.className = 'clock'; continue; }
      let ms = c[side];
      const running = c.running === side && state.result === '*';
      if (running) ms -= performance.now() - received;
      const togo = c[`${side}_moves_to_go`];
      el.textContent = fmtClock(ms) + (togo ? ` (${togo})` : '');
      el.title = togo ? t('game.moves_to_go', { n: togo }) : '';
      // correspondence: the deadline of the side to move, in local time
      if (c.correspondence && running) el.title = t('game.deadline', { when: new Date(Date.now() + ms).toLocaleString(currentLang()) });
      el.className = `clock${running ? ' running' : ''}${ms < 10000 ? ' low' : ''}`;
      el.dataset.side = side;
    }
  }

  const timer = setInterval(tick, 100);
  const sock = new Socket(`/ws/game?id=${encodeURIComponent(id)}&key=${encodeURIComponent(key)}`, (m) => {
    if (m.t === 'state') render(m);
  }, () => { msg(''); });
  // the first state by HTTP, so that a wrong link says why
  api('GET', `/api/games/${id}?key=${encodeURIComponent(key)}`).then((r) => {
    if (!r.ok) { statusMsg(() => serverText(r.data.error)); sock.close(); return; }
    render(r.data);
  });

  const handlers = [
    ['#btn-flip', () => { flipped = !flipped; render(); }],
    ['#btn-numbers', () => { board.numbers = !board.numbers; render(); }],
    ['#btn-blindfold', () => { blind = !blind; setBlindfold(id, blind); blindIntro(); render(); if (blind && !$('#move-form').hidden) $('#move-input').focus(); }],
    ['#btn-speak', () => { setSpeech(!speechOn()); showBlind(); }],
    ['#btn-notify', () => { Notification.requestPermission().then(() => render()); }],
    ['#btn-draw', () => action('draw', { action: 'offer' })],
    ['#btn-accept', () => action('draw', { action: 'accept' })],
    ['#btn-decline', () => action('draw', { action: 'decline' })],
    ['#btn-takeback', () => action('takeback', { action: 'offer' })],
    ['#btn-tb-accept', () => action('takeback', { action: 'accept' })],
    ['#btn-tb-decline', () => action('takeback', { action: 'decline' })],
    ['#btn-resign', () => { if (confirm(t('game.resign_confirm'))) action('resign', {}); }],
    ['#arb-pause', () => action('arbiter', { action: 'pause' })],
    ['#btn-seal', () => { sealing = !sealing; msg(sealing ? () => t('game.seal_hint') : ''); render(); }],
    ['#arb-resume', () => action('arbiter', { action: 'resume' })],
    ['#btn-adjust', () => { board.clearSelection(); action('adjust', {}).then((ok) => ok && msg(() => t('game.adjusting'))); }],
    ['#btn-analyse', () => {
      const ply = viewPly === null ? state.ply : viewPly;
      if (state.board) { // a variant's position, in its FEN (the squares' names)
        location.hash = `#/analysis?variant=${state.variant}&fen=${encodeURIComponent(toFen(positions()[ply], state.board.labels))}`;
        return;
      }
      location.hash = `#/analysis?fen=${encodeURIComponent(toFen(positions()[ply]))}`;
    }],
    ['#btn-annotate', async () => {
      msg(() => t('game.annotating'));
      const r = await api('POST', `/api/games/${id}/annotate`, { key });
      if (!r.ok) { msg(() => serverText(r.data.error)); return; }
      msg('');
      notes = r.data;
      const link = $('#btn-annotated-pdn');
      if (link.href.startsWith('blob:')) URL.revokeObjectURL(link.href);
      link.href = URL.createObjectURL(new Blob([r.data.pdn], { type: 'application/x-pdn' }));
      link.hidden = false;
      render();
    }],
    ['#rv-first', () => { viewPly = state && state.ply > 0 ? 0 : null; render(); }],
    ['#rv-prev', () => { const p = viewPly === null ? state.ply : viewPly; viewPly = Math.max(0, p - 1); if (viewPly === state.ply) viewPly = null; render(); }],
    ['#rv-next', () => { if (viewPly !== null) { viewPly++; if (viewPly >= state.ply) viewPly = null; } render(); }],
    ['#rv-last', () => { viewPly = null; render(); }],
  ];
  const bound = handlers.map(([sel, fn]) => { const el = $(sel); const f = () => state && fn(); el.addEventListener('click', f); return [el, f]; });
  const onSubmit = (ev) => {
    ev.preventDefault();
    const t = $('#move-input').value.trim();
    if (t) { sendMove(t); $('#move-input').value = ''; }
  };
  $('#move-form').addEventListener('submit', onSubmit);
  const onCond = (ev) => {
    ev.preventDefault();
    const moves = $('#cond-input').value.trim().split(/[\s,]+/).filter(Boolean);
    action('conditional', { moves }).then((ok) => { if (ok) $('#cond-input').value = ''; });
  };
  $('#cond-form').addEventListener('submit', onCond);
  // the arbiter's forms: time added to a side, a result by decision (confirmed)
  const onArbTime = async (ev) => {
    ev.preventDefault();
    const side = $('#arb-time-side').value, seconds = Number($('#arb-time-seconds').value);
    if (await action('arbiter', { action: 'add_time', side, seconds })) msg(() => t('arb.time_added', { seconds, side: sideWord(side) }));
  };
  const onArbDeclare = (ev) => {
    ev.preventDefault();
    const result = $('#arb-result').value;
    if (confirm(t('arb.declare_confirm', { result }))) action('arbiter', { action: 'declare', result, note: $('#arb-note').value.trim() });
  };
  $('#arb-time').addEventListener('submit', onArbTime);
  $('#arb-declare').addEventListener('submit', onArbDeclare);
  const onKey = (ev) => {
    if (ev.target && ev.target.tagName === 'INPUT') return;
    if (ev.target && ev.target.closest && ev.target.closest('#game-board')) return; // the board's own keys (a11y.js)
    if (ev.key === 'ArrowLeft') $('#rv-prev').click();
    else if (ev.key === 'ArrowRight') $('#rv-next').click();
    else if (ev.key === 'Home') $('#rv-first').click();
    else if (ev.key === 'End') $('#rv-last').click();
    else if (ev.key === 'f') $('#btn-flip').click();
    else if (ev.key === 'b') $('#btn-blindfold').click();
    else if (ev.key === 'j' && !$('#btn-adjust').hidden) $('#btn-adjust').click(); // "j'adoube"
  };
  document.addEventListener('keydown', onKey);
  // the title said "your move" while the page was in the background: back to normal
  const onVisible = () => { if (!document.hidden) document.title = t('app.title'); };
  document.addEventListener('visibilitychange', onVisible);
  refreshView = () => { render(); blindIntro(); msg.refresh(); statusMsg.refresh(); };
  return () => {
    clearInterval(timer);
    $('#game-board').hidden = false;
    $('#blind-panel').hidden = true;
    sock.close();
    for (const [el, f] of bound) el.removeEventListener('click', f);
    $('#move-form').removeEventListener('submit', onSubmit);
    $('#cond-form').removeEventListener('submit', onCond);
    $('#arb-time').removeEventListener('submit', onArbTime);
    $('#arb-declare').removeEventListener('submit', onArbDeclare);
    document.removeEventListener('keydown', onKey);
    document.removeEventListener('visibilitychange', onVisible);
    document.title = t('app.title');
  };
}

function resetEl(sel) {
  const el = $(sel);
  el.innerHTML = '';
  return el;
}

// ---- the analysis board -------------------------------------------------------------

function scoreText(s, side) {
  // scores come from the side to move; shown from White's side
  const sign = side === 'white' ? 1 : -1;
  if (s.kind === 'win' || s.kind === 'loss') {
    const whiteWins = (s.kind === 'win') === (side === 'white');
    return t('an.wins_in', { side: t(whiteWins ? 'side.White' : 'side.Black'), n: s.plies });
  }
  if (s.kind === 'db_win' || s.kind === 'db_loss') { // the endgame database's value
    const whiteWins = (s.kind === 'db_win') === (side === 'white');
    return t('an.db_wins', { side: t(whiteWins ? 'side.White' : 'side.Black'), n: s.plies });
  }
  if (s.kind === 'db_draw') return t('an.db_draw');
  const v = (sign * s.value) / 100;
  return `${v >= 0 ? '+' : ''}${v.toFixed(2)}`;
}

function analysisView(fen, variantName_) {
  // another variant than international: positions come from the server (its FEN, its
  // board), and its FEN is written with the squares' names
  const variant = variantName_ && variantName_ !== 'international' ? variantName_ : null;
  let geo = null; // the variant's board (the server's "board")
  const fenOf = (p) => (geo ? toFen(p, geo.labels) : toFen(p));
  const nsq = () => (geo ? geo.squares : 50);
  $('#an-variant').value = variant || 'international';
  const onVariant = () => {
    const v = $('#an-variant').value;
    location.hash = v === 'international' ? '#/analysis' : `#/analysis?variant=${v}`;
  };
  $('#an-variant').addEventListener('change', onVariant);
  let pos = variant ? { squares: new Array(51).fill(''), side: 'white' } : parseFen(fen || 'W:W31-50:B1-20');
  const history = [];
  let search = 0;
  let running = false;
  const board = new Board(resetEl('#analysis-board'), {
    onMove: (m) => { history.push(pos); pos = applyMove(pos, m, geo ? geo.size : 10); setPos(); if (running) start(); },
  });
  // a variant's position read by the server (f: its FEN, '' the initial position); only
  // the latest request counts: the view's first load answered after a FEN the user
  // typed in the meantime must not replace it (false: failed or superseded)
  let loads = 0;
  async function loadVariant(f) {
    const n = ++loads;
    const r = await api('GET', `/api/position?variant=${variant}&fen=${encodeURIComponent(f || '')}`);
    if (n !== loads) return false;
    if (!r.ok) { msg(() => serverText(r.data.error)); return false; }
    geo = r.data.board;
    board.setGeometry(geo);
    pos = posFromString(r.data.position, r.data.turn);
    return true;
  }
  window.damierAnalysisBoard = board;
  const msg = messenger('#an-message');
  const lines = $('#an-lines');
  let others = []; // multi-PV: the first moves of lines 2.. as arrows

  let sets = 0;
  async function setPos() {
    const n = ++sets;
    const f = fenOf(pos);
    $('#fen-input').value = f;
    lines.innerHTML = ''; // the lines were of another position
    others = [];
    board.arrows = [];
    board.setArrow(null);
    board.pos = pos;
    const r = await api('GET', `/api/position?fen=${encodeURIComponent(f)}${variant ? `&variant=${variant}` : ''}`);
    if (n !== sets) return; // the legal moves of a position since replaced
    if (!r.ok) { msg(() => serverText(r.data.error)); board.setLegal([]); return; }
    board.legal = r.data.legal;
    board.interactive = true;
    board.setLastMove(null);
    if (r.data.result !== '*') msg(() => t('an.game_over', { result: r.data.result, reason: reasonText(r.data.reason) }));
    // the opening explorer (library.js): international positions, when the server has a library
    if (!variant) {
      explorerPanel($('#an-explorer'), f, (text) => {
        const m = board.legal.find((x) => x.text === text);
        if (m) board.play(m);
      });
    } else $('#an-explorer').hidden = true;
  }

  function start() {
    lines.innerHTML = '';
    msg('');
    const multipv = Number($('#an-multipv').value) || 1;
    const req = { t: 'analyse', fen: fenOf(pos), multipv };
    if (variant) req.variant = variant;
    if (sock.ready()) { sock.ws.send(JSON.stringify(req)); running = true; }
    else msg(() => t('err.not_connected'));
  }
  function stop() {
    running = false;
    if (sock.ready()) sock.ws.send(JSON.stringify({ t: 'stop' }));
  }

  const sock = new Socket('/ws/analysis', (m) => {
    if (m.t === 'started') search = m.search;
    else if (m.t === 'error') { msg(() => serverText(m.error)); running = false; }
    else if (m.t === 'info' && m.search >= search) { // the current search, or a newer one whose "started" is late
      search = m.search;
      const multi = (m.lines || 1) > 1;
      const tr = document.createElement('tr');
      const td = (t) => { const d = document.createElement('td'); d.textContent = t; tr.appendChild(d); };
      td(multi ? `${m.depth} #${m.multipv}` : m.depth);
      td(scoreText(m.score, pos.side));
      tr.damierScore = [m.score, pos.side]; // said again in a new language
      td(m.nodes);
      td(m.pv.join(' '));
      if (multi) {
        // the lines of the last depth, best first: a new depth starts with line 1
        if (m.multipv === 1) { lines.innerHTML = ''; others = []; }
        tr.dataset.line = m.multipv;
        lines.appendChild(tr);
      } else {
        lines.insertBefore(tr, lines.firstChild);
        while (lines.children.length > 30) lines.removeChild(lines.lastChild);
      }
      if (m.multipv > 1) { // a fainter arrow for each other line; the bar follows the best
        if (m.pv_paths.length) { others[m.multipv - 2] = m.pv_paths[0]; board.setArrows(others.slice()); }
        return;
      }
      if (!multi) board.setArrows([]);
      if (m.pv_paths.length) board.setArrow(m.pv_paths[0]);
      const k = m.score.kind;
      let cp = k === 'cp' ? m.score.value : (k === 'db_draw' ? 0 : (k === 'win' || k === 'db_win' ? 2000 : -2000));
      if (pos.side === 'black') cp = -cp;
      const white = 50 + 50 * (2 / (1 + Math.exp(-cp / 150)) - 1);
      $('#eval-bar .eval-white').style.height = `${white}%`;
    } else if (m.t === 'done' && m.search === search) {
      running = false;
    }
  });

  const form = $('#fen-form');
  const onFen = (ev) => {
    ev.preventDefault();
    if (variant) {
      loadVariant($('#fen-input').value.trim()).then((ok) => { if (ok) { history.length = 0; setPos(); if (running) start(); } });
      return;
    }
    try { pos = parseFen($('#fen-input').value); } catch (e) { msg(() => t('an.bad_fen')); return; }
    history.length = 0;
    setPos();
    if (running) start();
  };
  form.addEventListener('submit', onFen);
  const handlers = [
    ['#an-start', start], ['#an-stop', stop],
    ['#an-flip', () => board.setFlipped(!board.flipped)],
    ['#an-numbers', () => board.setNumbers(!board.numbers)],
    ['#an-back', () => { if (history.length) { pos = history.pop(); setPos(); if (running) start(); } }],
    ['#an-edit', () => {
      const on = board.onEdit === null;
      $('#editor').hidden = !on;
      $('#an-edit').setAttribute('aria-pressed', String(on));
      $('#an-edit').textContent = t(on ? 'an.done_editing' : 'an.edit');
      if (on) {
        stop();
        lines.innerHTML = '';
        board.interactive = false;
        board.setArrow(null);
        $('#edit-side').value = pos.side;
        // no man on its own promotion row: crowned there
        const half = geo ? geo.size / 2 : 5;
        const crown = (p, sq) => ((p === 'w' && sq <= half) || (p === 'b' && sq > nsq() - half) ? p.toUpperCase() : p);
        const edited = (squares) => {
          pos = { squares, side: pos.side };
          board.setPosition(pos);
          $('#fen-input').value = fenOf(pos);
        };
        board.onEdit = (sq) => {
          const put = document.querySelector('input[name=put]:checked').value;
          const squares = pos.squares.slice();
          squares[sq] = crown(squares[sq] === put ? '' : put, sq);
          edited(squares);
        };
        // drag and drop: a piece to another square (replacing what stood there), or off
        // the board to remove it
        board.onEditMove = (from, to) => {
          const squares = pos.squares.slice();
          const piece = squares[from];
          squares[from] = '';
          if (to) squares[to] = crown(piece, to);
          edited(squares);
        };
      } else {
        board.onEdit = null;
        board.onEditMove = null;
        history.length = 0;
        setPos();
      }
    }],
    ['#edit-clear', () => { pos = { squares: new Array(nsq() + 1).fill(''), side: pos.side }; board.setPosition(pos); $('#fen-input').value = fenOf(pos); }],
    ['#edit-start', async () => {
      if (variant) { if (!(await loadVariant(''))) return; } else pos = parseFen('W:W31-50:B1-20');
      board.setPosition(pos);
      $('#fen-input').value = fenOf(pos);
    }],
  ];
  const onSide = () => { pos = { squares: pos.squares, side: $('#edit-side').value }; $('#fen-input').value = fenOf(pos); };
  $('#edit-side').addEventListener('change', onSide);
  const onLines = () => { if (running) start(); };
  $('#an-multipv').addEventListener('change', onLines);
  const bound = handlers.map(([sel, fn]) => { const el = $(sel); el.addEventListener('click', fn); return [el, fn]; });
  if (variant) loadVariant(fen || '').then((ok) => { if (ok) setPos(); });
  else setPos();
  refreshView = () => {
    msg.refresh();
    $('#an-edit').textContent = t(board.onEdit ? 'an.done_editing' : 'an.edit');
    for (const tr of lines.children) if (tr.damierScore) tr.children[1].textContent = scoreText(...tr.damierScore);
  };
  return () => {
    sock.close();
    $('#an-variant').removeEventListener('change', onVariant);
    $('#an-multipv').removeEventListener('change', onLines);
    board.onEdit = null;
    $('#editor').hidden = true;
    $('#an-edit').textContent = t('an.edit');
    $('#edit-side').removeEventListener('change', onSide);
    form.removeEventListener('submit', onFen);
    for (const [el, f] of bound) el.removeEventListener('click', f);
  };
}

// ---- upload ---------------------------------------------------------------------------

let uploaded = null; // the last answer, drawn again in a new language

function showUpload() {
  const errs = $('#upload-errors'), games = $('#upload-games');
  errs.innerHTML = '';
  games.innerHTML = '';
  if (!uploaded) return;
  const r = uploaded;
  if (r.status === 413 || !r.data.errors) {
    const li = document.createElement('li');
    li.textContent = serverText(r.data.error);
    errs.appendChild(li);
    return;
  }
  for (const e of r.data.errors) {
    const li = document.createElement('li');
    // the reader's message is the library's (English); where it is, in the page's language
    li.textContent = t('up.error', { game: e.game, line: e.line, column: e.column, message: serverText(e.message) });
    errs.appendChild(li);
  }
  for (const g of r.data.games) {
    const li = document.createElement('li');
    const a = document.createElement('a');
    const [, , , gid, gkey] = g.link.split('/');
    a.href = `#/game/${gid}/${gkey}`;
    a.textContent = t('up.game', { white: g.white, black: g.black, result: g.result, plies: g.plies });
    li.appendChild(a);
    games.appendChild(li);
  }
}
const refreshUpload = showUpload;

function setupUpload() {
  $('#upload-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const file = $('#pdn-file').files[0];
    const text = file ? await file.text() : $('#pdn-text').value;
    uploaded = await api('POST', '/api/pdn', text, true);
    if (uploaded.data.games) {
      for (const g of uploaded.data.games) {
        const [, , , , gkey] = g.link.split('/');
        rememberGame({ id: g.id, key: gkey, kind: 'review', white: g.white, black: g.black, created: Date.now() });
      }
    }
    showUpload();
  });
}

function setupLang() {
  const sel = $('#lang-select');
  sel.value = currentLang();
  sel.addEventListener('change', () => setLang(sel.value));
  onLangChange((l) => {
    sel.value = l;
    setConn(connState);
    createError.refresh();
    if (refreshView) refreshView();
  });
}

await initLang();
// the community's pages (accounts, lobby, ratings), loaded after the language
const community = await import('./community.js');
setupLang();
setupHome();
setupUpload();
window.addEventListener('hashchange', route);
route();
