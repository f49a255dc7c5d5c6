// SPDX-License-Identifier: MIT
// tests/web/e2e.mjs: the web board in a real browser: Debian's Chromium, headless,
// driven by playwright-core (never a downloaded browser). Run by run-e2e.sh (CTest
// web_e2e) with DAMIER (the binary), WEB_STATIC (web/), OUT (screenshots, the
// database) and CHROMIUM set. Prints one line per test, then "N passed, N failed".
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const DAMIER = process.env.DAMIER;
const STATIC = process.env.WEB_STATIC;
const OUT = process.env.OUT || '/tmp/damier-web-e2e';
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
mkdirSync(OUT, { recursive: true });
const DB = `${OUT}/e2e.sqlite`;
for (const f of [DB, `${DB}-wal`, `${DB}-shm`]) rmSync(f, { force: true });

// a 2-3 piece endgame database for the analysis board (damier serve --egdb)
const EGDB = `${OUT}/egdb`;
rmSync(EGDB, { recursive: true, force: true });
mkdirSync(EGDB, { recursive: true });
const gen = spawnSync(DAMIER, ['egdb', 'gen', '--pieces', '3', '--dir', EGDB], { encoding: 'utf8' });
if (gen.status !== 0) throw new Error(`damier egdb gen: ${gen.stderr}`);
// and a 2-piece English one: a second --egdb, probed by the English analyses only
const EGDB8 = `${OUT}/egdb-english`;
rmSync(EGDB8, { recursive: true, force: true });
const gen8 = spawnSync(DAMIER, ['egdb', 'gen', '--pieces', '2', '--variant', 'english', '--dir', EGDB8], { encoding: 'utf8' });
if (gen8.status !== 0) throw new Error(`damier egdb gen --variant english: ${gen8.stderr}`);

// a small library of master games (damier serve --library): written here, so that the
// test needs nothing outside the repository
const LIBRARY = `${OUT}/library`;
rmSync(LIBRARY, { recursive: true, force: true });
mkdirSync(LIBRARY, { recursive: true });
writeFileSync(`${LIBRARY}/champions.pdn`, [
  '[Event "Test match"]\n[Date "1973.05.01"]\n[White "T. Sijbrands"]\n[Black "H. Wiersma"]\n[Result "2-0"]\n\n1. 32-28 19-23 2. 28x19 14x23 3. 37-32 2-0\n',
  '[Event "Test match"]\n[Date "1973.05.02"]\n[White "H. Wiersma"]\n[Black "T. Sijbrands"]\n[Result "1-1"]\n\n1. 32-28 19-23 2. 28x19 13x24 1-1\n',
  '[Event "Other"]\n[Date "2001.01.01"]\n[White "A"]\n[Black "B"]\n[Result "0-2"]\n\n1. 33-28 18-23 0-2\n',
].join('\n'));

let server = null;
let port = 0;

