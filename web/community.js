// SPDX-License-Identifier: MIT
// web/community.js: the community pages of `damier serve` (issue 19): signing up, in
// and out (#/account), profiles (#/user/NAME), the lobby of seeks (#/lobby, live on
// /ws/lobby), the leaderboard (#/leaderboard), and the players' accounts and ratings
// in a game. The API: docs/WEB.md "Accounts", "Lobby", "Ratings".
import { t, currentLang, setLang, onLangChange, serverText } from './i18n.js';
import { puzzleView } from './puzzles.js';

const $ = (sel) => document.querySelector(sel);

// The signed-in account ({name, lang, ratings, ...}) or null, and its CSRF token.
let me = null;
let csrf = '';

// Headers every request of the page carries: the CSRF token of the session.
export function authHeaders() { return csrf ? { 'X-CSRF-Token': csrf } : {}; }

async function api(method, path, body) {
  const opts = { method, headers: { ...authHeaders() } };
  if (body !== undefined) { opts.body = JSON.stringify(body); opts.headers['Content-Type'] = 'application/json'; }
  const res = await fetch(path, opts);
  let data = null;
  try { data = await res.json(); } catch (e) { data = { error: `HTTP ${res.status}` }; }
  return { status: res.status, ok: res.ok, data };
}

function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'dataset') Object.assign(e.dataset, v);
    else if (k in e) e[k] = v;
    else e.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

// The server's messages of this part, said in the page's language.
const ERRORS = [
  [/^wrong name or password$/, 'acct.err_wrong'],
  [/^too many failed sign-ins/, 'acct.err_slow'],
  [/^the name ".*" is taken$/, 'acct.err_taken'],
  [/^the name must be/, 'acct.err_name'],
  [/^the password must have/, 'acct.err_password'],
  [/^sign in/, 'acct.err_sign_in'],
  [/^this is your own seek$/, 'lobby.err_own'],
  [/^you have an open seek already/, 'lobby.err_one'],
  [/^no such open seek/, 'lobby.err_gone'],
];
function errText(e) {
  if (currentLang() !== 'en') for (const [re, key] of ERRORS) if (re.test(e || '')) return t(key);
  return serverText(e);
}

function variantLabel(v) {
  const opt = document.querySelector(`#new-game select[name=variant] option[value="${v}"]`);
  return opt ? opt.textContent : v;
}
function timeLabel(tc) {
  if (!tc || tc === '-') return t('tc.none');
  const opt = document.querySelector(`#new-game select[name=time] option[value="${tc}"]`);
  return opt ? opt.textContent : tc;
}

function setNav() {
  const a = $('#nav-account');
  if (a) a.textContent = me ? me.name : t('nav.account');
}

async function refreshMe() {
  const r = await api('GET', '/api/account');
  me = r.ok && r.data.account ? r.data.account : null;
  csrf = me ? r.data.csrf : '';
  setNav();
}

function signedIn(data) {
  me = data.account;
  csrf = data.csrf;
  setNav();
  if (me.lang && me.lang !== currentLang()) setLang(me.lang);
}

// ---- the views ------------------------------------------------------------------------

const root = () => $('#community');

function accountView() {
  const box = root();
  box.innerHTML = '';
  if (me) { profileView(me.name, true); return; }
  const msg = el('p', { className: 'error', role: 'alert', dataset: { testid: 'acct-error' } });
  const form = (id, title, button, path) => {
    const name = el('input', { name: 'name', autocomplete: 'username', required: true });
    const pw = el('input', { name: 'password', type: 'password', autocomplete: id === 'signup' ? 'new-password' : 'current-password', required: true });
    const f = el('form', { id: `acct-${id}` }, el('h2', {}, t(title)),
      el('label', {}, el('span', {}, t('acct.name')), ' ', name),
      el('label', {}, el('span', {}, t('acct.password')), ' ', pw),
      el('button', { type: 'submit' }, t(button)));
    f.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const body = { name: name.value.trim(), password: pw.value };
      if (id === 'signup') body.lang = currentLang();
      const r = await api('POST', path, body);
      if (!r.ok) { msg.textContent = errText(r.data.error); return; }
      signedIn(r.data);
      accountView();
    });
    return f;
  };
  box.append(el('h1', {}, t('acct.title')),
    el('div', { className: 'acct-forms' }, form('login', 'acct.sign_in', 'acct.sign_in_button', '/api/account/login'),
      form('signup', 'acct.sign_up', 'acct.sign_up_button', '/api/account/signup')),
    msg);
}

