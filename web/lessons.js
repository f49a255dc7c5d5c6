// SPDX-License-Identifier: MIT
// web/lessons.js: the course (issue 19): the lessons of web/lessons/international.json,
// each a position with a text and one or more tasks played on the board. Every attempt
// is judged by the rules core on the server (GET /api/position?fen=F&move=M: an illegal
// move is answered with the rule that forbids it, "capture is compulsory (FMJD 4.1)"),
// then by the lesson (its accepted moves); a piece may be put on any square so that a
// wrong move can be tried and explained. A course with a "game" (Chinese checkers) is
// played on the star board (jumpboard.js) and judged by GET /api/jump/position.
// Progress is kept in this browser and, signed in, in the account (GET/POST
// /api/account/lessons): the browser's list is merged into the account's each time the
// course is shown, and the course shows both.

import { Board, parseFen, posFromString, squareRC } from './board.js';
import { makeAccessible } from './a11y.js';
import { JumpBoard } from './jumpboard.js';
import { t, currentLang, serverText } from './i18n.js';

const $ = (sel) => document.querySelector(sel);
// the courses, each web/lessons/NAME.json, NAME the variant its lessons are played in
const COURSES = ['international', 'russian', 'chinese-checkers'];
const DONE = 'damier.lessons.done';

let courses = null;
async function loadCourses() {
  if (!courses) {
    courses = await Promise.all(COURSES.map(async (name) => {
      const r = await fetch(`/lessons/${name}.json`);
      if (!r.ok) throw new Error(`/lessons/${name}.json: HTTP ${r.status}`);
      const c = await r.json();
      for (const l of c.lessons) {
        l.variant = name;
        l.jump = c.game ? { game: c.game, players: c.players || 2 } : null;
      }
      return c;
    }));
  }
  return courses;
}

// a text of the course in the page's language (English where a language lacks it)
const tr = (o) => (o ? o[currentLang()] || o.en : '');

// the lessons completed in this browser: {id: true}
export function lessonsDone() {
  try { return JSON.parse(localStorage.getItem(DONE) || '{}') || {}; } catch (e) { return {}; }
}
function markDone(id) {
  const d = lessonsDone();
  d[id] = true;
  try { localStorage.setItem(DONE, JSON.stringify(d)); } catch (e) { /* private mode */ }
  syncDone([id]);
}

// Signed in: ids added to the account's lessons; the account's whole list {id: true},
// or null for a visitor (or when the server cannot be asked)
async function syncDone(ids) {
  try {
    const me = await (await fetch('/api/account')).json();
    if (!me || !me.account) return null;
    const res = await fetch('/api/account/lessons', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': me.csrf },
      body: JSON.stringify({ done: ids.filter((x) => /^[a-z0-9_-]{1,64}$/.test(x)).slice(0, 256) }),
    });
    if (!res.ok) return null;
    const d = await res.json();
    return Object.fromEntries(d.done.map((x) => [x, true]));
  } catch (e) { return null; }
}

// the position after move (none: fen itself) in variant, judged by the rules core
async function judge(variant, fen, move) {
  const q = `/api/position?variant=${variant}&fen=${encodeURIComponent(fen)}${move ? `&move=${encodeURIComponent(move)}` : ''}`;
  const res = await fetch(q);
  let data;
  try { data = await res.json(); } catch (e) { data = { error: `HTTP ${res.status}` }; }
  return { ok: res.ok, data };
}

// the position after move (none: pos itself) of a jumping game, judged by its rules core
async function judgeJump(jump, pos, move) {
  const q = `/api/jump/position?game=${jump.game}&players=${jump.players}&pos=${encodeURIComponent(pos)}${move ? `&move=${encodeURIComponent(move)}` : ''}`;
  const res = await fetch(q);
  let data;
  try { data = await res.json(); } catch (e) { data = { error: `HTTP ${res.status}` }; }
  return { ok: res.ok, data };
}

// the two ends of a jumping game's move text ("111-89-67": 111 and 67)
const ends = (text) => { const s = String(text).split(/[-x]/); return `${s[0]}-${s[s.length - 1]}`; };