// env: more environment variables (the server's test hooks)
function startServer(env = {}) {
  return new Promise((resolve, reject) => {
    const p = spawn(DAMIER, ['serve', '--port', String(port), '--db', DB, '--static', STATIC, '--egdb', EGDB, '--egdb', EGDB8, '--library', LIBRARY, '--quiet'], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no start: ${out}`)), 10000);
    p.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/listening on http:\/\/[^:]+:(\d+)\//);
      if (m) { clearTimeout(timer); port = Number(m[1]); server = p; resolve(); }
    });
    p.on('exit', (code) => { if (!server) reject(new Error(`exited ${code}: ${out}`)); });
  });
}

function killServer(signal = 'SIGKILL') {
  return new Promise((resolve) => {
    if (!server) return resolve();
    server.on('exit', () => resolve());
    server.kill(signal);
    server = null;
  });
}

const base = () => `http://127.0.0.1:${port}`;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function waitFor(fn, ms = 10000, what = 'condition') {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

function check(cond, what) {
  if (!cond) throw new Error(`check failed: ${what}`);
}

// A square is clicked with force (a piece lies over it), so Playwright does not wait for
// the board: when the page is drawing the board again with a server answer, the square
// can be replaced under the click ('Element is not visible', 1 full run in 4 under
// load). Wait for the square, and click again only when the click never happened.
const clickSq = async (page, s) => {
  const sel = `#view-game [data-testid=sq-${s}]`;
  for (let tries = 1; ; tries++) {
    await page.waitForSelector(sel, { state: 'visible' });
    try {
      return await page.click(sel, { force: true, timeout: 5000 });
    } catch (e) {
      if (tries >= 3 || !/not visible|not attached|detached/.test(String(e))) throw e;
    }
  }
};
const gameState = (page) => page.evaluate(() => window.damierState);

async function newGame(page, opts) {
  await page.goto(`${base()}/#/`);
  if (opts.variant) await page.selectOption('select[name=variant]', opts.variant);
  await page.check(`input[name=opponent][value=${opts.opponent}]`);
  await page.selectOption('select[name=side]', opts.side || 'white');
  if (opts.level) await page.selectOption('select[name=level]', String(opts.level));
  if (opts.time) {
    await page.selectOption('select[name=time]', 'custom');
    await page.fill('input[name=custom_time]', opts.time);
  }
  if (opts.fen) await page.fill('input[name=fen]', opts.fen);
  if (opts.touchMove) await page.check('input[name=touch_move]');
  if (opts.handicap) await page.selectOption('select[name=handicap]', String(opts.handicap));
  await page.click('#create');
  await page.waitForFunction(() => window.damierState && window.damierState.id);
  return page.evaluate(() => window.damierState.id);
}

// Play move m ({path}) by clicking its squares: the from square, then the landing
// squares until the board takes it.
async function clickMove(page, m) {
  const before = (await gameState(page)).ply;
  await clickSq(page, m.path[0]);
  await clickSq(page, m.path[m.path.length - 1]);
  // where several captures end there, the page asks for the landing squares in order
  for (let k = 1; k < m.path.length - 1; k++) {
    const done = await page.evaluate((p) => window.damierState.ply > p, before);
    if (done) break;
    const sel = await page.evaluate(() => window.damierBoard.sel.length);
    if (sel === 0) await clickSq(page, m.path[0]);
    await clickSq(page, m.path[k]);
  }
  await page.waitForFunction((p) => window.damierState.ply > p || window.damierState.result !== '*', before);
}

const tests = [];
const test = (name, fn) => tests.push({ name, fn });

let browser;
// the community's pages (accounts, lobby, ratings): e2e_community.mjs
(await import('./e2e_community.mjs')).register({ test, base, check, waitFor, gameState, clickSq, OUT, browser: () => browser });
// the board for players who cannot see (keyboard, screen reader, axe-core): e2e_access.mjs
(await import('./e2e_access.mjs')).register({ test, base, check, waitFor, gameState, browser: () => browser });
// the simultaneous display and the blindfold simul: e2e_forms.mjs
(await import('./e2e_forms.mjs')).register({ test, base, check, waitFor, gameState, browser: () => browser });
// the course (lessons judged by the rules core): e2e_learn.mjs
(await import('./e2e_learn.mjs')).register({ test, base, check, waitFor, browser: () => browser, checkNoEnglish: (p, w) => checkNoEnglish(p, w) });

test('a whole game against the engine by clicks', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  await newGame(page, { opponent: 'engine', side: 'white', level: 1 });
  let st = await gameState(page);
  check(st.mode === 'engine' && st.you === 'white', 'an engine game as White');
  let shot = false;
  for (let i = 0; i < 150 && st.result === '*'; i++) {
    await page.waitForFunction(() => window.damierState.result !== '*' || (window.damierState.turn === 'white' && window.damierState.legal.length > 0), null, { timeout: 15000 });
    st = await gameState(page);
    if (st.result !== '*') break;
    // the move that captures the most, else the most advanced man's move
    const legal = st.legal.slice().sort((a, b) => b.captured.length - a.captured.length || a.path[a.path.length - 1] - b.path[b.path.length - 1]);
    await clickMove(page, legal[0]);
    st = await gameState(page);
    if (!shot && st.ply >= 6) {
      await page.screenshot({ path: `${OUT}/game-desktop.png` });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: `${OUT}/game-phone.png`, fullPage: true });
      await page.setViewportSize({ width: 1280, height: 860 });
      shot = true;
    }
  }
  st = await gameState(page);
  if (st.result === '*') {
    page.once('dialog', (d) => d.accept());
    await page.click('#btn-resign');
    await page.waitForFunction(() => window.damierState.result !== '*');
    st = await gameState(page);
  }
  const status = await page.textContent('#game-status');
  check(st.result !== '*' && status.includes(st.reason), `game over with the reason shown (${status})`);
  await page.screenshot({ path: `${OUT}/game-over.png` });
  // the PDN of the game
  const pdn = await page.evaluate(async () => (await fetch(document.querySelector('#btn-pdn').href)).text());
  check(pdn.includes(`[Result "${st.result}"]`) && pdn.includes('1. '), 'PDN download');
  console.log(`    ${st.ply} plies, ${st.result} ${st.reason}`);
  await page.close();
});

test('two players by links, the clock runs out', async () => {
  const ctxA = await browser.newContext({ viewport: { width: 1100, height: 800 } });
  const ctxB = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const a = await ctxA.newPage();
  const b = await ctxB.newPage();
  await newGame(a, { opponent: 'human', side: 'white', time: '4' });
  const link = await a.inputValue('[data-testid=link-black]');
  check(link.includes('/#/game/'), 'a link for Black');
  await b.goto(link);
  await b.waitForFunction(() => window.damierState && window.damierState.you === 'black');
  const spectator = await a.inputValue('[data-testid=link-spectator]');
  await clickMove(a, { path: [32, 28] });
  await b.waitForFunction(() => window.damierState.ply === 1);
  await clickMove(b, { path: [19, 23] });
  await a.waitForFunction(() => window.damierState.ply === 2);
  check((await a.textContent('#move-list')).includes('19-23'), 'Black\'s move on White\'s page');
  // White lets the clock run out: the server declares it on both pages
  await a.waitForFunction(() => window.damierState.result === '0-2', null, { timeout: 10000 });
  await b.waitForFunction(() => window.damierState.result === '0-2', null, { timeout: 5000 });
  const sa = await a.textContent('#game-status'), sb = await b.textContent('#game-status');
  check(sa.includes('loss on time') && sb.includes('loss on time'), `loss on time shown (${sa} / ${sb})`);
  await b.screenshot({ path: `${OUT}/flag-phone.png`, fullPage: true });
  // a spectator sees it too and cannot play
  const c = await ctxB.newPage();
  await c.goto(spectator);
  await c.waitForFunction(() => window.damierState && window.damierState.you === 'spectator');
  check((await c.evaluate(() => window.damierState.result)) === '0-2', 'the spectator sees the result');
  await ctxA.close();
  await ctxB.close();
});

test('a multi-capture chosen square by square', async () => {
  const page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
  // the king on 43 takes two ways to 1: 43x27x18x1 (32, 22, 7) or 43x21x12x1 (32, 17, 7)
  await newGame(page, { opponent: 'human', side: 'white', fen: 'W:WK43:B7,17,22,32' });
  await clickSq(page, 43);
  await page.click('#btn-numbers');
  await page.screenshot({ path: `${OUT}/capture-choice.png` });
  await clickSq(page, 1);
  const message = await page.textContent('#game-message');
  check(message.includes('landing squares'), `asks for the landing squares (${message})`);
  check((await gameState(page)).ply === 0, 'nothing played yet');
  await clickSq(page, 21);
  await page.waitForFunction(() => window.damierState.ply === 1);
  const st = await gameState(page);
  check(st.moves[0].text === '43x21x12x1', `the path chosen (${st.moves[0].text})`);
  check(JSON.stringify(st.moves[0].captured) === '[7,17,32]', 'its captured pieces');
  await page.screenshot({ path: `${OUT}/capture-done.png` });
  // keyboard entry: an ambiguous move is refused with the candidates
  await page.close();
});

test('keyboard entry of moves', async () => {
  const page = await browser.newPage();
  await newGame(page, { opponent: 'human', side: 'white' });
  await page.fill('#move-input', '32-23');
  await page.press('#move-input', 'Enter');
  await page.waitForFunction(() => document.querySelector('#game-message').textContent.includes('illegal'));
  await page.fill('#move-input', '32-28');
  await page.press('#move-input', 'Enter');
  await page.waitForFunction(() => window.damierState.ply === 1);
  await page.close();
});

test('a move by dragging the piece', async () => {
  const page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
  await newGame(page, { opponent: 'human', side: 'white' });
  // the state arrives before the board is drawn: wait for the squares (boundingBox is
  // null until then; this failed now and then on a loaded machine)
  await page.waitForSelector('#view-game [data-testid=sq-33]', { state: 'visible' });
  await page.waitForFunction(() => window.damierState.legal && window.damierState.legal.length > 0);
  const box = async (s) => page.locator(`#view-game [data-testid=sq-${s}]`).boundingBox();
  const a = await box(33), b = await box(29);
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 8 });
  await page.mouse.up();
  await page.waitForFunction(() => window.damierState.ply === 1);
  const st = await gameState(page);
  check(st.moves[0].text === '33-29', `dragged 33-29 (${st.moves[0].text})`);
  await sleep(200);
  check((await gameState(page)).ply === 1, 'played once');
  await page.close();
});

test('a takeback asked and granted between two pages', async () => {
  const ctxA = await browser.newContext();
  const ctxB = await browser.newContext();
  const a = await ctxA.newPage();
  const b = await ctxB.newPage();
  await newGame(a, { opponent: 'human', side: 'white' });
  await b.goto(await a.inputValue('[data-testid=link-black]'));
  await b.waitForFunction(() => window.damierState && window.damierState.you === 'black');
  await clickMove(a, { path: [34, 30] });
  await a.click('#btn-takeback');
  await b.waitForFunction(() => window.damierState.takeback_offer === 'white');
  check((await b.textContent('#game-message')).includes('take back'), 'Black is asked');
  await b.click('#btn-tb-accept');
  await a.waitForFunction(() => window.damierState.ply === 0 && window.damierState.turn === 'white');
  await clickMove(a, { path: [32, 28] });
  check((await gameState(a)).moves[0].text === '32-28', 'another move played');
  await ctxA.close();
  await ctxB.close();
});