// An asynchronous view draws only if the page is still where it was when the view was
// asked for: a reply that comes after the player went on (e.g. to the puzzles right
// after signing up) must not replace the view he is on.
const stillAt = (hash) => location.hash === hash;

async function profileView(name, own) {
  const box = root();
  const at = location.hash;
  const r = await api('GET', `/api/users/${encodeURIComponent(name)}`);
  if (!stillAt(at)) return;
  box.innerHTML = '';
  if (!r.ok) { box.append(el('p', { className: 'error' }, errText(r.data.error))); return; }
  const p = r.data;
  box.append(el('h1', { dataset: { testid: 'profile-name' } }, p.title ? `${p.title} ${p.name}` : p.name));
  const kinds = Object.keys(p.ratings);
  const rt = el('table', { className: 'ratings', dataset: { testid: 'profile-ratings' } },
    el('thead', {}, el('tr', {}, el('th', {}, t('rank.kind')), el('th', {}, t('rank.rating')), el('th', {}, t('rank.games')))));
  const tb = el('tbody');
  for (const k of kinds) tb.append(el('tr', {}, el('td', {}, variantLabel(k)), el('td', {}, `${p.ratings[k].rating} ±${p.ratings[k].rd}`), el('td', {}, String(p.ratings[k].games))));
  rt.append(tb);
  box.append(el('h2', {}, t('acct.ratings')), kinds.length ? rt : el('p', {}, t('acct.unrated')));
  box.append(el('h2', {}, t('acct.games')));
  const ul = el('ul', { className: 'games', dataset: { testid: 'profile-games' } });
  for (const g of p.games) {
    const change = g.rating_after !== undefined ? ` ${g.rating_before} → ${g.rating_after}` : '';
    ul.append(el('li', {}, el('a', { href: g.link.replace(/^\//, '') }, `${variantLabel(g.variant)}: ${g.white} – ${g.black} ${g.result}${g.rated ? ` (${t('lobby.rated')})` : ''}${change}`)));
  }
  box.append(p.games.length ? ul : el('p', {}, t('acct.no_games')));
  if (own) {
    const out = el('button', { type: 'button', id: 'acct-logout' }, t('acct.sign_out'));
    out.addEventListener('click', async () => {
      await api('POST', '/api/account/logout');
      me = null; csrf = ''; setNav();
      accountView();
    });
    box.append(el('p', {}, out));
  }
}

async function leaderboardView(kind) {
  const box = root();
  const at = location.hash;
  const r = await api('GET', `/api/leaderboard?kind=${encodeURIComponent(kind)}`);
  if (!stillAt(at)) return;
  box.innerHTML = '';
  const sel = el('select', { id: 'rank-kind', 'aria-label': t('rank.kind') });
  for (const o of document.querySelectorAll('#new-game select[name=variant] option')) sel.append(el('option', { value: o.value }, o.textContent));
  sel.value = kind;
  sel.addEventListener('change', () => { location.hash = `#/leaderboard?kind=${sel.value}`; });
  box.append(el('h1', {}, t('rank.title')), el('label', {}, el('span', {}, t('home.variant')), ' ', sel));
  const list = r.ok ? r.data.players : [];
  if (!list.length) { box.append(el('p', {}, t('rank.empty'))); return; }
  const tb = el('tbody');
  list.forEach((p, i) => tb.append(el('tr', {}, el('td', {}, String(i + 1)),
    el('td', {}, el('a', { href: `#/user/${p.name}` }, p.title ? `${p.title} ${p.name}` : p.name)),
    el('td', {}, String(p.rating)), el('td', {}, String(p.games)))));
  box.append(el('table', { className: 'ratings', dataset: { testid: 'leaderboard' } },
    el('thead', {}, el('tr', {}, el('th', {}, '#'), el('th', {}, t('acct.name')), el('th', {}, t('rank.rating')), el('th', {}, t('rank.games')))), tb));
}

// The lobby: the seek form, the open seeks (live), the poster's own seek held by the
// socket, so that it goes when the page does.
function lobbyView() {
  const box = root();
  box.innerHTML = '';
  let seeks = [];
  let mine = null; // {id, owner}
  let ws = null;
  let closed = false;
  const msg = el('p', { className: 'error', role: 'alert' });
  const variant = el('select', { name: 'variant' });
  for (const o of document.querySelectorAll('#new-game select[name=variant] option')) variant.append(el('option', { value: o.value }, o.textContent));
  const time = el('select', { name: 'time' });
  for (const o of document.querySelectorAll('#new-game select[name=time] option')) if (o.value !== 'custom') time.append(el('option', { value: o.value }, o.textContent));
  time.value = '300';
  const color = el('select', { name: 'color' }, el('option', { value: 'random' }, t('home.random')), el('option', { value: 'white' }, t('side.White')), el('option', { value: 'black' }, t('side.Black')));
  const rated = el('input', { type: 'checkbox', name: 'rated', checked: !!me, disabled: !me });
  const name = el('input', { name: 'name', placeholder: t('lobby.anonymous'), maxLength: 30 });
  const form = el('form', { id: 'seek-form' },
    el('label', {}, el('span', {}, t('home.variant')), ' ', variant),
    el('label', {}, el('span', {}, t('home.time')), ' ', time),
    el('label', {}, el('span', {}, t('lobby.color')), ' ', color),
    el('label', {}, rated, ' ', el('span', {}, t(me ? 'lobby.rated' : 'lobby.rated_sign_in'))),
    me ? null : el('label', {}, el('span', {}, t('lobby.your_name')), ' ', name),
    el('button', { type: 'submit', id: 'seek-post' }, t('lobby.post')));
  const waiting = el('p', { className: 'status', dataset: { testid: 'seek-waiting' }, hidden: true });
  const cancel = el('button', { type: 'button', id: 'seek-cancel', hidden: true }, t('lobby.cancel'));
  const table = el('tbody', { dataset: { testid: 'seeks' } });
  box.append(el('h1', {}, t('lobby.title')), form, waiting, cancel, msg,
    el('h2', {}, t('lobby.open')),
    el('table', { className: 'seeks' }, el('thead', {}, el('tr', {}, el('th', {}, t('acct.name')), el('th', {}, t('rank.rating')),
      el('th', {}, t('home.variant')), el('th', {}, t('home.time')), el('th', {}, t('lobby.mode')), el('th', {}, t('lobby.color')), el('th', {}))), table));

  const goTo = (g) => {
    closed = true;
    if (ws) ws.close();
    const entry = { id: g.id, key: g.key, kind: 'human', you: g.you, created: Date.now() };
    try {
      const list = JSON.parse(localStorage.getItem('damier.games') || '[]').filter((x) => x.id !== g.id);
      list.unshift(entry);
      localStorage.setItem('damier.games', JSON.stringify(list.slice(0, 30)));
    } catch (e) { /* private mode */ }
    location.hash = `#/game/${g.id}/${g.key}`;
  };
  const sideText = (c) => (c === 'random' ? t('home.random') : t(c === 'white' ? 'side.White' : 'side.Black'));
  function render() {
    table.innerHTML = '';
    for (const k of seeks) {
      const own = mine && mine.id === k.id;
      const b = el('button', { type: 'button', className: 'accept', dataset: { seek: k.id } }, t('lobby.accept'));
      b.disabled = own || (k.rated && !me);
      b.addEventListener('click', async () => {
        const r = await api('POST', `/api/lobby/seeks/${k.id}/accept`, me ? {} : { name: name.value.trim() || undefined });
        if (!r.ok) { msg.textContent = errText(r.data.error); return; }
        goTo({ id: r.data.id, key: r.data.key, you: r.data.you });
      });
      table.append(el('tr', { dataset: { seek: k.id } }, el('td', {}, k.name), el('td', {}, k.account ? String(k.rating) : ''),
        el('td', {}, variantLabel(k.variant)), el('td', {}, timeLabel(k.time)), el('td', {}, t(k.rated ? 'lobby.rated' : 'lobby.casual')),
        el('td', {}, sideText(k.color)), el('td', {}, own ? t('lobby.yours') : b)));
    }
    if (!seeks.length) table.append(el('tr', {}, el('td', { colSpan: 7 }, t('lobby.none'))));
    waiting.hidden = !mine;
    cancel.hidden = !mine;
    waiting.textContent = mine ? t('lobby.waiting') : '';
    form.hidden = !!mine;
  }
  function connect() {
    if (closed) return;
    ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws/lobby`);
    ws.onopen = () => { if (mine) ws.send(JSON.stringify({ t: 'hold', seek: mine.id, owner: mine.owner })); };
    ws.onmessage = (ev) => {
      let m;
      try { m = JSON.parse(ev.data); } catch (e) { return; }
      if (m.t === 'seeks') { seeks = m.seeks; render(); }
      if (m.t === 'paired' && mine && m.seek === mine.id) goTo(m.game);
      if (m.t === 'error' && mine) { mine = null; render(); } // the seek is gone
    };
    ws.onclose = () => { if (!closed) setTimeout(connect, 1000); };
  }
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    msg.textContent = '';
    const body = { variant: variant.value, time: time.value, color: color.value, rated: rated.checked };
    if (!me && name.value.trim()) body.name = name.value.trim();
    const r = await api('POST', '/api/lobby/seeks', body);
    if (!r.ok) { msg.textContent = errText(r.data.error); return; }
    mine = { id: r.data.seek.id, owner: r.data.owner };
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ t: 'hold', seek: mine.id, owner: mine.owner }));
    render();
  });
  cancel.addEventListener('click', async () => {
    if (!mine) return;
    await api('POST', `/api/lobby/seeks/${mine.id}/cancel`, { owner: mine.owner });
    mine = null;
    render();
  });
  render();
  connect();
  return () => { closed = true; if (ws) ws.close(); };
}

// The community's views by the fragment's parts: {cleanup, refresh}, or null when
// the fragment is not one of them. show(name) shows the page's section.
export function communityView(parts, query, show) {
  const views = {
    account: () => accountView(),
    user: () => profileView(decodeURIComponent(parts[1] || ''), false),
    leaderboard: () => leaderboardView(query.get('kind') || 'international'),
    lobby: () => lobbyView(),
    puzzles: () => puzzleView(root(), parts[1] || '', api),
  };
  if (!views[parts[0]] || (parts[0] === 'user' && !parts[1])) return null;
  show('community');
  let cleanup = null;
  let refresh = null; // a view's own refresh (the puzzle keeps its position), else drawn again
  const render = () => {
    if (refresh) { refresh(); return; }
    if (cleanup) cleanup();
    const c = views[parts[0]]();
    cleanup = typeof c === 'function' ? c : c && c.cleanup ? c.cleanup : null;
    refresh = c && c.refresh ? c.refresh : null;
  };
  render();
  return { cleanup: () => { if (cleanup) cleanup(); }, refresh: render };
}

// ---- a game's players ---------------------------------------------------------------------

const claimed = new Set();

// The players' accounts and ratings under a game's status; a signed-in player's side
// linked to the account once (POST games/ID/claim).
export function gamePlayers(id, key, state) {
  const line = $('#game-players');
  if (!line) return;
  const p = state.players;
  const one = (side) => {
    const x = p && p[side];
    if (!x) return null;
    let s = `${x.title ? `${x.title} ` : ''}${x.name} (${x.rating})`;
    if (x.after !== undefined) s = t('game.rating_change', { name: x.name, before: x.rating, after: x.after, change: (x.change >= 0 ? '+' : '') + x.change });
    return s;
  };
  const w = one('white'), b = one('black');
  line.textContent = p ? [w && `${t('side.White')}: ${w}`, b && `${t('side.Black')}: ${b}`, t(p.rated ? 'lobby.rated' : 'lobby.casual')].filter(Boolean).join(' · ') : '';
  line.hidden = !p;
  const you = state.you;
  if (me && (you === 'white' || you === 'black') && state.mode !== 'review' && state.result === '*' &&
      !(p && p[you]) && !(p && p[you === 'white' ? 'black' : 'white'] && p[you === 'white' ? 'black' : 'white'].name === me.name) &&
      !claimed.has(id)) {
    claimed.add(id);
    api('POST', `/api/games/${id}/claim`, { key });
  }
}

// The account's language follows the switcher.
onLangChange((l) => {
  setNav();
  if (me && me.lang !== l) { me.lang = l; api('POST', '/api/account/lang', { lang: l }); }
});

await refreshMe();
