// SPDX-License-Identifier: MIT
// tests/web/pg_two.mjs: several `damier serve --pg URL` on one PostgreSQL (run-pg.sh
// makes the database). Checks, each server with its own SQLite file:
//  1. a game made on server A is found and played on server B (read on a miss);
//  2. a move POSTed to A reaches a WebSocket connected to B: the time from sending the
//     POST to B's socket receiving the state with the move, MOVES times; each under
//     LIMIT_MS (100) when the machine is not busy (the 1-minute load average below
//     the number of cores), the median under 3 x LIMIT_MS when it is;
//  3. a server that did not hear of a move (C, started deaf: DAMIER_SERVE_TEST_DEAF)
//     and plays the same ply is refused by the store's unique (game, ply): 409, and it
//     then has the game as stored;
//  4. the two sides' moves sent to A and B at the same moment, ROUNDS times: one 200,
//     one 409 each time, and A and B end with the same moves (the PDN identical);
//  5. A stopped and started again on a new, empty SQLite file restores the game from
//     PostgreSQL, and its moves still reach B;
//  6. an engine game made on A and moved on B gets one engine reply;
//  7. a page (Chromium) open on B shows each move POSTed to A: the time from sending
//     the POST to the page's state at the new ply (noted by the page), each under
//     LIMIT_MS when the machine is not busy, the median under 10 x LIMIT_MS when it is.
//   node tests/web/pg_two.mjs --damier build/damier --pg postgresql://USER@HOST:PORT/DB
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { chromium } from 'playwright-core';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const DAMIER = opt('damier', process.env.DAMIER || 'build/damier');
const PG = opt('pg', process.env.DAMIER_PG_URL);
const MOVES = 12;
const ROUNDS = 6;
const LIMIT_MS = Number(process.env.LIMIT_MS || 100);
const dir = mkdtempSync(join(tmpdir(), 'damier-pg2-'));
const procs = new Set();
const sockets = [];
let browser = null;

function cleanup() {
  if (browser) browser.close().catch(() => {});
  for (const s of sockets) s.terminate();
  for (const p of procs) p.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
}
function fail(msg) {
  console.error(`FAILED: ${msg}`);
  cleanup();
  process.exit(1);
}
function check(cond, msg) {
  if (!cond) fail(msg);
}
process.on('unhandledRejection', (e) => fail(`${e && e.stack ? e.stack : e}`));

function start(name, db, env = {}) {
  const p = spawn(DAMIER, ['serve', '--port', '0', '--db', join(dir, db), '--pg', PG, '--engine-threads', '1'],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  procs.add(p);
  let errText = '';
  p.stderr.on('data', (d) => { errText += d; });
  return new Promise((resolve, reject) => {
    let out = '';
    p.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/:(\d+)\//);
      if (m) resolve({ name, proc: p, url: `http://127.0.0.1:${m[1]}` });
    });
    p.on('exit', (c) => { procs.delete(p); reject(new Error(`server ${name} exited ${c}: ${errText}`)); });
  });
}

async function stop(srv) {
  const done = new Promise((resolve) => srv.proc.on('exit', resolve));
  srv.proc.kill('SIGTERM');
  await done;
}

// Each request on a connection of its own (agent: false, "Connection: close"): a
// kept-alive connection can be closed by the server (civetweb closes an idle one after
// 500 ms) in the same turn of the event loop that sends the next request on it, before
// the close is seen ("other side closed", twice in fresh-clone runs after stopping C).
function send(srv, method, path, body) {
  const data = body ? JSON.stringify(body) : undefined;
  const headers = data ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(data) } : {};
  return new Promise((resolve, reject) => {
    const req = request(`${srv.url}/api/${path}`, { method, agent: false, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => { text += d; });
      res.on('end', () => resolve({ status: res.statusCode, text }));
      res.on('error', reject);
    });
    req.on('error', (e) => reject(new Error(`${method} ${srv.name} /api/${path}: ${e.message}${srv.proc.exitCode !== null || srv.proc.signalCode ? ` (server ${srv.name} ended: ${srv.proc.exitCode} ${srv.proc.signalCode})` : ''}`)));
    if (data) req.write(data);
    req.end();
  });
}

async function api(srv, method, path, body) {
  const r = await send(srv, method, path, body);
  let json = null;
  try { json = JSON.parse(r.text); } catch { json = { raw: r.text }; }
  return { status: r.status, body: json };
}