test('touch-move: a piece picked up must be played, the server refuses another; "I adjust" frees the touch', async () => {
  const ctxA = await browser.newContext();
  const ctxB = await browser.newContext();
  const a = await ctxA.newPage();
  const b = await ctxB.newPage();
  await newGame(a, { opponent: 'human', side: 'white', touchMove: true });
  await b.goto(await a.inputValue('[data-testid=link-black]'));
  await b.waitForFunction(() => window.damierState && window.damierState.you === 'black');
  for (const p of [a, b]) await p.waitForSelector('#view-game [data-testid=sq-32]', { state: 'visible' });
  check((await gameState(a)).touch_move === true, 'the game is played with touch-move');
  check(await a.isVisible('#btn-adjust'), '"I adjust" offered to the player to move');
  // White picks up 32: it must be played
  await clickSq(a, 32);
  await a.waitForFunction(() => window.damierState.touched === 32);
  await b.waitForFunction(() => window.damierState.touched === 32); // shown to both
  check((await a.textContent('#game-status')).includes('32 must be played'), 'the status says which piece');
  // another piece cannot be taken instead: not on the board, not through the API
  await clickSq(a, 31);
  check((await a.evaluate(() => window.damierBoard.sel.join(','))) !== '31', 'piece 31 is not picked up');
  const api = await a.evaluate(async () => {
    const s = window.damierState;
    const key = location.hash.split('/')[3];
    const r = await fetch(`/api/games/${s.id}/move`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ key, move: '31-27' }) });
    return { status: r.status, body: await r.json() };
  });
  check(api.status === 400, `the server refuses 31-27 (${api.status} ${api.body.error})`);
  await clickMove(a, { path: [32, 28] });
  check((await gameState(a)).moves[0].text === '32-28', 'the touched piece played');
  // Black announces "I adjust" (key j), picks up 19 and puts it back, plays 18-23
  await b.waitForFunction(() => window.damierState.turn === 'black' && !document.querySelector('#btn-adjust').hidden);
  await b.keyboard.press('j');
  await b.waitForFunction(() => document.querySelector('#game-message').textContent.length > 0);
  // a piece picked up is announced (POST touch) and the board drawn again with the
  // answer: wait for it before the next click, which would otherwise land on a square
  // being replaced
  const touched = (p, sq) => Promise.all([p.waitForResponse((r) => r.url().endsWith('/touch')), clickSq(p, sq)]);
  await touched(b, 19);
  check((await gameState(b)).touched === 0, 'after "I adjust" the touch commits nothing');
  await clickSq(b, 19); // put it back
  await touched(b, 18);
  await clickSq(b, 23);
  await b.waitForFunction(() => window.damierState.ply === 2);
  check((await gameState(b)).moves[1].text === '18-23', 'another piece played after adjusting');
  await ctxA.close();
  await ctxB.close();
});

test('a handicap game: the engine gives 3 men, the PDN keeps the start and reads back', async () => {
  const page = await browser.newPage();
  await newGame(page, { opponent: 'engine', side: 'white', level: 1, handicap: 3 });
  await page.waitForSelector('#view-game [data-testid=sq-32]', { state: 'visible' });
  let st = await gameState(page);
  check(st.start_fen === 'W:W31-50:B1,2,6-20', `Black (the engine) without 5, 4, 3 (${st.start_fen})`);
  check(await page.locator('#game-board g.piece.black').count() === 17, '17 black men on the board');
  await clickMove(page, { path: [32, 28] });
  await waitPly(page, 2);
  const pdn = await page.evaluate(async () => (await fetch(document.querySelector('#btn-pdn').href)).text());
  check(pdn.includes('[FEN "W:W31-50:B1,2,6-20"]') && pdn.includes('[SetUp "1"]'), 'the PDN has the handicap start');
  writeFileSync(`${OUT}/handicap.pdn`, pdn);
  const r = spawnSync(DAMIER, ['pdn', 'check', `${OUT}/handicap.pdn`], { encoding: 'utf8' });
  check(r.status === 0 && r.stdout.includes('1 legal'), `damier pdn check reads it as legal (${r.stdout.trim()})`);
  await page.close();
});

test('a correspondence game: days per move from the form, the clock in days, the start view\'s "your turn" list, a deadline passed while the server was down', async () => {
  const page = await browser.newPage();
  await page.goto(`${base()}/#/`);
  await page.check('input[name=opponent][value=human]');
  await page.selectOption('select[name=side]', 'white');
  await page.selectOption('select[name=time]', 'corr:3');
  check(await page.isVisible('[data-testid=corr-budget]'), 'the budget field shows for correspondence');
  await page.fill('[data-testid=corr-budget]', '30');
  await page.click('#create');
  await page.waitForFunction(() => window.damierState && window.damierState.id);
  const st = await gameState(page);
  check(st.clock && st.clock.control === '3d:30d' && st.clock.correspondence === true, `a 3-day control with a budget (${JSON.stringify(st.clock)})`);
  check(st.clock.deadline > st.server_time + 3 * 86400000 - 60000, 'the deadline three days on');
  const clock = await page.textContent('#view-game [data-testid=clock-bottom]');
  check(/^2 d 23:59$|^3 d 0:00$/.test(clock), `White's clock in days (${clock})`);
  check(/^move by /.test(await page.getAttribute('#view-game [data-testid=clock-bottom]', 'title')), 'its title says the deadline');
  // the start view lists the game: White (this browser) is to move
  await page.goto(`${base()}/#/`);
  await page.waitForSelector('#your-turn li a');
  check((await page.getAttribute('#your-turn li a', 'href')).includes(st.id), 'the game in "your turn"');
  check(/left/.test(await page.textContent('#your-turn li')), 'with the time left');
  await page.evaluate(async (s) => {
    const me = JSON.parse(localStorage.getItem('damier.games'))[0];
    await fetch(`/api/games/${s.id}/move`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ key: me.key, move: '32-28' }) });
  }, st);
  await page.reload();
  await page.waitForSelector('#my-games li');
  await sleep(500);
  check(await page.locator('#your-turn li').count() === 0, 'no longer listed after the move');
  // four days pass with the server down (its test hook): Black's deadline has passed
  await killServer('SIGTERM');
  await startServer({ DAMIER_SERVE_TEST_CLOCK_OFFSET_MS: String(4 * 86400000) });
  await page.goto(`${base()}/#/game/${st.id}/${(await page.evaluate(() => JSON.parse(localStorage.getItem('damier.games'))[0].key))}`);
  await page.waitForFunction(() => window.damierState && window.damierState.result !== '*');
  const end = await gameState(page);
  check(end.result === '2-0' && end.reason === 'loss on time', `Black lost on time (${end.result} ${end.reason})`);
  await killServer('SIGTERM');
  await startServer();
  await page.close();
});