// A move tried on board from one square to another as notation (the squares' names
// of the variant): a step to a diagonal neighbour is written "a-b", anything longer as
// a capture "axb"
function attemptText(board, from, to) {
  const [r1, c1] = squareRC(from, board.size), [r2, c2] = squareRC(to, board.size);
  const name = (s) => (board.labels ? board.labels[s - 1] : String(s));
  return `${name(from)}${Math.abs(r1 - r2) === 1 && Math.abs(c1 - c2) === 1 ? '-' : 'x'}${name(to)}`;
}

// #/learn and #/learn/ID; null for another route. Returns {cleanup, refresh}.
export function learnView(parts, show) {
  if (parts[0] !== 'learn') return null;
  show('learn');
  const list = $('#learn-list'), one = $('#lesson');
  list.hidden = !!parts[1];
  one.hidden = !parts[1];
  let alive = true;
  if (!parts[1]) {
    const draw = async () => {
      let cs;
      try { cs = await loadCourses(); } catch (e) { list.textContent = String(e.message); return; }
      if (!alive) return;
      const local = lessonsDone();
      const account = await syncDone(Object.keys(local)); // the browser's merged into the account's
      if (!alive) return;
      const done = { ...local, ...(account || {}) };
      list.innerHTML = '';
      for (const c of cs) {
        const h = document.createElement(c === cs[0] ? 'h1' : 'h2');
        h.textContent = tr(c.title);
        list.appendChild(h);
        const p = document.createElement('p');
        p.textContent = t('learn.progress', { done: c.lessons.filter((l) => done[l.id]).length, n: c.lessons.length });
        list.appendChild(p);
        const ol = document.createElement('ol');
        ol.className = 'lessons';
        for (const l of c.lessons) {
          const li = document.createElement('li');
          const a = document.createElement('a');
          a.href = `#/learn/${l.id}`;
          a.textContent = tr(l.title);
          a.dataset.testid = `learn-${l.id}`;
          li.appendChild(a);
          if (done[l.id]) {
            const sp = document.createElement('span');
            sp.className = 'done';
            sp.textContent = ` ✓ ${t('learn.done_mark')}`;
            li.appendChild(sp);
          }
          ol.appendChild(li);
        }
        list.appendChild(ol);
      }
    };
    draw();
    return { cleanup: () => { alive = false; }, refresh: draw };
  }
  return lessonView(parts[1], () => alive, () => { alive = false; });
}

