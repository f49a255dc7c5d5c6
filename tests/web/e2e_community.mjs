// SPDX-License-Identifier: MIT
// tests/web/e2e_community.mjs: the community pages (issue 19) in the browser, as part
// of web_e2e (e2e.mjs registers these tests with its helpers): two players sign up
// (one in English, one whose browser asks for zh-CN), one posts a rated seek in the
// lobby, the other sees it live with the poster's rating and accepts, both land in
// the game, play, one resigns, and both see their new Glicko-2 ratings; the
// leaderboard and the profile show them. The puzzle trainer on a server of its own
// (--puzzles, a file written here): a puzzle solved by a signed-in solver whose
// rating moves, and failed by a visitor who is shown the solution.
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';

const PUZZLES = `[Event "puzzle"]
[Round "1"]
[Result "*"]
[GameType "20"]
[FEN "W:W32,38,42,45:B11,16,22,24"]
[SetUp "1"]
[Theme "shot"]
[Rating "1100"]

1. 32-28 22x33 2. 38x20 *
`;

// A damier serve of the puzzles on a free port: {url, stop}.
function puzzleServer(OUT) {
  const file = `${OUT}/puzzles.pdn`, db = `${OUT}/puzzles.sqlite`;
  writeFileSync(file, PUZZLES);
  for (const f of [db, `${db}-wal`, `${db}-shm`]) rmSync(f, { force: true });
  return new Promise((resolve, reject) => {
    const p = spawn(process.env.DAMIER, ['serve', '--port', '0', '--db', db, '--static', process.env.WEB_STATIC, '--puzzles', file, '--quiet'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    p.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/listening on (http:\/\/[^/]+)\//);
      if (m) resolve({ url: m[1], stop: () => new Promise((r) => { p.on('exit', r); p.kill('SIGTERM'); }) });
    });
    p.on('exit', (code) => reject(new Error(`damier serve --puzzles exited ${code}: ${out}`)));
  });
}