test('PDN upload with an error, then a good file reviewed', async () => {
  const page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
  await page.goto(`${base()}/#/upload`);
  await page.fill('#pdn-text', '[White "A"]\n[Black "B"]\n\n1. 32-28 19-23 2. 28x19 14x23 3. 27-22 99-98 *\n');
  await page.click('#upload-form button');
  await page.waitForSelector('[data-testid=upload-errors] li');
  const err = await page.textContent('[data-testid=upload-errors]');
  check(/line 4, column \d+/.test(err), `error with line and column (${err})`);
  await page.screenshot({ path: `${OUT}/upload-error.png` });
  await page.fill('#pdn-text', '[White "A"]\n[Black "B"]\n[Result "2-0"]\n\n1. 32-28 19-23 2. 28x19 14x23 3. 33-28 2-0\n');
  await page.click('#upload-form button');
  await page.waitForSelector('#upload-games li a');
  await page.click('#upload-games li a');
  await page.waitForFunction(() => window.damierState && window.damierState.mode === 'review');
  // stepping through the moves
  await page.click('#rv-first');
  check((await page.evaluate(() => window.damierBoard.pos.squares[32])) === 'w', 'the start position');
  await page.click('#rv-next');
  await page.click('#rv-next');
  check((await page.evaluate(() => window.damierBoard.pos.squares[23])) === 'b', 'after 19-23');
  await page.keyboard.press('End');
  check((await page.evaluate(() => window.damierBoard.pos.squares[28])) === 'w', 'the last position');
  // the engine's annotation: marks in the move list and the evaluation graph
  await page.click('#btn-annotate');
  await page.waitForSelector('[data-testid=eval-graph] polyline', { timeout: 20000 });
  check(!(await page.isHidden('#btn-annotated-pdn')), 'the annotated PDN link');
  await page.screenshot({ path: `${OUT}/annotated.png` });
  await page.close();
});

test('analysis lines appear, stop', async () => {
  const page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
  await page.goto(`${base()}/#/analysis`);
  await page.waitForFunction(() => document.querySelector('#conn').textContent === 'connected');
  await page.click('#an-start');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=lines] tr').length >= 4, null, { timeout: 15000 });
  await page.click('#an-stop');
  const row = await page.textContent('[data-testid=lines] tr');
  check(/\d+/.test(row), `a line (${row})`);
  await page.screenshot({ path: `${OUT}/analysis-desktop.png` });
  // the position editor: clear, a white king on 46 and a black man on 23
  await page.click('#an-edit');
  await page.click('#edit-clear');
  await page.check('input[name=put][value=W]');
  await page.click('#view-analysis [data-testid=sq-46]', { force: true });
  await page.check('input[name=put][value=b]');
  await page.click('#view-analysis [data-testid=sq-23]', { force: true });
  check((await page.inputValue('#fen-input')) === 'W:WK46:B23', `edited (${await page.inputValue('#fen-input')})`);
  // drag and drop in the editor: the king from 46 to 37, then a black man dragged off the board
  const centre = async (sq) => {
    const b = await page.locator(`#view-analysis [data-testid=sq-${sq}]`).boundingBox();
    return [b.x + b.width / 2, b.y + b.height / 2];
  };
  const drag = async (from, to) => {
    await page.mouse.move(...from);
    await page.mouse.down();
    await page.mouse.move(from[0] + 5, from[1] + 5, { steps: 3 });
    await page.mouse.move(...to, { steps: 5 });
    await page.mouse.up();
  };
  await drag(await centre(46), await centre(37));
  check((await page.inputValue('#fen-input')) === 'W:WK37:B23', `dragged 46 to 37 (${await page.inputValue('#fen-input')})`);
  await page.check('input[name=put][value=b]');
  await page.click('#view-analysis [data-testid=sq-28]', { force: true });
  const box = await page.locator('#view-analysis svg.board').boundingBox();
  await drag(await centre(28), [box.x + box.width + 40, box.y + box.height / 2]);
  check((await page.inputValue('#fen-input')) === 'W:WK37:B23', `dragged 28 off the board (${await page.inputValue('#fen-input')})`);
  await page.screenshot({ path: `${OUT}/editor.png` });
  await page.click('#an-edit');
  await page.waitForFunction(() => window.damierAnalysisBoard.legal.length > 0);
  // a position by FEN
  await page.fill('#fen-input', 'W:W28:B19,K22');
  await page.click('#fen-form button');
  await page.click('#an-start');
  await page.waitForFunction(() => (document.querySelector('[data-testid=lines] tr') || {}).textContent?.includes('28x17'), null, { timeout: 10000 });
  await page.click('#an-stop');
  // a position of the endgame database: its value, not the evaluation (--egdb)
  await page.fill('#fen-input', 'W:WK47:BK4');
  await page.click('#fen-form button');
  await page.click('#an-start');
  await page.waitForFunction(() => (document.querySelector('[data-testid=lines] tr') || {}).textContent?.includes('database'), null, { timeout: 10000 })
    .catch(async (e) => { throw new Error(`${e.message.split('\n')[0]}; fen ${await page.inputValue('#fen-input')}, lines: ${await page.textContent('[data-testid=lines]')}, message: ${await page.textContent('#an-message')}`); });
  await page.click('#an-stop');
  // the protocol: a search's "started" comes before its first "info", even for a
  // database root whose search ends at once (the page kept no line when it did not)
  const order = await page.evaluate(async (n) => {
    const ws = new WebSocket(`ws://${location.host}/ws/analysis`);
    await new Promise((r) => { ws.onopen = r; });
    let early = 0, infos = 0;
    for (let i = 0; i < n; i++) {
      await new Promise((resolve) => {
        let started = 0;
        ws.onmessage = (e) => {
          const m = JSON.parse(e.data);
          if (m.t === 'started') started = m.search;
          else if (m.t === 'info') { infos++; if (m.search !== started) early++; }
          else if (m.t === 'done' || m.t === 'error') resolve();
        };
        ws.send(JSON.stringify({ t: 'analyse', fen: 'W:WK47:BK4' }));
      });
    }
    ws.close();
    return { early, infos };
  }, 30);
  check(order.infos >= 30 && order.early === 0, `"started" before "info" in 30 database analyses (${JSON.stringify(order)})`);
  // multi-PV: three lines of one depth, best first, three different first moves
  await page.fill('#fen-input', 'W:W31-50:B1-20');
  await page.click('#fen-form button');
  await page.selectOption('#an-multipv', '3');
  await page.click('#an-start');
  // read in one go when a depth's three lines are there (the next depth replaces them)
  const firsts = await (await page.waitForFunction(() => {
    const rows = [...document.querySelectorAll('[data-testid=lines] tr')];
    const full = rows.length === 3 && rows.every((r, i) => r.dataset.line === String(i + 1)) &&
      /^\d+ #3$/.test(rows[2].children[0].textContent);
    // and the arrows of that depth: the best move's, and a fainter one for each other line
    const best = document.querySelectorAll('#view-analysis [data-testid=arrow]').length;
    const alt = document.querySelectorAll('#view-analysis [data-testid=arrow-alt]').length;
    return full && best === 1 && alt === 2 && rows.map((r) => r.children[3].textContent.split(' ')[0]);
  }, null, { timeout: 15000 })).jsonValue();
  await page.click('#an-stop');
  check(new Set(firsts).size === 3, `three different first moves (${firsts.join(', ')})`);
  await page.screenshot({ path: `${OUT}/analysis-multipv.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${OUT}/analysis-phone.png`, fullPage: true });
  await page.close();
});

