// SPDX-License-Identifier: MIT
// web/simul.js: the simultaneous display (issue 13): the host starts N boards against
// the engine or against people (a link for each board), the overview #/simul/ID/KEY
// shows every board and the score, and the host plays board after board: after the
// host's move the game page goes on to the next board still in play (the opponent
// there moves whenever the host is elsewhere). A blindfold simul hides every board
// (blindfold.js). The API: docs/WEB.md (Simultaneous display).

import { t, serverText } from './i18n.js';

const $ = (sel) => document.querySelector(sel);
const blindKey = (id) => `damier.simul.blind.${id}`;

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) { opts.body = JSON.stringify(body); opts.headers['Content-Type'] = 'application/json'; }
  const res = await fetch(path, opts);
  let data;
  try { data = await res.json(); } catch (e) { data = { error: `HTTP ${res.status}` }; }
  return { ok: res.ok, data };
}

// The game page's address of board b of simul (id, key).
function boardHash(id, key, b) {
  let blind = false;
  try { blind = localStorage.getItem(blindKey(id)) === '1'; } catch (e) { /* none */ }
  return `#/game/${b.game}/${b.key}?simul=${id}&skey=${key}&board=${b.board}${blind ? '&blindfold=1' : ''}`;
}

// The new-simul form of the start page (form #new-simul).
export function setupSimulForm() {
  const form = $('#new-simul');
  const err = $('#simul-error');
  const sync = () => { form.querySelector('.engine-only').hidden = form.opponent.value !== 'engine'; };
  form.addEventListener('change', sync);
  sync();
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const body = { boards: Number(form.boards.value), opponent: form.opponent.value, side: form.side.value, level: Number(form.level.value), time: form.time.value };
    const r = await api('POST', '/api/simuls', body);
    if (!r.ok) { err.textContent = serverText(r.data.error); return; }
    err.textContent = '';
    try {
      if (form.blindfold.checked) localStorage.setItem(blindKey(r.data.id), '1');
      const list = JSON.parse(localStorage.getItem('damier.simuls') || '[]');
      list.unshift({ id: r.data.id, key: r.data.key, created: Date.now() });
      localStorage.setItem('damier.simuls', JSON.stringify(list.slice(0, 50)));
    } catch (e) { /* private mode */ }
    location.hash = `#/simul/${r.data.id}/${r.data.key}`;
  });
}

// #/simul/ID/KEY: the overview; null for another route. Returns {cleanup, refresh}.
export function simulView(parts, show) {
  if (parts[0] !== 'simul' || !parts[1] || !parts[2]) return null;
  show('simul');
  const [, id, key] = parts;
  let alive = true;
  let data = null;
  const draw = () => {
    if (!data) return;
    const sc = data.score;
    $('#simul-score').textContent = t('simul.score', { host: sc.host / 2, opponents: sc.opponents / 2, finished: sc.finished, boards: sc.boards });
    const tbody = $('#simul-boards');
    tbody.innerHTML = '';
    for (const b of data.boards) {
      const tr = document.createElement('tr');
      const you = b.you;
      const other = you === 'white' ? 'black' : 'white';
      const status = b.result !== '*' ? b.result : b.turn === you ? t('simul.your_move') : t('simul.waiting');
      for (const v of [String(b.board), b.names ? b.names[other] : '', status]) {
        const td = document.createElement('td');
        td.textContent = v;
        tr.appendChild(td);
      }
      const td = document.createElement('td');
      if (b.link) {
        const inp = document.createElement('input');
        inp.readOnly = true;
        inp.value = `${location.origin}/${b.link.replace(/^\//, '')}`;
        inp.setAttribute('aria-label', t('simul.link', { n: b.board }));
        inp.dataset.testid = `simul-link-${b.board}`;
        td.appendChild(inp);
      }
      const a = document.createElement('a');
      a.href = boardHash(id, key, b);
      a.textContent = t('simul.go', { n: b.board });
      a.dataset.testid = `simul-board-${b.board}`;
      td.appendChild(a);
      tr.appendChild(td);
      tbody.appendChild(tr);
    }
    const next = data.boards.find((b) => b.result === '*');
    const go = $('#simul-next');
    go.hidden = !next;
    if (next) go.href = boardHash(id, key, next);
  };
  const load = async () => {
    const r = await api('GET', `/api/simuls/${id}?key=${encodeURIComponent(key)}`);
    if (!alive) return;
    $('#simul-error-view').textContent = r.ok ? '' : serverText(r.data.error);
    if (r.ok) { data = r.data; draw(); }
  };
  load();
  const timer = setInterval(load, 2000); // the opponents move meanwhile
  return { cleanup: () => { alive = false; clearInterval(timer); }, refresh: draw };
}

// The game page of a simul's board (query: simul, skey, board): after the host's move
// the page goes on to the next board still in play, else to the overview.
export async function nextBoard(query) {
  const id = query.get('simul'), key = query.get('skey'), here = Number(query.get('board'));
  const r = await api('GET', `/api/simuls/${id}?key=${encodeURIComponent(key)}`);
  if (!r.ok) return;
  const live = r.data.boards.filter((b) => b.result === '*');
  const next = live.find((b) => b.board > here) || live.find((b) => b.board !== here) || null;
  location.hash = next ? boardHash(id, key, next) : `#/simul/${id}/${key}`;
}
