// SPDX-License-Identifier: MIT
// tests/web/e2e_forms.mjs: the game forms of issue 13 beside the accessible and
// blindfold board (e2e_access.mjs), part of web_e2e: the simultaneous display (the
// host plays board after board against the engine, the page going on to the next
// board after each move; the overview's score) and the blindfold simul.

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
    await page.waitForFunction(() => window.damierState && window.damierState.turn === window.damierState.you && window.damierState.legal.length > 0, null, { timeout: 15000 });
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
}