test('the server killed (kill -9) and restarted mid-game: both pages recover', async () => {
  const ctxA = await browser.newContext();
  const ctxB = await browser.newContext();
  const a = await ctxA.newPage();
  const b = await ctxB.newPage();
  await newGame(a, { opponent: 'human', side: 'white', time: '300+5' });
  await b.goto(await a.inputValue('[data-testid=link-black]'));
  await b.waitForFunction(() => window.damierState && window.damierState.you === 'black');
  await clickMove(a, { path: [32, 28] });
  await b.waitForFunction(() => window.damierState.ply === 1);
  await clickMove(b, { path: [19, 23] });
  await a.waitForFunction(() => window.damierState.ply === 2);
  const before = await gameState(a);
  await killServer('SIGKILL');
  await a.waitForFunction(() => document.querySelector('#conn').textContent.includes('reconnecting'));
  await sleep(500);
  await startServer();
  await a.waitForFunction(() => document.querySelector('#conn').textContent === 'connected', null, { timeout: 10000 });
  await b.waitForFunction(() => document.querySelector('#conn').textContent === 'connected', null, { timeout: 10000 });
  const after = await gameState(a);
  check(after.ply === 2 && after.fen === before.fen, 'the position restored');
  check(after.clock.running === 'white', 'White\'s clock runs again');
  check(Math.abs(after.clock.black - before.clock.black) < 50, 'Black\'s time kept');
  check(after.clock.white <= before.clock.white && after.clock.white > before.clock.white - 5000, 'White\'s time resumed');
  await clickMove(a, { path: [28, 19] });
  await b.waitForFunction(() => window.damierState.ply === 3);
  await ctxA.close();
  await ctxB.close();
});

test('arbiter: the creator\'s arbiter link pauses the clocks (kept over a restart), adds time, resumes and declares a result', async () => {
  const ctxA = await browser.newContext();
  const ctxR = await browser.newContext();
  const a = await ctxA.newPage();
  const r = await ctxR.newPage();
  await newGame(a, { opponent: 'human', side: 'white', time: '300' });
  const link = await a.inputValue('[data-testid=link-arbiter]');
  await r.goto(link);
  await r.waitForFunction(() => window.damierState && window.damierState.you === 'arbiter');
  check(await r.isVisible('[data-testid=arbiter-panel]'), 'the arbiter\'s panel on the arbiter\'s page');
  check(!(await a.isVisible('[data-testid=arbiter-panel]')), 'no arbiter\'s panel on a player\'s page');
  check(!(await r.isVisible('#move-form')) && !(await r.isVisible('#btn-resign')), 'the arbiter does not play');
  await clickMove(a, { path: [32, 28] });
  await r.waitForFunction(() => window.damierState.ply === 1);
  await r.click('[data-testid=arb-pause]');
  await a.waitForFunction(() => window.damierState.clock.paused === true);
  check((await a.textContent('#game-status')).includes('paused'), 'the players see the pause');
  await r.selectOption('#arb-time-side', 'black');
  await r.fill('#arb-time-seconds', '60');
  const b0 = (await gameState(r)).clock.black;
  await r.click('[data-testid=arb-add-time]');
  await r.waitForFunction((b) => window.damierState.clock.black === b + 60000, b0);
  await r.screenshot({ path: `${OUT}/arbiter-paused.png` });
  // a restart in the middle of the pause
  await killServer('SIGTERM');
  await sleep(300);
  await startServer();
  await r.reload();
  await r.waitForFunction(() => window.damierState && window.damierState.you === 'arbiter');
  let st = await gameState(r);
  check(st.clock.paused === true && st.clock.black === b0 + 60000, `still paused after a restart, the time kept (${st.clock.black})`);
  check(await r.isVisible('[data-testid=arb-resume]'), 'the resume button');
  // the panel in Chinese: no English left
  await r.selectOption('[data-testid=lang]', 'zh-Hans');
  await r.waitForFunction(() => document.documentElement.lang === 'zh-Hans');
  await checkNoEnglish(r, 'the arbiter\'s panel');
  await r.screenshot({ path: `${OUT}/zh-arbiter.png` });
  await r.click('[data-testid=arb-resume]');
  await r.waitForFunction(() => window.damierState.clock.paused === false && window.damierState.clock.running === 'black');
  // the decision, confirmed, with its note
  await r.selectOption('#arb-result', '1-1');
  await r.fill('#arb-note', 'a power cut');
  r.once('dialog', (d) => d.accept());
  await r.click('[data-testid=arb-declare]');
  await r.waitForFunction(() => window.damierState.result === '1-1');
  st = await gameState(r);
  check(st.reason === 'arbiter\'s decision' && st.arbiter_note === 'a power cut', `the decision (${st.reason}, ${st.arbiter_note})`);
  check(!(await r.isVisible('[data-testid=arbiter-panel]')), 'the panel gone when the game is over');
  await a.reload();
  await a.waitForFunction(() => window.damierState && window.damierState.result === '1-1');
  const status = await a.textContent('#game-status');
  check(status.includes('arbiter') && status.includes('a power cut'), `the players see why (${status})`);
  await ctxA.close();
  await ctxR.close();
});

test('adjournment: Black seals a move by clicks, the arbiter\'s resume plays it', async () => {
  const ctxA = await browser.newContext();
  const ctxB = await browser.newContext();
  const ctxR = await browser.newContext();
  const a = await ctxA.newPage();
  const b = await ctxB.newPage();
  const r = await ctxR.newPage();
  await newGame(a, { opponent: 'human', side: 'white', time: '300+5' });
  await b.goto(await a.inputValue('[data-testid=link-black]'));
  await r.goto(await a.inputValue('[data-testid=link-arbiter]'));
  await b.waitForFunction(() => window.damierState && window.damierState.you === 'black');
  await r.waitForFunction(() => window.damierState && window.damierState.you === 'arbiter');
  await clickMove(a, { path: [32, 28] });
  await b.waitForFunction(() => window.damierState.ply === 1);
  check(await b.isVisible('[data-testid=seal]') && !(await a.isVisible('[data-testid=seal]')), 'the seal button for the player to move only');
  await b.click('[data-testid=seal]');
  await clickSq(b, 19);
  await clickSq(b, 23);
  await a.waitForFunction(() => window.damierState.sealed === 'black');
  const st = await gameState(a);
  check(st.ply === 1 && st.clock.paused === true, 'sealed, not played; the clocks stopped');
  check((await a.textContent('#game-status')).includes('sealed'), 'White sees the adjournment');
  await r.waitForFunction(() => window.damierState.sealed === 'black');
  await r.click('[data-testid=arb-resume]');
  await a.waitForFunction(() => window.damierState.ply === 2);
  const after = await gameState(a);
  check(after.moves[1].text === '19-23' && after.clock.running === 'white' && !after.sealed, `the sealed move played (${after.moves[1].text})`);
  await ctxA.close();
  await ctxB.close();
  await ctxR.close();
});

// ---- languages (docs/WEB.md "Languages") ----------------------------------------------

// The words in Latin letters a Chinese page may show: the program's name, the standards'
// names and notation's letters; the switcher names English in English.
const LATIN_OK = new Set(['damier', 'PDN', 'FEN', 'FMJD', 'TimeControl', 'English', 'x', 'W', 'B', 'K']);

