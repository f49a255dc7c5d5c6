// SPDX-License-Identifier: MIT
// web/tourney.js: tournaments (issues 13 and 20): the organiser starts a round robin or
// a Swiss event of people and engine entrants (form #new-tourney); the page
// #/tournament/ID/KEY shows the standings with tie-breaks, the crosstable, the rounds
// with their games and, to the organiser, each player's link. A player's link is the
// same page with his key: it leads him to his current game. The server pairs each
// round when the last one is complete. The API: docs/WEB.md (Tournaments).

import { t, serverText } from './i18n.js';

const $ = (sel) => document.querySelector(sel);
// the tie-breaks' and the sides' texts (every key written out for tests/web/i18n_keys.mjs)
const TB = {
  direct: 'tourney.tb.direct', wins: 'tourney.tb.wins', 'sonneborn-berger': 'tourney.tb.sonneborn-berger',
  buchholz: 'tourney.tb.buchholz', 'median-buchholz': 'tourney.tb.median-buchholz', 'board-points': 'tourney.tb.board-points',
};
// A link to one of the server's pages (href given from the root, made relative to the
// page's own folder), with its text and, for the browser tests, a data-testid.
const addLink = (parent, href, text, testid) => {
  const a = document.createElement('a');
  a.href = href.replace(/^\//, '');
  a.textContent = text;
  if (testid) a.dataset.testid = testid;
  parent.appendChild(a);
};

const SIDE_LINK = { white: 'tourney.play_white', black: 'tourney.play_black' };

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) { opts.body = JSON.stringify(body); opts.headers['Content-Type'] = 'application/json'; }
  const res = await fetch(path, opts);
  let data;
  try { data = await res.json(); } catch (e) { data = { error: `HTTP ${res.status}` }; }
  return { ok: res.ok, data };
}

// One entrant per line: "Name", "Name = engine N" (or "= 引擎 N") for the engine at
// level N, then optionally "@ Section" (a section paired apart: women, youth, ...) and
// "# cat,cat" (categories ranked apart). A line "Team @ Section: Name, Name = engine 2"
// makes a team (every line then a team, with as many players as boards).
function parseEntrant(line) {
  let l = line.trim();
  const out = {};
  let m = l.match(/\s*#\s*([^#@]*)$/);
  if (m) { out.categories = m[1].trim(); l = l.slice(0, m.index); }
  m = l.match(/\s*@\s*([^@]*)$/);
  if (m) { out.section = m[1].trim(); l = l.slice(0, m.index); }
  m = l.match(/^(.*?)\s*=\s*(?:engine|引擎)\s*(\d+)$/i);
  if (m) { out.name = m[1] || `engine ${m[2]}`; out.engine_level = Number(m[2]); } else out.name = l;
  return out;
}

export function parsePlayers(text) {
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  if (!lines.some((l) => l.includes(':'))) return { players: lines.map(parseEntrant) };
  const teams = lines.map((l) => {
    const c = l.indexOf(':');
    const head = parseEntrant(c < 0 ? l : l.slice(0, c));
    const members = (c < 0 ? '' : l.slice(c + 1)).split(/[,，]/).map((x) => x.trim()).filter(Boolean).map(parseEntrant);
    return { ...head, players: members.map(({ name, engine_level }) => (engine_level ? { name, engine_level } : { name })) };
  });
  return { teams, boards: teams[0].players.length };
}

// The new-tournament form of the start page.
export function setupTourneyForm() {
  const form = $('#new-tourney');
  if (!form) return;
  const err = $('#tourney-error');
  const sync = () => { form.querySelector('.swiss-only').hidden = form.system.value !== 'swiss'; };
  form.addEventListener('change', sync);
  sync();
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const body = { name: form.tname.value, system: form.system.value, ...parsePlayers(form.players.value) };
    if (form.system.value === 'swiss') body.rounds = Number(form.rounds.value);
    if (form.time.value !== '-') body.time = form.time.value;
    const r = await api('POST', '/api/tournaments', body);
    if (!r.ok) { err.textContent = serverText(r.data.error); return; }
    err.textContent = '';
    location.hash = `#/tournament/${r.data.id}/${r.data.key}`;
  });
}

function cell(tr, text, tag = 'td') {
  const td = document.createElement(tag);
  td.textContent = text;
  tr.appendChild(td);
  return td;
}

// A standings table (rank, name, points, games, the tie-breaks) into el.
function drawStandings(el, standings) {
  el.innerHTML = '';
  const tbs = standings.length ? Object.keys(standings[0].tiebreaks) : [];
  const head = document.createElement('tr');
  for (const h of [t('tourney.rank'), t('tourney.player'), t('tourney.points'), t('tourney.games'), ...tbs.map((n) => (TB[n] ? t(TB[n]) : n))]) cell(head, h, 'th');
  el.appendChild(head);
  for (const s of standings) {
    const tr = document.createElement('tr');
    for (const v of [s.rank, s.name, s.points, s.games, ...tbs.map((n) => s.tiebreaks[n])]) cell(tr, String(v));
    el.appendChild(tr);
  }
}

// A crosstable into el, its rows' test ids `${prefix}-N`.
function drawCross(el, cross, prefix) {
  el.innerHTML = '';
  const ch = document.createElement('tr');
  cell(ch, '', 'th');
  cross.forEach((r, i) => cell(ch, String(i + 1), 'th'));
  cell(ch, t('tourney.points'), 'th');
  el.appendChild(ch);
  cross.forEach((r, i) => {
    const tr = document.createElement('tr');
    tr.dataset.testid = `${prefix}-${i + 1}`;
    cell(tr, `${i + 1}. ${r.name}`, 'th');
    for (const c of r.cells) cell(tr, c);
    cell(tr, String(r.points));
    el.appendChild(tr);
  });
}

