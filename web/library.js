// SPDX-License-Identifier: MIT
// web/library.js: the master-games library (issue 19) of `damier serve --library PATH`:
// #/library searches the games by player, event, year, result, opening (the first
// moves) and by position (?fen= exact, ?pattern= the pieces that must stand there);
// each game opens on the review board; the world champions' names are one click away.
// explorerPanel() is the opening explorer of the analysis board: the moves played from
// its position, with their results. The API: docs/WEB.md (Library).

import { t, serverText } from './i18n.js';

const $ = (sel) => document.querySelector(sel);

// World champions of international draughts (FMJD), each with the part of the name
// searched (the files spell some names differently: Gantvarg, Gantwarg).
const CHAMPIONS = [['Weiss', 'Weiss'], ['Roozenburg', 'Roozenburg'], ['Deslauriers', 'Deslauriers'],
  ['Koeperman', 'perman'], ['Baba Sy', 'Baba Sy'], ['Shchegolev', 'egolev'], ['Andreiko', 'Andreiko'],
  ['Sijbrands', 'Sijbrands'], ['Wiersma', 'Wiersma'], ['Clerc', 'Clerc'], ['Van der Wal', 'van der Wal'],
  ['Gantvarg', 'Gant'], ['Chizhov', 'Chizhov'], ['Valneris', 'Valneris'], ['Schwarzman', 'Schwarzman'],
  ['Georgiev', 'Georgiev'], ['Boomstra', 'Boomstra']];
const FIELDS = ['player', 'event', 'year', 'result', 'opening', 'fen', 'pattern'];

async function get(path) {
  const res = await fetch(path);
  let data;
  try { data = await res.json(); } catch (e) { data = { error: `HTTP ${res.status}` }; }
  return { ok: res.ok, status: res.status, data };
}

// Opens library game id on the review board (a review game made on the server).
export async function openGame(id, onError) {
  const res = await fetch(`/api/library/${id}/review`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
  let data;
  try { data = await res.json(); } catch (e) { data = { error: `HTTP ${res.status}` }; }
  if (!res.ok || !data.games || !data.games.length) { onError(serverText(data.error || 'no game')); return; }
  const [, , , gid, gkey] = data.games[0].link.split('/');
  location.hash = `#/game/${gid}/${gkey}`;
}

// #/library (and ?player=...&offset=...); null for another route. Returns {cleanup, refresh}.
export function libraryView(parts, query, show) {
  if (parts[0] !== 'library') return null;
  show('library');
  const form = $('#library-form');
  for (const f of FIELDS) if (form[f]) form[f].value = query.get(f) || '';
  const champs = $('#library-champions');
  champs.innerHTML = '';
  for (const [name, term] of CHAMPIONS) {
    const a = document.createElement('a');
    a.href = `#/library?player=${encodeURIComponent(term)}`;
    a.textContent = name;
    champs.appendChild(a);
    champs.appendChild(document.createTextNode(' '));
  }
  let alive = true;
  const out = $('#library-results');
  const error = $('#library-error');
  const search = async () => {
    const q = new URLSearchParams();
    for (const f of FIELDS) if (query.get(f)) q.set(f, query.get(f));
    if (query.get('offset')) q.set('offset', query.get('offset'));
    const r = await get(`/api/library?${q}`);
    if (!alive) return;
    out.innerHTML = '';
    error.textContent = r.ok ? '' : serverText(r.data.error);
    if (!r.ok) return;
    const p = document.createElement('p');
    p.dataset.testid = 'library-total';
    p.textContent = t('lib.total', { n: r.data.total });
    out.appendChild(p);
    const table = document.createElement('table');
    table.className = 'library';
    const head = document.createElement('tr');
    for (const k of ['lib.white', 'lib.black', 'lib.event', 'lib.date', 'lib.result', 'lib.opening', '']) {
      const th = document.createElement('th');
      th.textContent = k ? t(k) : '';
      head.appendChild(th);
    }
    table.appendChild(head);
    for (const g of r.data.games) {
      const tr = document.createElement('tr');
      for (const v of [g.white, g.black, g.event, g.date, g.result, g.opening]) {
        const td = document.createElement('td');
        td.textContent = v;
        tr.appendChild(td);
      }
      const td = document.createElement('td');
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = t('lib.open');
      b.dataset.testid = `library-open-${g.id}`;
      b.addEventListener('click', () => openGame(g.id, (e) => { error.textContent = e; }));
      td.appendChild(b);
      tr.appendChild(td);
      table.appendChild(tr);
    }
    out.appendChild(table);
    const offset = r.data.offset;
    const nav = document.createElement('p');
    const page = (o, key) => {
      const a = document.createElement('a');
      const q2 = new URLSearchParams(query);
      q2.set('offset', String(o));
      a.href = `#/library?${q2}`;
      a.textContent = t(key);
      nav.appendChild(a);
      nav.appendChild(document.createTextNode(' '));
    };
    if (offset > 0) page(Math.max(0, offset - r.data.page), 'lib.prev');
    if (offset + r.data.games.length < r.data.total) page(offset + r.data.page, 'lib.next');
    out.appendChild(nav);
  };
  const onSubmit = (ev) => {
    ev.preventDefault();
    const q = new URLSearchParams();
    for (const f of FIELDS) if (form[f] && form[f].value.trim()) q.set(f, form[f].value.trim());
    location.hash = `#/library?${q}`;
  };
  form.addEventListener('submit', onSubmit);
  search();
  return { cleanup: () => { alive = false; form.removeEventListener('submit', onSubmit); }, refresh: search };
}

// The opening explorer under the analysis board (el): the library's moves from fen,
// each with its games and results (White wins / draws / Black wins); clicking a move
// calls play(text). Hidden when the server has no library.
export async function explorerPanel(el, fen, play) {
  const r = await get(`/api/library/explorer?fen=${encodeURIComponent(fen)}`);
  el.innerHTML = '';
  el.hidden = !r.ok;
  if (!r.ok) return;
  const h = document.createElement('h2');
  h.textContent = t('lib.explorer');
  el.appendChild(h);
  const p = document.createElement('p');
  const a = document.createElement('a');
  a.href = `#/library?fen=${encodeURIComponent(fen)}`;
  a.textContent = t('lib.games_here', { n: r.data.games });
  a.dataset.testid = 'explorer-games';
  p.appendChild(a);
  el.appendChild(p);
  if (!r.data.moves.length) return;
  const table = document.createElement('table');
  table.className = 'explorer';
  const head = document.createElement('tr');
  for (const k of ['lib.move', 'lib.games', 'lib.white_wins', 'lib.draws', 'lib.black_wins']) {
    const th = document.createElement('th');
    th.textContent = t(k);
    head.appendChild(th);
  }
  table.appendChild(head);
  for (const m of r.data.moves) {
    const tr = document.createElement('tr');
    const td = document.createElement('td');
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'link';
    b.textContent = m.move;
    b.dataset.testid = `explorer-move-${m.move}`;
    b.addEventListener('click', () => play(m.move));
    td.appendChild(b);
    tr.appendChild(td);
    for (const v of [m.games, m.white, m.draws, m.black]) {
      const c = document.createElement('td');
      c.textContent = String(v);
      tr.appendChild(c);
    }
    table.appendChild(tr);
  }
  el.appendChild(table);
}