const state = (srv, g, key) => api(srv, 'GET', `games/${g.id}?key=${key}`);
const move = (srv, g, key, mv, ply) => api(srv, 'POST', `games/${g.id}/move`, { key, move: mv, ply });

// A socket on srv watching g; next(ply) resolves with the first state at that ply or later.
function watch(srv, g, key) {
  const ws = new WebSocket(`${srv.url.replace(/^http/, 'ws')}/ws/game?id=${g.id}&key=${key}`);
  sockets.push(ws);
  let last = null;
  let waiter = null;
  ws.on('message', (data) => {
    const m = JSON.parse(data);
    if (m.t !== 'state') return;
    last = m;
    if (waiter && m.ply >= waiter.ply) { const w = waiter; waiter = null; w.resolve(m); }
  });
  const opened = new Promise((resolve, reject) => { ws.on('open', resolve); ws.on('error', reject); });
  return {
    opened,
    next(ply, ms = 5000) {
      if (last && last.ply >= ply) return Promise.resolve(last);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${srv.name}'s socket: no state at ply ${ply} in ${ms} ms`)), ms);
        waiter = { ply, resolve: (m) => { clearTimeout(timer); resolve(m); } };
      });
    },
  };
}

// g's state on srv once it reaches ply (the notice may be on its way), polled.
async function stateAt(srv, g, key, ply) {
  for (let i = 0; i < 100; i++) {
    const s = await state(srv, g, key);
    if (s.status === 200 && s.body.ply >= ply) return s.body;
    await new Promise((r) => setTimeout(r, 20));
  }
  fail(`${srv.name}: game ${g.id} never reached ply ${ply}`);
}

const load0 = loadavg()[0];
const busy = load0 >= cpus().length;
let A = await start('A', 'a.sqlite');
const B = await start('B', 'b.sqlite');

// 1. made on A, found and played on B
const made = await api(A, 'POST', 'games', { opponent: 'human', time: '600+5' });
check(made.status === 201, `create on A: ${made.status} ${JSON.stringify(made.body)}`);
const key = (s) => made.body.links[s].split('/').pop();
const g = { id: made.body.id, white: key('white'), black: key('black') };
const keyOf = (side) => (side === 'white' ? g.white : g.black);
const onB = await state(B, g, g.white);
check(onB.status === 200 && onB.body.ply === 0, `game made on A read on B: ${onB.status} ${JSON.stringify(onB.body).slice(0, 200)}`);
const first = await move(B, g, g.white, onB.body.legal[0].hub, 0);
check(first.status === 200 && first.body.ply === 1, `a move on B: ${first.status} ${JSON.stringify(first.body).slice(0, 200)}`);
const seenOnA = await stateAt(A, g, g.black, 1);
check(seenOnA.moves[0].hub === onB.body.legal[0].hub, 'A has the move played on B');
console.log(`1. game ${g.id} made on A, played on B: ok`);