function lessonView(id, isAlive, kill) {
  let lesson = null, next = null, step = 0, fen = '', legal = [], finished = false;
  const feedback = $('#lesson-feedback');
  for (const sel of ['#lesson-title', '#lesson-text', '#lesson-step', '#lesson-task']) $(sel).textContent = '';
  $('#lesson-next').hidden = true;
  let said = null; // the feedback as a function of the language (said again on a change)
  const say = (f, kind) => { said = f; feedback.textContent = f ? f() : ''; feedback.dataset.kind = kind || ''; };
  const boardEl = (() => { const el = $('#lesson-board'); el.innerHTML = ''; return el; })();
  let board = null, access = { announce: () => {} };
  // the board of the lesson's game: the draughts board, or the star of Chinese checkers
  function makeBoard(jump) {
    if (board && !!jump === board instanceof JumpBoard) return;
    boardEl.innerHTML = '';
    if (jump) {
      board = new JumpBoard(boardEl, {
        onTry: (from, to) => attempt(`${from}-${to}`),
        // the learner plays seat A (the bottom point), the opponent the others
        label: (n, seat) => t(!seat ? 'learn.jump_hole' : seat === 'A' ? 'learn.jump_own' : 'learn.jump_other', { n }),
      });
      access = { announce: () => {} }; // the feedback is a role=alert region
      return;
    }
    board = new Board(boardEl, {
      onMove: (m) => attempt(m.text),
      onTry: (from, to) => attempt(attemptText(board, from, to)),
      onMessage: (f) => say(f),
    });
    board.numbers = true;
    access = makeAccessible(board);
  }

  function draw() {
    if (!lesson) return;
    $('#lesson-title').textContent = tr(lesson.title);
    $('#lesson-text').textContent = tr(lesson.text);
    $('#lesson-step').textContent = finished ? '' : t('learn.step', { k: step + 1, n: lesson.steps.length });
    $('#lesson-task').textContent = finished ? '' : tr(lesson.steps[step].task);
    $('#lesson-next').hidden = !finished || !next;
    $('#lesson-next').href = next ? `#/learn/${next.id}` : '#/learn';
    if (said) feedback.textContent = said();
    board.interactive = !finished;
    board.legal = finished ? [] : legal;
    board.render();
  }

  // the board from a position answer of the server (its variant's board and squares)
  function show(d) {
    if (lesson.jump) {
      fen = d.pos;
      legal = d.legal;
      board.setPosition(d);
      return;
    }
    fen = d.fen;
    legal = d.legal;
    if (d.board) {
      board.setGeometry(d.board);
      board.pos = posFromString(d.position, d.turn);
    } else board.pos = parseFen(fen);
  }

  async function setPosition(f) {
    const r = await ask(f);
    if (!r.ok) { say(() => serverText(r.data.error), 'bad'); return false; }
    show(r.data);
    return true;
  }

  async function start() {
    let cs;
    try { cs = await loadCourses(); } catch (e) { say(() => String(e.message), 'bad'); return; }
    const c = cs.find((x) => x.lessons.some((l) => l.id === id));
    if (!c) { say(() => t('learn.no_lesson', { id }), 'bad'); return; }
    const i = c.lessons.findIndex((l) => l.id === id);
    lesson = c.lessons[i];
    next = c.lessons[i + 1] || null;
    makeBoard(lesson.jump);
    step = 0;
    finished = false;
    board.last = null;
    say(null);
    if (!(await setPosition(lesson.jump ? lesson.pos : lesson.fen)) || !isAlive()) return;
    draw();
    ready = true;
  }

  // the rules core's judgement of move (none: the position alone) in the lesson's game
  const ask = (f, move) => (lesson.jump ? judgeJump(lesson.jump, f, move) : judge(lesson.variant, f, move));
  // the lesson accepts the move played: the same text (a jumping game: the same ends)
  const accepts = (s, played) => (lesson.jump ? s.accept.some((a) => ends(a) === ends(played)) : s.accept.includes(played));

  let busy = false;
  async function attempt(text) {
    if (busy || finished || !lesson) return;
    busy = true;
    try {
      const r = await ask(fen, text);
      if (!isAlive()) return;
      if (!r.ok) { // the rules forbid it: the server says which rule
        const why = r.data.error;
        say(() => t('learn.illegal', { why: serverText(why) }), 'bad');
        access.announce(feedback.textContent);
        draw();
        return;
      }
      const s = lesson.steps[step];
      if (!accepts(s, r.data.played.text)) {
        const m = r.data.played.text;
        // a weaker move the lesson explains (its reason proven by the engine in test_lessons)
        const weak = (s.weaker || []).find((w) => w.move === m);
        say(() => (weak ? tr(weak.why) : t('learn.not_task', { move: m })), 'bad');
        access.announce(feedback.textContent);
        draw();
        return;
      }
      show(r.data);
      board.last = r.data.played;
      let reply = null;
      if (s.reply) {
        const rr = await ask(fen, s.reply);
        if (!rr.ok) { say(() => serverText(rr.data.error), 'bad'); return; }
        show(rr.data);
        board.last = rr.data.played;
        reply = rr.data.played.text;
      }
      step++;
      if (step >= lesson.steps.length) {
        finished = true;
        markDone(lesson.id);
        say(() => t(next ? 'learn.complete' : 'learn.course_complete'), 'good');
      } else {
        const key = lesson.jump ? 'learn.right_reply_jump' : 'learn.right_reply';
        say(() => (reply ? t(key, { move: reply }) : t('learn.right')), 'good');
      }
      access.announce(feedback.textContent);
      draw();
    } finally {
      busy = false;
    }
  }

  const onSubmit = (ev) => {
    ev.preventDefault();
    const v = $('#lesson-move').value.trim();
    if (v) { $('#lesson-move').value = ''; attempt(v); }
  };
  const onRestart = () => start();
  $('#lesson-form').addEventListener('submit', onSubmit);
  $('#lesson-restart').addEventListener('click', onRestart);
  let ready = false; // the lesson's position drawn and playable (for tests)
  window.damierLesson = { id, get ready() { return ready; }, get step() { return step; }, get finished() { return finished; }, get fen() { return fen; } };
  start();
  return {
    cleanup: () => {
      kill();
      $('#lesson-form').removeEventListener('submit', onSubmit);
      $('#lesson-restart').removeEventListener('click', onRestart);
    },
    refresh: draw,
  };
}