// #/tournament/ID/KEY: the event; null for another route. Returns {cleanup, refresh}.
export function tourneyView(parts, show) {
  if (parts[0] !== 'tournament' || !parts[1] || !parts[2]) return null;
  show('tourney');
  const [, id, key] = parts;
  let alive = true;
  let data = null;
  let led = false; // a player's link leads to his game once
  const draw = () => {
    if (!data) return;
    $('#tourney-name').textContent = data.name;
    $('#tourney-status').textContent = data.finished ? t('tourney.finished')
      : t('tourney.round', { round: data.round, rounds: data.rounds });
    const you = $('#tourney-you');
    you.innerHTML = '';
    if (data.you && data.you.game) {
      addLink(you, data.you.game, t('tourney.your_game'), 'tourney-your-game');
    }
    $('#tourney-pdn').href = `/api/tournaments/${id}/pdn?key=${encodeURIComponent(key)}`;
    drawStandings($('#tourney-standings'), data.standings);
    drawCross($('#tourney-cross'), data.crosstable, 'cross');
    // the sections (each paired apart) and the categories (ranked among themselves)
    const secs = $('#tourney-sections');
    secs.innerHTML = '';
    data.sections.forEach((sec, i) => {
      const h = document.createElement('h2');
      h.textContent = t('tourney.section', { name: sec.name || t('tourney.main_section') });
      secs.appendChild(h);
      const st = document.createElement('table');
      st.className = 'simul';
      st.dataset.testid = `section-${i + 1}-standings`;
      drawStandings(st, sec.standings);
      secs.appendChild(st);
      const ct = document.createElement('table');
      ct.className = 'simul';
      ct.dataset.testid = `section-${i + 1}-cross`;
      drawCross(ct, sec.crosstable, `section-${i + 1}-cross`);
      secs.appendChild(ct);
    });
    data.categories.forEach((cat, i) => {
      const h = document.createElement('h2');
      h.textContent = t('tourney.category', { name: cat.name });
      secs.appendChild(h);
      const st = document.createElement('table');
      st.className = 'simul';
      st.dataset.testid = `category-${i + 1}-standings`;
      drawStandings(st, cat.standings);
      secs.appendChild(st);
    });
    // the rounds
    const rd = $('#tourney-rounds');
    rd.innerHTML = '';
    for (const round of data.pairings) {
      const h = document.createElement('h3');
      h.textContent = t('tourney.round_n', { n: round.round });
      rd.appendChild(h);
      const ul = document.createElement('ul');
      // one game (its links to whoever may have them) as a list item
      const gameItem = (p, prefix) => {
        const li = document.createElement('li');
        li.textContent = p.black ? `${prefix}${p.white} – ${p.black}: ${p.result} ` : `${prefix}${p.white}: ${t('tourney.bye')} `;
        for (const side of ['white', 'black']) {
          const link = p[`${side}_link`];
          if (!link) continue;
          addLink(li, link, t(SIDE_LINK[side]));
          li.appendChild(document.createTextNode(' '));
        }
        if (p.link) { // the engines' game, played by the server: its record
          addLink(li, p.link, t('tourney.record'), 'engine-game');
          li.appendChild(document.createTextNode(' '));
        }
        if (p.arbiter_link) { // the organiser declares a result there (an abandoned game)
          addLink(li, p.arbiter_link, t('tourney.arbiter'));
        }
        return li;
      };
      for (const p of round.pairings) {
        const li = gameItem(p, '');
        if (p.boards) { // a team match: its boards
          const sub = document.createElement('ul');
          for (const b of p.boards) sub.appendChild(gameItem(b, `${t('tourney.board', { n: b.board })}: `));
          li.appendChild(sub);
        }
        ul.appendChild(li);
      }
      rd.appendChild(ul);
    }
    // the players' links (the organiser's)
    const pl = $('#tourney-players');
    pl.innerHTML = '';
    for (const p of data.players) {
      const li = document.createElement('li');
      const who = p.team ? `${p.team}, ${t('tourney.board', { n: p.board })}: ${p.name}` : p.name;
      li.textContent = p.engine_level ? `${who} (${t('tourney.engine', { level: p.engine_level })})` : `${who} `;
      if (p.link) {
        const inp = document.createElement('input');
        inp.readOnly = true;
        inp.value = `${location.origin}/${p.link.replace(/^\//, '')}`;
        inp.setAttribute('aria-label', t('tourney.link', { name: p.name }));
        li.appendChild(inp);
      }
      pl.appendChild(li);
    }
    $('#tourney-players-h').hidden = !data.organiser;
    if (data.you && data.you.game && !led) {
      led = true;
      location.hash = data.you.game.replace(/^\//, '');
    }
  };
  const load = async () => {
    const r = await api('GET', `/api/tournaments/${id}?key=${encodeURIComponent(key)}`);
    if (!alive) return;
    $('#tourney-error-view').textContent = r.ok ? '' : serverText(r.data.error);
    if (r.ok) { data = r.data; draw(); }
  };
  load();
  const timer = setInterval(load, 3000); // games end meanwhile
  return { cleanup: () => { alive = false; clearInterval(timer); }, refresh: draw };
}