// 2. A's moves on B's socket
const sockB = watch(B, g, g.white);
await sockB.opened;
await sockB.next(1);
const lat = [];
let ply = 1;
for (let i = 0; i < MOVES; i++) {
  const s = await stateAt(A, g, g.white, ply);
  const k = keyOf(s.turn);
  const mine = await state(A, g, k);
  const t0 = performance.now();
  const [r, m] = await Promise.all([move(A, g, k, mine.body.legal[0].hub, ply), sockB.next(ply + 1)]);
  lat.push(performance.now() - t0);
  check(r.status === 200, `move ${ply + 1} on A: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
  check(m.ply === ply + 1 && m.moves[ply].hub === mine.body.legal[0].hub, `B's socket got move ${ply + 1}`);
  ply++;
}
const sorted = [...lat].sort((a, b) => a - b);
const median = sorted[Math.floor(sorted.length / 2)];
const worst = sorted[sorted.length - 1];
console.log(`2. move POSTed to A -> state on B's WebSocket: median ${median.toFixed(1)} ms, max ${worst.toFixed(1)} ms over ${MOVES} moves (all: ${lat.map((x) => x.toFixed(1)).join(' ')}); load ${load0.toFixed(2)} on ${cpus().length} cores`);
// on a busy machine (load at or above the cores) the three processes wait for the CPU
// (a median of 105 ms was seen at load 13 on 2 cores): the median is held to
// 3 x LIMIT_MS there and the max is not judged; a path that loses the NOTIFY still fails
const wsLimit = busy ? 3 * LIMIT_MS : LIMIT_MS;
check(median < wsLimit, `the median A->B time ${median.toFixed(1)} ms is over ${wsLimit} ms`);
if (busy) console.log(`   (the machine is busy: the max is not judged, the median against ${wsLimit} ms)`);
else check(worst < LIMIT_MS, `the slowest A->B time ${worst.toFixed(1)} ms is over ${LIMIT_MS} ms`);

// 3. a deaf server plays a ply already taken: 409 from the unique (game, ply)
const C = await start('C', 'c.sqlite', { DAMIER_SERVE_TEST_DEAF: '1' });
const onC = await state(C, g, g.white);
check(onC.status === 200 && onC.body.ply === ply, `C read the game at ply ${ply}: ${onC.body.ply}`);
const moverKey = keyOf(onC.body.turn);
const stale = await state(C, g, moverKey);
const onA = await move(A, g, moverKey, stale.body.legal[0].hub, ply);
check(onA.status === 200, `move on A: ${onA.status}`);
const lost = await move(C, g, moverKey, stale.body.legal[stale.body.legal.length - 1].hub, ply);
check(lost.status === 409 && /another server/.test(lost.body.error), `C's move of a taken ply: ${lost.status} ${JSON.stringify(lost.body)}`);
ply++;
const cNow = await state(C, g, g.white);
check(cNow.body.ply === ply && cNow.body.moves[ply - 1].hub === stale.body.legal[0].hub, `C has the game as stored after the 409 (ply ${cNow.body.ply})`);
await stop(C);
console.log(`3. a stale server's move of a taken ply: 409 "${lost.body.error}"; then read again: ok`);

// 4. the same side's move sent to A and B at once
let conflicts = 0;
for (let i = 0; i < ROUNDS; i++) {
  const s = await stateAt(B, g, g.white, ply);
  await stateAt(A, g, g.white, ply);
  const k = keyOf(s.turn);
  const mine = await state(A, g, k);
  const legal = mine.body.legal;
  const [ra, rb] = await Promise.all([move(A, g, k, legal[0].hub), move(B, g, k, legal[legal.length - 1].hub)]);
  const st = [ra.status, rb.status].sort().join(',');
  check(st === '200,409', `round ${i + 1}: A ${ra.status} ${JSON.stringify(ra.body).slice(0, 120)}, B ${rb.status} ${JSON.stringify(rb.body).slice(0, 120)}`);
  const loser = ra.status === 409 ? ra : rb;
  if (/another server/.test(loser.body.error)) conflicts++;
  ply++;
}
const endA = await stateAt(A, g, g.white, ply);
const endB = await stateAt(B, g, g.white, ply);
check(endA.ply === ply && endB.ply === ply, `A at ${endA.ply}, B at ${endB.ply}, ${ply} moves made`);
const pdnA = await send(A, 'GET', `games/${g.id}/pdn?key=${g.white}`).then((r) => r.text);
const pdnB = await send(B, 'GET', `games/${g.id}/pdn?key=${g.white}`).then((r) => r.text);
check(pdnA === pdnB && pdnA.includes('['), 'A and B give the same PDN');
console.log(`4. ${ROUNDS} rounds of one move sent to A and B at once: one 200 and one 409 each (${conflicts} refused by the store's unique ply, the others by the side to move); the PDN the same on both: ok`);

// 5. A again, on a new SQLite file: the game comes from PostgreSQL
await stop(A);
A = await start('A2', 'a2.sqlite');
const back = await state(A, g, g.white);
check(back.status === 200 && back.body.ply === ply && JSON.stringify(back.body.moves) === JSON.stringify(endB.moves), `A restarted: ${back.status} ply ${back.body.ply}`);
const k = keyOf(back.body.turn);
const mine = await state(A, g, k);
const [r5, m5] = await Promise.all([move(A, g, k, mine.body.legal[0].hub, ply), sockB.next(ply + 1)]);
check(r5.status === 200 && m5.ply === ply + 1, 'a move on the restarted A reaches B');
console.log(`5. A restarted on an empty SQLite file: the game restored from PostgreSQL (ply ${ply}), its next move on B's socket: ok`);

// 6. an engine game made on A, the person's move made on B: the engine's reply is
// played once (by B, which stored the move), and A's socket sees both
const eg = await api(A, 'POST', 'games', { opponent: 'engine', level: 1, side: 'white' });
check(eg.status === 201, `engine game on A: ${eg.status} ${JSON.stringify(eg.body).slice(0, 200)}`);
const e = { id: eg.body.id };
const ekey = eg.body.key;
const eState = await state(B, e, ekey);
check(eState.status === 200 && eState.body.you === 'white' && eState.body.ply === 0, `engine game read on B: ${eState.status} ${JSON.stringify(eState.body).slice(0, 200)}`);
const sockA = watch(A, e, ekey);
await sockA.opened;
const eMove = await move(B, e, ekey, eState.body.legal[0].hub, 0);
check(eMove.status === 200, `the person's move on B: ${eMove.status}`);
const replied = await sockA.next(2, 20000);
check(replied.ply === 2 && replied.moves[0].hub === eState.body.legal[0].hub, "A's socket has the engine's reply");
await new Promise((r) => setTimeout(r, 500)); // a second engine move would be there by now
const eA = await stateAt(A, e, ekey, 2);
const eB = await stateAt(B, e, ekey, 2);
check(eA.ply === 2 && eB.ply === 2 && JSON.stringify(eA.moves) === JSON.stringify(eB.moves), `one engine reply: A at ply ${eA.ply}, B at ply ${eB.ply}`);
console.log(`6. an engine game made on A, moved on B: one engine reply, on both: ok`);

// 7. a page on B: the moves POSTed to A on the board of a browser connected to B
browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
const pg = await api(A, 'POST', 'games', { opponent: 'human', time: '600+5' });
check(pg.status === 201, `a game for the page on A: ${pg.status}`);
const pkey = (side) => pg.body.links[side].split('/').pop();
const pgame = { id: pg.body.id };
const page = await browser.newPage();
await page.goto(`${B.url}${pg.body.links.black}`);
await page.waitForFunction(() => window.damierState && window.damierState.you === 'black', null, { timeout: 10000 });
// the page notes (wall clock, ms) when its state first reaches each ply: the time is
// taken in the page, not by polling it from here
await page.evaluate(() => {
  window.seenAt = {};
  const note = () => {
    const st = window.damierState;
    if (st && !(st.ply in window.seenAt)) window.seenAt[st.ply] = Date.now();
  };
  setInterval(note, 1);
});
const plat = [];
for (let p = 0; p < MOVES; p++) {
  const side = p % 2 === 0 ? 'white' : 'black';
  const mine = await state(A, pgame, pkey(side));
  const mv = mine.body.legal[0].hub;
  const t0 = Date.now();
  const r = await move(A, pgame, pkey(side), mv, p);
  check(r.status === 200, `move ${p + 1} of the page's game on A: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
  await page.waitForFunction((n) => window.seenAt && n in window.seenAt, p + 1, { timeout: 5000 });
  plat.push((await page.evaluate((n) => window.seenAt[n], p + 1)) - t0);
}
const shown = await page.textContent('#move-list');
const last = (await state(A, pgame, pkey('white'))).body.moves;
check(last.length === MOVES && shown.includes(last[MOVES - 1].text), `the page on B lists the moves (${shown.slice(0, 120)})`);
const psorted = [...plat].sort((a, b) => a - b);
const pmedian = psorted[Math.floor(psorted.length / 2)];
const pworst = psorted[psorted.length - 1];
const pbusy = loadavg()[0] >= cpus().length;
console.log(`7. move POSTed to A -> shown by a page on B: median ${pmedian} ms, max ${pworst} ms over ${MOVES} moves (all: ${plat.join(' ')}); load ${loadavg()[0].toFixed(2)}`);
// a browser's renderer shares the CPU with the servers: on a busy machine (load at or
// above the cores) the median is held to 10 x LIMIT_MS, a broken path still failing
if (pbusy) {
  console.log(`   (the machine is busy: the max is not judged, the median against ${10 * LIMIT_MS} ms)`);
  check(pmedian < 10 * LIMIT_MS, `the median A->page on B time ${pmedian} ms is over ${10 * LIMIT_MS} ms`);
} else {
  check(pmedian < LIMIT_MS, `the median A->page on B time ${pmedian} ms is over ${LIMIT_MS} ms`);
  check(pworst < LIMIT_MS, `the slowest A->page on B time ${pworst} ms is over ${LIMIT_MS} ms`);
}
await page.close();
cleanup();
console.log('pg_two: ok');
process.exit(0);