export function register({ test, base, check, waitFor, gameState, clickSq, OUT, browser }) {
  async function signUp(page, name, password) {
    await page.goto(`${base()}/#/account`);
    await page.fill('#acct-signup input[name=name]', name);
    await page.fill('#acct-signup input[name=password]', password);
    await page.click('#acct-signup button[type=submit]');
    await page.waitForFunction((n) => document.querySelector('#nav-account').textContent === n, name);
  }

  test('accounts, the lobby and a rated game: both ratings change', async () => {
    const ctxA = await browser().newContext({ viewport: { width: 1280, height: 860 } });
    const ctxB = await browser().newContext({ locale: 'zh-CN', viewport: { width: 1280, height: 860 } });
    const a = await ctxA.newPage(), b = await ctxB.newPage();
    // a wrong sign-in says so, in the page's language
    await b.goto(`${base()}/#/account`);
    await b.fill('#acct-login input[name=name]', 'nobody');
    await b.fill('#acct-login input[name=password]', 'wrong password');
    await b.click('#acct-login button[type=submit]');
    await waitFor(async () => (await b.textContent('[data-testid=acct-error]')) === '用户名或密码错误。', 10000, 'the wrong-password message in Chinese');

    await signUp(a, 'alice', 'alice password');
    await signUp(b, 'bob', 'bob password');
    // the session cookie is HttpOnly: the page's script cannot read it
    check((await a.evaluate(() => document.cookie)) === '', 'no cookie visible to scripts');
    const cookies = await ctxA.cookies();
    const sc = cookies.find((c) => c.name === 'damier_session');
    check(sc && sc.httpOnly && sc.sameSite === 'Strict', 'an HttpOnly SameSite=Strict session cookie');

    // alice seeks a rated game as White
    await a.goto(`${base()}/#/lobby`);
    await a.selectOption('#seek-form select[name=time]', '300');
    await a.selectOption('#seek-form select[name=color]', 'white');
    check(await a.isChecked('#seek-form input[name=rated]'), 'rated by default when signed in');
    await a.click('#seek-post');
    await a.waitForSelector('[data-testid=seek-waiting]:not([hidden])');

    // bob sees it live, with alice's rating, in Chinese, and accepts
    await b.goto(`${base()}/#/lobby`);
    await b.waitForSelector('[data-testid=seeks] tr[data-seek] button.accept');
    const row = await b.textContent('[data-testid=seeks] tr[data-seek]');
    check(row.includes('alice') && row.includes('1500') && row.includes('计等级分'), `the seek row (${row})`);
    check((await b.textContent('#community h1')) === '对局大厅', 'the lobby in Chinese');
    await b.screenshot({ path: `${OUT}/lobby-zh.png` });
    await b.click('[data-testid=seeks] tr[data-seek] button.accept');
    await b.waitForFunction(() => window.damierState && window.damierState.you === 'black');
    // alice is taken to the game by the lobby's socket
    await a.waitForFunction(() => window.damierState && window.damierState.you === 'white');
    const st = await gameState(a);
    check(st.players && st.players.rated && st.players.white.name === 'alice' && st.players.black.name === 'bob', 'a rated game between the two accounts');
    check(st.clock && st.clock.control === '300', 'the seek\'s time control');
    await waitFor(async () => (await a.textContent('[data-testid=players]')).includes('alice (1500)'), 10000, 'the players line');

    // they play: alice 32-28, bob 19-23, then bob resigns
    await clickSq(a, 32);
    await clickSq(a, 28);
    await b.waitForFunction(() => window.damierState.ply === 1);
    await b.click('#view-game [data-testid=sq-19]', { force: true });
    await b.click('#view-game [data-testid=sq-23]', { force: true });
    await a.waitForFunction(() => window.damierState.ply === 2);
    b.once('dialog', (d) => d.accept());
    await b.click('#btn-resign');
    await a.waitForFunction(() => window.damierState.result === '2-0');
    // both see the new ratings (Glicko-2: 1500 beats 1500, both RD 350: 1662 and 1338)
    await waitFor(async () => (await a.textContent('[data-testid=players]')).includes('alice 1500 → 1662 (+162)'), 10000, 'alice\'s new rating');
    await waitFor(async () => (await b.textContent('[data-testid=players]')).includes('bob 1500 → 1338（-162）'), 10000, 'bob\'s new rating, in Chinese');
    await a.screenshot({ path: `${OUT}/rated-game.png` });

    // the leaderboard and the profile
    await a.goto(`${base()}/#/leaderboard`);
    await a.waitForSelector('[data-testid=leaderboard] tbody tr');
    const first = await a.textContent('[data-testid=leaderboard] tbody tr');
    check(first.includes('alice') && first.includes('1662'), `alice leads (${first})`);
    await a.click('[data-testid=leaderboard] a >> text=bob');
    await a.waitForSelector('[data-testid=profile-games] li');
    const g = await a.textContent('[data-testid=profile-games] li');
    check(g.includes('1500 → 1338'), `bob's profile shows the game (${g})`);
    // signing out
    await a.goto(`${base()}/#/account`);
    await a.click('#acct-logout');
    await a.waitForFunction(() => document.querySelector('#nav-account').textContent === 'Sign in');
    await ctxA.close();
    await ctxB.close();
  });

  test('a puzzle solved (the rating moves) and failed (the solution shown)', async () => {
    const srv = await puzzleServer(OUT);
    try {
      const ctx = await browser().newContext({ locale: 'zh-CN', viewport: { width: 1280, height: 860 } });
      const page = await ctx.newPage();
      await page.goto(`${srv.url}/#/account`);
      await page.fill('#acct-signup input[name=name]', 'solver');
      await page.fill('#acct-signup input[name=password]', 'solver password');
      await page.click('#acct-signup button[type=submit]');
      await page.waitForFunction(() => document.querySelector('#nav-account').textContent === 'solver');
      await page.goto(`${srv.url}/#/puzzles`);
      await page.waitForFunction(() => window.damierPuzzle && window.damierPuzzleBoard.interactive);
      check((await page.textContent('[data-testid=pz-info]')).includes('弃子组合'), 'the theme in Chinese');
      const sq = (n) => page.click(`#puzzle-board [data-testid=sq-${n}]`, { force: true });
      await sq(32);
      await sq(28);
      await waitFor(async () => (await page.textContent('[data-testid=pz-status]')) === '正确！请继续。', 10000, 'the first move judged right');
      await page.waitForFunction(() => window.damierPuzzleBoard.interactive);
      await sq(38);
      await sq(20);
      await waitFor(async () => (await page.textContent('[data-testid=pz-status]')).startsWith('解出来了'), 10000, 'solved');
      const rt = await page.textContent('[data-testid=pz-rating]');
      check(/1500 → 1[5-9]\d\d（\+\d+）/.test(rt), `the puzzle rating went up (${rt})`);
      await page.screenshot({ path: `${OUT}/puzzle-solved.png` });
      // a visitor plays a wrong first move: the solution is shown, no rating
      const v = await (await browser().newContext({ viewport: { width: 1280, height: 860 } })).newPage();
      await v.goto(`${srv.url}/#/puzzles`);
      await v.waitForFunction(() => window.damierPuzzle && window.damierPuzzleBoard.interactive);
      await v.click('#puzzle-board [data-testid=sq-32]', { force: true });
      await v.click('#puzzle-board [data-testid=sq-27]', { force: true });
      await waitFor(async () => (await v.textContent('[data-testid=pz-status]')) === 'Not this move. The solution: 32-28 22x33 38x20', 10000, 'the solution shown');
      check((await v.textContent('[data-testid=pz-rating]')) === '', 'no rating for a visitor');
      await ctx.close();
    } finally {
      await srv.stop();
    }
  });
}