// Every Latin word the player can see or hear on the page: the visible text, the
// options of visible selects (a key's name in <kbd> aside), and the aria-label, title and placeholder of visible
// elements, with the page's title.
async function latinWords(page) {
  const texts = await page.evaluate(() => {
    const out = [document.title];
    const visible = (el) => el && el.checkVisibility && el.checkVisibility();
    const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const el = n.parentElement;
      if (el && el.closest('select, script, style, kbd')) continue; // kbd: a key's name (C)
      if (visible(el)) out.push(n.textContent);
    }
    for (const el of document.querySelectorAll('*')) {
      if (!visible(el)) continue;
      if (el.tagName === 'SELECT') for (const o of el.options) out.push(o.textContent);
      for (const a of ['aria-label', 'title', 'placeholder']) if (el.getAttribute(a)) out.push(el.getAttribute(a));
    }
    return out;
  });
  const words = new Set();
  for (const s of texts) for (const w of s.match(/[A-Za-z][A-Za-z'-]*/g) || []) if (!LATIN_OK.has(w)) words.add(w);
  return [...words];
}

async function checkNoEnglish(page, where) {
  const words = await latinWords(page);
  check(words.length === 0, `no English on the Chinese page (${where}): ${words.join(' ')}`);
}

test('a zh-CN browser sees the page in Chinese; English and back leaves no English', async () => {
  const ctx = await browser.newContext({ locale: 'zh-CN', viewport: { width: 1100, height: 800 } });
  const page = await ctx.newPage();
  await page.goto(`${base()}/#/`);
  await page.waitForFunction(() => document.documentElement.lang === 'zh-Hans');
  check((await page.textContent('#view-home h1')) === '新对局', 'the home page in Simplified Chinese');
  await checkNoEnglish(page, 'home');
  // a game against the engine: status, players, buttons
  await newGame(page, { opponent: 'engine', side: 'white', level: 1 });
  await page.waitForFunction(() => document.querySelector('#game-status').textContent.includes('轮到'));
  await checkNoEnglish(page, 'game');
  // a move the rules forbid is explained in Chinese
  await page.fill('#move-input', '32-23');
  await page.press('#move-input', 'Enter');
  await page.waitForFunction(() => document.querySelector('#game-message').textContent.includes('不合规则'));
  await checkNoEnglish(page, 'an illegal move');
  // to English: the same page in English, the choice remembered over the browser's
  await page.selectOption('[data-testid=lang]', 'en');
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  const en = await page.textContent('#game-status');
  check(en.includes('to move'), `the status in English (${en})`);
  check((await page.textContent('#game-message')).includes('illegal move'), 'the message in English');
  await page.reload();
  await page.waitForFunction(() => window.damierState && document.documentElement.lang === 'en');
  check((await page.textContent('#btn-resign')) === 'Resign', 'English kept after a reload');
  // and back: no English left anywhere on the page
  await page.selectOption('[data-testid=lang]', 'zh-Hans');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-Hans');
  await page.waitForFunction(() => document.querySelector('#conn').dataset.state === 'connected');
  await checkNoEnglish(page, 'game, after English and back');
  // the result and its reason
  page.once('dialog', (d) => d.accept());
  await page.click('#btn-resign');
  await page.waitForFunction(() => window.damierState.result !== '*');
  const over = await page.textContent('#game-status');
  check(over.includes('黑方胜') && over.includes('认输'), `the result in Chinese (${over})`);
  await checkNoEnglish(page, 'game over');
  await page.screenshot({ path: `${OUT}/zh-game.png` });
  // the analysis board and the upload page
  await page.goto(`${base()}/#/analysis`);
  await page.waitForFunction(() => document.querySelector('#conn').dataset.state === 'connected');
  await page.click('#an-start');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=lines] tr').length >= 2, null, { timeout: 15000 });
  await page.click('#an-stop');
  await page.click('#an-edit');
  await checkNoEnglish(page, 'analysis');
  await page.screenshot({ path: `${OUT}/zh-analysis.png` });
  await page.click('#an-edit');
  await page.goto(`${base()}/#/upload`);
  await page.fill('#pdn-text', '[White "A"]\n[Black "B"]\n\n1. 32-28 19-23 2. 28x19 14x23 3. 27-22 99-98 *\n');
  await page.click('#upload-form button');
  await page.waitForSelector('[data-testid=upload-errors] li');
  check((await page.textContent('[data-testid=upload-errors]')).includes('第 4 行'), 'the error\'s line in Chinese');
  await page.goto(`${base()}/#/`);
  await page.waitForSelector('#my-games li');
  await checkNoEnglish(page, 'home with the games list');
  await ctx.close();
});

test('a zh-TW browser sees Traditional Chinese', async () => {
  const ctx = await browser.newContext({ locale: 'zh-TW' });
  const page = await ctx.newPage();
  await page.goto(`${base()}/#/`);
  await page.waitForFunction(() => document.documentElement.lang === 'zh-Hant');
  check((await page.textContent('#view-home h1')) === '新對局', 'the home page in Traditional Chinese');
  await checkNoEnglish(page, 'home, Traditional');
  await newGame(page, { opponent: 'human', side: 'white' });
  await page.waitForFunction(() => document.querySelector('#game-status').textContent.includes('輪到白方走棋'));
  await checkNoEnglish(page, 'game, Traditional');
  await ctx.close();
});

// ---- the other variants ---------------------------------------------------------

const waitPly = (page, n) => page.waitForFunction((k) => window.damierState.ply >= k || window.damierState.result !== '*', n, { timeout: 20000 });
const myTurn = (page) => page.waitForFunction(() => window.damierState.result !== '*' || (window.damierState.turn === window.damierState.you && window.damierState.legal.length > 0), null, { timeout: 20000 });

test('Turkish draughts on all 64 squares: the FEN field shows its start, moves by clicks, annotated', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  await page.goto(`${base()}/#/`);
  // the FEN field's example follows the chosen variant
  await page.selectOption('select[name=variant]', 'russian');
  await page.waitForFunction(() => document.querySelector('input[name=fen]').placeholder.includes('a1'));
  await page.selectOption('select[name=variant]', 'turkish');
  await page.waitForFunction(() => document.querySelector('input[name=fen]').placeholder.includes('a2'));
  const ph = await page.getAttribute('input[name=fen]', 'placeholder');
  await newGame(page, { opponent: 'engine', side: 'white', level: 1, variant: 'turkish' });
  await page.waitForSelector('#view-game [data-testid=sq-64]', { state: 'visible' });
  let st = await gameState(page);
  check(st.variant === 'turkish' && st.board.full && st.board.size === 8, 'a Turkish game on the full 8x8 board');
  check(st.start_fen === ph, `the placeholder was the start FEN (${ph} / ${st.start_fen})`);
  check(await page.locator('#game-board [data-testid^=sq-]').count() === 64, '64 squares to play on');
  // a man steps straight forward: an orthogonal move by clicks
  const m = st.legal.find((x) => x.text === 'd3-d4');
  check(m, `d3-d4 is legal (${st.legal.map((x) => x.text).join(' ')})`);
  await clickMove(page, m);
  await waitPly(page, 2);
  st = await gameState(page);
  check(st.moves[0].text === 'd3-d4', 'the move played');
  await page.screenshot({ path: `${OUT}/turkish.png` });
  // the annotation of a variant game: a mark or an evaluation per move in the list
  await page.click('#btn-annotate');
  await page.waitForSelector('#btn-annotated-pdn:not([hidden])', { timeout: 30000 });
  const pdn = await page.evaluate(async () => (await fetch(document.querySelector('#btn-annotated-pdn').href)).text());
  check(pdn.includes('[GameType "30"]') && /1\. d3-d4\S* \{[-+]\d/.test(pdn), `the annotated PDN of the Turkish game (${pdn.split('\n').slice(-3).join(' ')})`);
  await page.close();
});

test('a Russian game against the engine on the 8x8 board with coordinates, saved as PDN', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  await newGame(page, { opponent: 'engine', side: 'white', level: 1, variant: 'russian' });
  await page.waitForSelector('#view-game [data-testid=sq-32]', { state: 'visible' }); // the board drawn, the page shown
  let st = await gameState(page);
  check(st.variant === 'russian' && st.board.size === 8 && st.board.coords, 'a Russian game on 8x8 with algebraic squares');
  check((await page.textContent('#game-variant')).includes('Russian'), 'the variant named above the board');
  check(await page.locator('#game-board [data-testid^=sq-]').count() === 32, '32 dark squares');
  const coords = await page.locator('#game-board text.coord').allTextContents();
  check(coords.length === 16 && coords.includes('a') && coords.includes('h') && coords.includes('1') && coords.includes('8'), `files a-h and ranks 1-8 around the board (${coords.join('')})`);
  // a move by clicks: c3-d4
  const first = st.legal.find((m) => m.text === 'c3-d4');
  check(first, 'c3-d4 is legal');
  await clickMove(page, first);
  await waitPly(page, 2);
  st = await gameState(page);
  check(st.moves[0].text === 'c3-d4' && st.moves.length >= 2, `the move played and the engine answered (${st.moves.map((m) => m.text).join(' ')})`);
  // on until White captures (compulsory captures come soon when the men go forward)
  let captured = false;
  for (let i = 0; i < 30 && !captured && st.result === '*'; i++) {
    await myTurn(page);
    st = await gameState(page);
    if (st.result !== '*') break;
    const legal = st.legal.slice().sort((a, b) => b.captured.length - a.captured.length || a.path[a.path.length - 1] - b.path[b.path.length - 1]);
    captured = legal[0].captured.length > 0;
    await clickMove(page, legal[0]);
    st = await gameState(page);
    if (captured) check(st.moves[st.moves.length - 1].text.includes(':') || st.moves[st.moves.length - 2].text.includes(':'), 'a capture written with ":"');
  }
  check(captured, 'White captured');
  await page.screenshot({ path: `${OUT}/russian.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${OUT}/russian-phone.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 860 });
  await myTurn(page); // the engine has answered the capture
  const pdn = await page.evaluate(async () => (await fetch(document.querySelector('#btn-pdn').href)).text());
  check(pdn.includes('[GameType "25"]'), 'the PDN says GameType 25');
  writeFileSync(`${OUT}/russian.pdn`, pdn);
  const r = spawnSync(DAMIER, ['pdn', 'check', `${OUT}/russian.pdn`], { encoding: 'utf8' });
  check(r.status === 0 && r.stdout.includes('1 legal') && r.stdout.includes('1 russian'), `damier pdn check reads it as a legal Russian game (${r.stdout.trim()})`);
  await page.close();
});

test('an English capture chosen square by square where two paths end on the same square', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  // Black's man on 2 takes 7 and 15, or 6 and 14: both end on 18 (men take forwards only)
  await newGame(page, { opponent: 'human', side: 'black', variant: 'english', fen: 'B:W6,7,14,15:B2' });
  await page.waitForSelector('#view-game [data-testid=sq-18]', { state: 'visible' });
  let st = await gameState(page);
  check(st.legal.length === 2 && st.legal.every((m) => m.path[0] === 2 && m.path[m.path.length - 1] === 18), `two captures 2 to 18 (${st.legal.map((m) => m.text)})`);
  await clickSq(page, 2);
  check(await page.locator('#game-board [data-testid=dest-18]').count() === 1, '18 shown as the destination');
  check(await page.locator('#game-board [data-testid=dest-11]').count() === 1 && await page.locator('#game-board [data-testid=dest-9]').count() === 1, '11 and 9 shown as landing squares');
  await clickSq(page, 18); // two paths: the page asks for the landing squares
  await page.waitForFunction(() => document.querySelector('#game-message').textContent.length > 0);
  check((await gameState(page)).ply === 0, 'nothing played yet');
  await clickSq(page, 11);
  await waitPly(page, 1);
  st = await gameState(page);
  check(st.moves[0].text === '2x11x18' && st.moves[0].captured.join() === '7,15', `the path by 11 played (${st.moves[0].text}, ${st.moves[0].captured})`);
  await page.screenshot({ path: `${OUT}/english-capture.png` });
  await page.close();
});

test('a Frisian game between two players by links, a draw agreed', async () => {
  const ctxA = await browser.newContext({ viewport: { width: 1100, height: 800 } });
  const ctxB = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const a = await ctxA.newPage();
  const b = await ctxB.newPage();
  await newGame(a, { opponent: 'human', side: 'white', variant: 'frisian', time: '300+5' });
  const link = await a.inputValue('[data-testid=link-black]');
  await b.goto(link);
  await b.waitForFunction(() => window.damierState && window.damierState.you === 'black' && window.damierState.variant === 'frisian');
  await b.waitForSelector('#view-game [data-testid=sq-19]', { state: 'visible' });
  await a.waitForSelector('#view-game [data-testid=sq-32]', { state: 'visible' });
  const w = (await gameState(a)).legal.find((m) => m.text === '32-28');
  await clickMove(a, w);
  await b.waitForFunction(() => window.damierState.ply === 1);
  const m = (await gameState(b)).legal.find((x) => x.text === '19-23');
  await clickMove(b, m);
  await a.waitForFunction(() => window.damierState.ply === 2);
  check((await a.textContent('#move-list')).includes('19-23'), 'Black\'s move on White\'s page');
  check((await a.textContent('#game-variant')).includes('Frisian'), 'Frisian named');
  const clock = (await gameState(a)).clock;
  check(clock && clock.running === 'white', 'the clock runs for White');
  await a.click('#btn-draw');
  await b.waitForFunction(() => window.damierState.draw_offer === 'white');
  await b.click('#btn-accept');
  await a.waitForFunction(() => window.damierState.result === '1-1');
  check((await a.textContent('#game-status')).includes('draw by agreement'), 'the draw by agreement shown');
  await ctxA.close();
  await ctxB.close();
});

test('a Canadian game on the 12x12 board', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  await newGame(page, { opponent: 'human', side: 'white', variant: 'canadian' });
  await page.waitForSelector('#view-game [data-testid=sq-72]', { state: 'visible' }); // the board drawn, the page shown
  let st = await gameState(page);
  check(st.board.size === 12 && st.position.length === 72, 'a 12x12 board of 72 squares');
  check(await page.locator('#game-board [data-testid^=sq-]').count() === 72, '72 dark squares drawn');
  check(await page.locator('#game-board g.piece').count() === 60, '30 men each');
  const m = st.legal.find((x) => x.text === '43-37') || st.legal[0];
  await clickMove(page, m);
  st = await gameState(page);
  check(st.ply === 1 && st.turn === 'black' && st.moves[0].text === m.text, `the move played (${st.moves.map((x) => x.text)})`);
  await page.click('#btn-numbers');
  check((await page.locator('#game-board text.num').allTextContents()).includes('72'), 'square numbers 1-72');
  await page.screenshot({ path: `${OUT}/canadian.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${OUT}/canadian-phone.png`, fullPage: true });
  await page.close();
});

test('English checkers: Black moves first, numeric squares', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  await newGame(page, { opponent: 'engine', side: 'black', level: 1, variant: 'english' });
  await page.waitForSelector('#view-game [data-testid=sq-32]', { state: 'visible' }); // the board drawn, the page shown
  let st = await gameState(page);
  check(st.you === 'black' && st.turn === 'black' && st.ply === 0 && st.legal.length === 7, 'Black to move first, with its 7 moves');
  check(st.start_fen.startsWith('B:'), 'the FEN says Black to move');
  check(await page.locator('#game-board text.coord').count() === 0, 'no files and ranks: numeric notation');
  const m = st.legal.find((x) => x.text === '11-15') || st.legal[0];
  await clickMove(page, m);
  await waitPly(page, 2);
  st = await gameState(page);
  check(st.moves[0].text === m.text && st.moves.length >= 2, `Black's move, then the engine's as White (${st.moves.map((x) => x.text)})`);
  const row = await page.textContent('#move-list li');
  check(!row.includes('…') && row.includes(m.text), `move 1 begins with Black's move (${row})`);
  await page.screenshot({ path: `${OUT}/english.png` });
  await page.close();
});

test('a Russian game in a zh-CN browser: the variant, the status and the rules\' messages in Chinese', async () => {
  const ctx = await browser.newContext({ locale: 'zh-CN', viewport: { width: 1100, height: 800 } });
  const page = await ctx.newPage();
  await newGame(page, { opponent: 'engine', side: 'white', level: 1, variant: 'russian' });
  await page.waitForSelector('#view-game [data-testid=sq-32]', { state: 'visible' });
  await page.waitForFunction(() => document.querySelector('#game-status').textContent.includes('轮到'));
  check((await page.textContent('#game-variant')).includes('俄罗斯跳棋'), 'Russian draughts named 俄罗斯跳棋');
  // the notation's letters (files a-h, moves c3-d4) are no English
  const english = async () => (await latinWords(page)).filter((w) => !/^[a-h]$/.test(w));
  check((await english()).length === 0, `no English on the Chinese page: ${(await english()).join(' ')}`);
  await page.fill('#move-input', 'c3-e5');
  await page.press('#move-input', 'Enter');
  await page.waitForFunction(() => document.querySelector('#game-message').textContent.includes('不合规则'));
  check((await english()).length === 0, `an illegal move explained in Chinese: ${(await english()).join(' ')}`);
  await page.fill('#move-input', 'h6-g5');
  await page.press('#move-input', 'Enter');
  await page.waitForFunction(() => document.querySelector('#game-message').textContent.includes('是对方的棋子'));
  await page.screenshot({ path: `${OUT}/zh-russian.png` });
  await ctx.close();
});

test('the analysis board of a Russian position: a move by clicks, the engine\'s lines in its notation; an English database value', async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  await page.goto(`${base()}/#/analysis?variant=russian`);
  await page.waitForFunction(() => document.querySelector('#conn').dataset.state === 'connected');
  await page.waitForFunction(() => /^W:W.*a1/.test(document.querySelector('#fen-input').value));
  check(await page.locator('#analysis-board [data-testid^=sq-]').count() === 32, 'the 8x8 board');
  check(await page.locator('#analysis-board text.coord').count() === 16, 'files and ranks');
  check((await page.inputValue('#an-variant')) === 'russian', 'the variant chosen');
  await page.waitForSelector('#view-analysis [data-testid=sq-22]', { state: 'visible' });
  await page.click('#view-analysis [data-testid=sq-22]', { force: true }); // c3
  await page.click('#view-analysis [data-testid=sq-18]', { force: true }); // d4
  await page.waitForFunction(() => document.querySelector('#fen-input').value.startsWith('B:'));
  check((await page.inputValue('#fen-input')).includes('d4'), 'the FEN after c3-d4 has d4');
  await page.click('#an-start');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=lines] tr').length >= 2, null, { timeout: 15000 });
  const line = await page.textContent('[data-testid=lines] tr td:last-child');
  check(/^[a-h][1-8][-:][a-h][1-8]/.test(line), `a line in algebraic notation (${line})`);
  await page.click('#an-stop');
  await page.screenshot({ path: `${OUT}/russian-analysis.png` });
  // an English position of its database (--egdb of English): the database's value
  await page.selectOption('#an-variant', 'english');
  // the English view's own start position loaded (the hash and the menu change before
  // the view is made again: a FEN typed before that went to the Russian view)
  await page.waitForFunction(() => location.hash.includes('variant=english') && document.querySelector('#an-variant').value === 'english' &&
    document.querySelector('#fen-input').value.startsWith('B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,'));
  await page.fill('#fen-input', 'W:WK32:BK26');
  await page.click('#fen-form button');
  await page.click('#an-start');
  await page.waitForFunction(() => (document.querySelector('[data-testid=lines] tr') || {}).textContent?.includes('database'), null, { timeout: 10000 })
    .catch(async (e) => { throw new Error(`${e.message.split('\n')[0]}; fen ${await page.inputValue('#fen-input')}, lines: ${await page.textContent('[data-testid=lines]')}, message: ${await page.textContent('#an-message')}`); });
  const dbline = await page.textContent('[data-testid=lines] tr');
  check(/9/.test(dbline), `the English database win in 9 plies (${dbline})`);
  await page.click('#an-stop');
  // back to international: the 10x10 board again
  await page.selectOption('#an-variant', 'international');
  await page.waitForFunction(() => document.querySelectorAll('#analysis-board [data-testid^=sq-]').length === 50);
  await page.close();
});

let passed = 0, failed = 0;
try {
  await startServer();
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  // pages and contexts in English unless a test asks for a locale (the language tests)
  const newPage = browser.newPage.bind(browser), newContext = browser.newContext.bind(browser);
  browser.newPage = (o = {}) => newPage({ locale: 'en-US', ...o });
  browser.newContext = (o = {}) => newContext({ locale: 'en-US', ...o });
  // E2E_ONLY=REGEX runs the tests whose names match (while working on them)
  const only = process.env.E2E_ONLY ? new RegExp(process.env.E2E_ONLY) : null;
  for (const t of tests.filter((x) => !only || only.test(x.name))) {
    const t0 = Date.now();
    try {
      await t.fn();
      passed++;
      console.log(`ok   ${t.name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    } catch (e) {
      failed++;
      console.log(`FAIL ${t.name}: ${e.message.split('\n')[0]}`);
    }
  }
} catch (e) {
  failed++;
  console.log(`FAIL setup: ${e.message}`);
} finally {
  if (browser) await browser.close();
  await killServer('SIGTERM');
}
console.log(`screenshots in ${OUT}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
