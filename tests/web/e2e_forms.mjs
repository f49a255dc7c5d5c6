// SPDX-License-Identifier: MIT
// tests/web/e2e_forms.mjs: the game forms of issue 13 beside the accessible and
// blindfold board (e2e_access.mjs), part of web_e2e: the simultaneous display (the
// host plays board after board against the engine, the page going on to the next
// board after each move; one host against three people in their own browsers, played
// to the end; the overview's score), the blindfold simul, and conditional moves in a
// correspondence game ("if he plays X, I play Y", played by the server); a
// tournament of a person and three engines (its crosstable, the engines' games played);
// a five-team league and sections typed in the form.

export function register({ test, base, check, waitFor, gameState, browser }) {
  async function newSimul(page, n, blindfold) {
    await page.goto(`${base()}/#/`);
    await page.selectOption('#new-simul select[name=boards]', String(n));
    await page.selectOption('#new-simul select[name=opponent]', 'engine');
    await page.selectOption('#new-simul select[name=level]', '1');
    if (blindfold) await page.check('#new-simul input[name=blindfold]');
    await page.click('#create-simul');
    await page.waitForFunction(() => location.hash.startsWith('#/simul/'));
    await waitFor(async () => (await page.textContent('[data-testid=simul-score]')).includes(`of ${n} boards`), 5000, 'the overview');
  }
  const board = (page) => page.evaluate(() => Number(new URLSearchParams(location.hash.split('?')[1] || '').get('board')));
  // the host's move on the board shown, typed (the first legal move), once it is the host's turn
  async function hostMove(page) {
    // the state of the game the page shows (after going on to the next board, the
    // previous board's state can still be there for a moment)
    await page.waitForFunction(() => window.damierState && location.hash.includes(window.damierState.id) &&
      window.damierState.turn === window.damierState.you && window.damierState.legal.length > 0, null, { timeout: 15000 });
    const st = await gameState(page);
    await page.fill('#move-input', st.legal[0].text);
    await page.press('#move-input', 'Enter');
    return st;
  }

  test('simul: the host plays three boards in turn against the engine, the page going from board to board', async () => {
    const page = await browser().newPage();
    await newSimul(page, 3, false);
    check((await page.textContent('[data-testid=simul-score]')).startsWith('Host 0 – opponents 0'), 'nothing played yet');
    await page.click('[data-testid=simul-next]');
    const seen = [];
    for (let i = 0; i < 4; i++) {
      await page.waitForFunction(() => location.hash.startsWith('#/game/') && window.damierState);
      const b = await board(page);
      seen.push(b);
      check(await page.isVisible('[data-testid=simul-bar]'), 'the simul bar on the board');
      const st = await hostMove(page);
      // on to the next board after the move
      await page.waitForFunction((id) => !location.hash.includes(id), st.id, { timeout: 10000 });
    }
    check(seen.join(',') === '1,2,3,1', `boards in turn (${seen})`);
    await page.click('#simul-all');
    await page.waitForFunction(() => location.hash.startsWith('#/simul/'));
    await waitFor(async () => (await page.textContent('#simul-boards')).includes('damier level 1'), 5000, 'the boards listed with their opponents');
    await page.close();
  });

  test('simul: a blindfold simul hides every board of the host', async () => {
    const page = await browser().newPage();
    await newSimul(page, 2, true);
    await page.click('[data-testid=simul-next]');
    await page.waitForFunction(() => location.hash.startsWith('#/game/') && window.damierState);
    check(!(await page.isVisible('#game-board')) && (await page.isVisible('[data-testid=blind-panel]')), 'board 1 blindfold');
    const st = await hostMove(page);
    await page.waitForFunction((id) => !location.hash.includes(id) && window.damierState && window.damierState.id !== id, st.id, { timeout: 10000 });
    check(!(await page.isVisible('#game-board')), 'board 2 blindfold too');
    await page.close();
  });

  test('simul: one host against three people in their own browsers, played to the end', async () => {
    const host = await browser().newPage();
    await host.goto(`${base()}/#/`);
    await host.selectOption('#new-simul select[name=boards]', '3');
    await host.selectOption('#new-simul select[name=opponent]', 'human');
    await host.click('#create-simul');
    await host.waitForFunction(() => location.hash.startsWith('#/simul/'));
    await host.waitForSelector('[data-testid=simul-link-3]');
    const links = [];
    for (let n = 1; n <= 3; n++) links.push(await host.inputValue(`[data-testid=simul-link-${n}]`));
    const ctxs = [], opp = [];
    for (const url of links) {
      const ctx = await browser().newContext();
      const p = await ctx.newPage();
      p.on('dialog', (d) => d.accept());
      await p.goto(url);
      await p.waitForFunction(() => window.damierState && window.damierState.you === 'black');
      ctxs.push(ctx);
      opp.push(p);
    }
    // the host walks round: a move on each board, the page going on by itself
    await host.click('[data-testid=simul-next]');
    for (let n = 1; n <= 3; n++) {
      await host.waitForFunction((k) => location.hash.includes(`board=${k}`) && window.damierState && window.damierState.turn === 'white', n, { timeout: 10000 });
      const st = await hostMove(host);
      await host.waitForFunction((id) => !location.hash.includes(id), st.id, { timeout: 10000 });
    }
    // back at board 1, where the host waits for the opponent's answer
    await host.waitForFunction(() => location.hash.includes('board=1') && window.damierState && window.damierState.turn === 'black');
    // each opponent answers in his own browser, then resigns when the host comes back
    for (const p of opp) {
      await p.waitForFunction(() => window.damierState.turn === 'black' && window.damierState.ply === 1, null, { timeout: 10000 });
      const st = await gameState(p);
      await p.fill('#move-input', st.legal[0].text);
      await p.press('#move-input', 'Enter');
      await p.waitForFunction(() => window.damierState.ply === 2);
    }
    for (const p of opp) {
      await p.click('#btn-resign');
      await p.waitForFunction(() => window.damierState.result === '2-0');
    }
    await host.click('#simul-all');
    await waitFor(async () => (await host.textContent('[data-testid=simul-score]')).startsWith('Host 3 – opponents 0 (3 of 3 boards finished)'), 8000, 'the simul won 3-0');
    for (const c of ctxs) await c.close();
    await host.close();
  });

  test('tournament: a four-player round robin with engines giving the right crosstable', async () => {
    const org = await browser().newPage();
    await org.goto(`${base()}/#/`);
    await org.fill('#new-tourney input[name=tname]', 'Club cup');
    await org.fill('#new-tourney textarea[name=players]', 'Ann\nE3 = engine 3\nE2 = engine 2\nE1 = engine 1');
    await org.click('#create-tourney');
    await org.waitForFunction(() => location.hash.startsWith('#/tournament/'));
    await org.waitForSelector('#tourney-players input');
    const annLink = await org.inputValue('#tourney-players input');
    check((await org.$$('#tourney-players input')).length === 1, 'one link: the engines have none');
    // Ann's link leads her to her current game, three times; she resigns each
    const ctx = await browser().newContext();
    const ann = await ctx.newPage();
    ann.on('dialog', (d) => d.accept());
    for (let game = 0; game < 3; game++) {
      await ann.goto('about:blank');
      await ann.goto(annLink);
      await ann.waitForFunction(() => location.hash.startsWith('#/game/') && window.damierState && window.damierState.result === '*', null, { timeout: 10000 });
      await ann.click('#btn-resign');
      await ann.waitForFunction(() => window.damierState.result !== '*');
    }
    // the engines' games played by the server: each pair of cells sums to 2, each row's
    // total is its cells' sum; Ann lost every game
    const row = (n) => org.evaluate((k) => [...document.querySelectorAll(`[data-testid=cross-${k}] > *`)].map((c) => c.textContent), n);
    await waitFor(async () => (await org.textContent('[data-testid=tourney-status]')).includes('over'), 60000, 'the tournament over');
    const rows = [];
    for (let n = 1; n <= 4; n++) rows.push(await row(n));
    const names = rows.map((r) => r[0].replace(/^\d+\. /, ''));
    check(names.join(' ') === 'Ann E3 E2 E1', `crosstable names: ${names.join(' ')}`);
    check(rows[0].slice(1).join(' ') === 'x 0 0 0 0', `Ann's row: ${rows[0].join(' ')}`);
    for (let a = 0; a < 4; a++) {
      let sum = 0;
      for (let b = 0; b < 4; b++) {
        if (a === b) { check(rows[a][1 + b] === 'x', `diagonal ${a}`); continue; }
        const x = Number(rows[a][1 + b]), y = Number(rows[b][1 + a]);
        check(x + y === 2, `cells ${a},${b}: ${x} + ${y}`);
        sum += x;
      }
      check(Number(rows[a][5]) === sum, `row ${a} total ${rows[a][5]} = ${sum}`);
    }
    // the three engine games have their records; one opens on the review board
    const recs = await org.$$('[data-testid=engine-game]');
    check(recs.length === 3, `three engine games' records: ${recs.length}`);
    await recs[0].click();
    await org.waitForFunction(() => location.hash.startsWith('#/game/') && window.damierState && window.damierState.result !== '*' && window.damierState.ply > 10, null, { timeout: 10000 });
    await org.goBack();
    await waitFor(async () => (await org.textContent('[data-testid=tourney-standings]')).includes('E3'), 10000, 'the standings again');
    await ctx.close();
    await org.close();
  });

  test('tournament: a five-team round robin typed in the form, match points and tie-breaks from the board points; sections and categories shown', async () => {
    const org = await browser().newPage();
    await org.goto(`${base()}/#/`);
    await org.fill('#new-tourney input[name=tname]', 'League');
    await org.fill('#new-tourney textarea[name=players]', [
      'Club: Ann, Bob', 'Alpha: a1 = engine 3, a2 = engine 3', 'Beta: b1 = engine 2, b2 = engine 2',
      'Gamma: g1 = engine 1, g2 = engine 1', 'Delta: d1 = engine 2, d2 = engine 1'].join('\n'));
    await org.click('#create-tourney');
    await org.waitForFunction(() => location.hash.startsWith('#/tournament/'));
    const [, , id, key] = (await org.evaluate(() => location.hash)).split('/');
    // the Club's players resign every game (their links are the organiser's); the
    // engines' boards are played by the server
    const api = (path, body) => org.evaluate(async ([p, b]) => {
      const r = await fetch(p, b ? { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(b) } : {});
      return r.json();
    }, [path, body]);
    let data;
    for (let i = 0; i < 600; i++) {
      data = await api(`/api/tournaments/${id}?key=${key}`);
      if (data.finished) break;
      for (const round of data.pairings) {
        for (const m of round.pairings) {
          for (const b of m.boards || []) {
            const link = b.white_link || b.black_link;
            if (b.result !== '*' || !link) continue;
            const [, , gid, gkey] = link.split('/').slice(1);
            await api(`/api/games/${gid}/resign`, { key: gkey });
          }
        }
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    check(data.finished, 'the league is over');
    check(data.boards === 2 && data.rounds === 5, `2 boards, 5 rounds: ${data.boards}, ${data.rounds}`);
    // the crosstable on the page: board points against each team; every match's board
    // points sum to 4; the match points and the board points tie-break follow from them
    // (2 for more board points, 1 for equal; the bye: 2 match points and 2 board points)
    await waitFor(async () => (await org.textContent('[data-testid=tourney-status]')).includes('over'), 60000, 'the page shows the end');
    const rows = [];
    for (let n = 1; n <= 5; n++) rows.push(await org.evaluate((k) => [...document.querySelectorAll(`[data-testid=cross-${k}] > *`)].map((c) => c.textContent), n));
    const names = rows.map((r) => r[0].replace(/^\d+\. /, ''));
    check(names.join(' ') === 'Club Alpha Beta Gamma Delta', `teams: ${names.join(' ')}`);
    const standings = await org.evaluate(() => [...document.querySelectorAll('#tourney-standings tr')].slice(1).map((tr) => [...tr.children].map((c) => c.textContent)));
    const heads = await org.evaluate(() => [...document.querySelectorAll('#tourney-standings tr:first-child > *')].map((c) => c.textContent));
    const bpCol = heads.indexOf('board points');
    check(bpCol > 3, `a board points column: ${heads.join('|')}`);
    for (let a = 0; a < 5; a++) {
      let mp = 2, bp = 2; // the bye
      for (let b = 0; b < 5; b++) {
        if (a === b) continue;
        const x = Number(rows[a][1 + b]), y = Number(rows[b][1 + a]);
        check(x + y === 4, `${names[a]}-${names[b]}: ${x} + ${y} board points`);
        mp += x > 2 ? 2 : x === 2 ? 1 : 0;
        bp += x;
      }
      if (a === 0) check(bp === 2, `the Club lost every board: ${bp}`);
      const line = standings.find((r) => r[1] === names[a]);
      check(Number(line[2]) === mp, `${names[a]}: ${line[2]} match points, ${mp} by the crosstable`);
      check(Number(line[bpCol]) === bp, `${names[a]}: ${line[bpCol]} board points, ${bp} by the crosstable`);
      check(Number(rows[a][6]) === mp, `${names[a]}'s crosstable total ${rows[a][6]}`);
    }
    // ranked by match points, then board points
    for (let k = 1; k < 5; k++) {
      const [p0, p1] = [Number(standings[k - 1][2]), Number(standings[k][2])];
      const [b0, b1] = [Number(standings[k - 1][bpCol]), Number(standings[k][bpCol])];
      check(p0 > p1 || (p0 === p1 && b0 >= b1), `rank ${k} before ${k + 1}`);
    }
    check(standings[4][1] === 'Club', 'the Club last');
    await org.close();
  });

  test('tournament: sections paired apart and a category ranked apart, typed in the form', async () => {
    const org = await browser().newPage();
    await org.goto(`${base()}/#/`);
    await org.fill('#new-tourney input[name=tname]', 'Festival');
    await org.fill('#new-tourney textarea[name=players]', ['A = engine 2', 'B = engine 1 # junior', 'W1 = engine 2 @ women # junior', 'W2 = engine 1 @ women'].join('\n'));
    await org.click('#create-tourney');
    await org.waitForFunction(() => location.hash.startsWith('#/tournament/'));
    await waitFor(async () => (await org.textContent('[data-testid=tourney-status]')).includes('over'), 60000, 'the festival over');
    const rowsOf = (tid) => org.evaluate((k) => [...document.querySelectorAll(`[data-testid=${k}] tr`)].slice(1).map((tr) => [...tr.children].map((c) => c.textContent)), tid);
    const open = await rowsOf('section-1-cross'), women = await rowsOf('section-2-cross');
    check(open.map((r) => r[0]).join(' ') === '1. A 2. B', `the main section: ${open.map((r) => r[0]).join(' ')}`);
    check(women.map((r) => r[0]).join(' ') === '1. W1 2. W2', `the women: ${women.map((r) => r[0]).join(' ')}`);
    for (const sec of [open, women]) check(Number(sec[0][2]) + Number(sec[1][1]) === 2, `one game of 2 points: ${sec[0][2]} + ${sec[1][1]}`);
    const body = await org.textContent('#tourney-sections');
    check(body.includes('Section: women') && body.includes('Section: main') && body.includes('Category: junior'), 'the headings');
    const junior = await rowsOf('category-1-standings');
    check(junior.map((r) => r[1]).sort().join(' ') === 'B W1', `the juniors: ${junior.map((r) => r[1]).join(' ')}`);
    await org.close();
  });

  test('correspondence: conditional moves set on the page are played by the server when the opponent makes the expected move', async () => {
    const a = await browser().newPage();
    await a.goto(`${base()}/#/`);
    await a.check('input[name=opponent][value=human]');
    await a.selectOption('select[name=side]', 'white');
    await a.selectOption('select[name=time]', 'corr:3');
    await a.click('#create');
    await a.waitForFunction(() => window.damierState && window.damierState.id);
    const ctx = await browser().newContext();
    const b = await ctx.newPage();
    await b.goto(await a.inputValue('[data-testid=link-black]'));
    await b.waitForFunction(() => window.damierState && window.damierState.you === 'black');
    check(!(await a.isVisible('[data-testid=cond-form]')), 'no conditional moves on one\'s own move');
    await a.fill('#move-input', '32-28');
    await a.press('#move-input', 'Enter');
    await a.waitForFunction(() => window.damierState.ply === 1);
    await a.waitForSelector('[data-testid=cond-form]', { state: 'visible' });
    // if Black plays 19-23, White takes 28x19
    await a.fill('#cond-input', '19-23 28x19');
    await a.press('#cond-input', 'Enter');
    await waitFor(async () => (await a.textContent('[data-testid=cond-current]')).includes('19-23 28x19'), 5000, 'the conditional moves kept');
    check(!(await b.evaluate(() => 'conditional' in window.damierState)), 'the opponent does not see them');
    await b.fill('#move-input', '19-23');
    await b.press('#move-input', 'Enter');
    await b.waitForFunction(() => window.damierState.ply === 3, null, { timeout: 5000 });
    const st = await gameState(b);
    check(st.moves[2].text === '28x19' && st.turn === 'black', `the reply played at once (${st.moves.map((m) => m.text)})`);
    await ctx.close();
    await a.close();
  });

  test('correspondence: the opponent\'s move while the page is in the background: the title says so and a notification is shown', async () => {
    const a = await browser().newPage();
    await a.goto(`${base()}/#/`);
    await a.check('input[name=opponent][value=human]');
    await a.selectOption('select[name=side]', 'white');
    await a.selectOption('select[name=time]', 'corr:1');
    await a.click('#create');
    await a.waitForFunction(() => window.damierState && window.damierState.id);
    const ctx = await browser().newContext();
    const b = await ctx.newPage();
    // Black's page: notifications allowed (a recorder), the page in the background
    await b.addInitScript(() => {
      window.notified = [];
      window.Notification = class { constructor(title, o) { window.notified.push([title, o.body]); } };
      window.Notification.permission = 'granted';
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
    });
    await b.goto(await a.inputValue('[data-testid=link-black]'));
    await b.waitForFunction(() => window.damierState && window.damierState.you === 'black');
    await a.fill('#move-input', '32-28');
    await a.press('#move-input', 'Enter');
    await b.waitForFunction(() => window.damierState.ply === 1, null, { timeout: 5000 });
    await waitFor(async () => (await b.title()).includes('Your move (32-28)'), 5000, 'the title says it is his move');
    const n = await b.evaluate(() => window.notified);
    check(n.length === 1 && n[0][0] === 'damier: your move' && n[0][1] === 'White played 32-28', `one notification (${JSON.stringify(n)})`);
    await ctx.close();
    await a.close();
  });
}
