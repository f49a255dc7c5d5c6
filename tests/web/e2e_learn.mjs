// SPDX-License-Identifier: MIT
// tests/web/e2e_learn.mjs: the course (issue 19), part of web_e2e (e2e.mjs registers
// these tests with its helpers): a new visitor whose browser asks for zh-CN completes
// the first lesson in Chinese; a wrong move shows the rule that forbids it (compulsory
// capture, the majority rule) as the rules core says it; a two-step lesson with the
// opponent's forced answer; lessons whose weaker moves are explained by their reasons
// (edge and centre squares, the Russian Turkish strike, tempo); the progress kept on reload. The master-games library
// (its games written by e2e.mjs): a search by a world champion's name opens one of his
// games on the review board; the opening explorer of the analysis board. The Chinese
// checkers course on the star board, by clicks and by the keyboard.

export function register({ test, base, check, waitFor, browser, checkNoEnglish }) {
  const sq = (page, s) => page.click(`#lesson-board [data-testid=sq-${s}]`, { force: true });
  const feedback = (page) => page.textContent('[data-testid=lesson-feedback]');
  const said = (page, re, what) => waitFor(async () => re.test(await feedback(page)), 5000, what);
  // the lesson id shown and playable (its position loaded from the server)
  const ready = (page, id) => page.waitForFunction((x) => window.damierLesson && window.damierLesson.id === x && window.damierLesson.ready, id);

  test('learn: a zh-CN visitor completes the first lesson in Chinese; wrong moves show the rule', async () => {
    const ctx = await browser().newContext({ locale: 'zh-CN', viewport: { width: 1100, height: 800 } });
    const page = await ctx.newPage();
    await page.goto(`${base()}/#/learn`);
    await page.waitForSelector('[data-testid=learn-board]');
    await waitFor(async () => (await page.textContent('[data-testid=learn-list]')).includes('国际跳棋'), 5000, 'the course in Chinese');
    check((await page.textContent('[data-testid=learn-list]')).includes('已完成 0 / 20 课'), 'no lesson done yet');
    await checkNoEnglish(page, 'the course');
    await page.click('[data-testid=learn-board]');
    await ready(page, 'board');
    check((await page.textContent('[data-testid=lesson-title]')) === '棋盘与格子编号', 'the first lesson in Chinese');
    check((await page.textContent('[data-testid=lesson-task]')).includes('32 号格'), 'the task in Chinese');
    await checkNoEnglish(page, 'the first lesson');
    // a legal move that is not the task's
    await sq(page, 31);
    await sq(page, 26);
    await said(page, /31-26 合乎规则，但不是本题的答案/, 'a legal move that is not the answer');
    // the task's move, by clicks
    await sq(page, 32);
    await sq(page, 28);
    await said(page, /本课完成/, 'the first lesson completed');
    check(await page.isVisible('[data-testid=lesson-next]'), 'the next lesson offered');
    // the rule that forbids a move, said by the rules core in Chinese
    await page.goto(`${base()}/#/learn/compulsory`);
    await ready(page, 'compulsory');
    await sq(page, 38);
    await sq(page, 33);
    await said(page, /不允许：.*能吃子必须吃子（FMJD 4\.1）/, 'compulsory capture explained');
    check(await page.evaluate(() => window.damierLesson.step === 0), 'the wrong move not played');
    await sq(page, 32);
    await sq(page, 21);
    await said(page, /本课完成/, 'the compulsory-capture lesson completed');
    await page.goto(`${base()}/#/learn/majority`);
    await ready(page, 'majority');
    await sq(page, 32);
    await sq(page, 21);
    await said(page, /能多吃必须多吃（FMJD 4\.13）/, 'the majority rule explained');
    await sq(page, 38);
    await sq(page, 20);
    await said(page, /本课完成/, 'the majority lesson completed');
    // a Russian lesson (the 64-square board, its squares' names): no majority rule, but
    // capture is compulsory; c3 is square 22, b4 17, e3 23, c5 14 of the 8x8 board
    await page.goto(`${base()}/#/learn/ru-choice`);
    await ready(page, 'ru-choice');
    check(await page.evaluate(() => window.damierLesson.fen.startsWith('W:W')) && (await page.$$('#lesson-board [data-testid^=sq-]')).length === 32, 'the 8x8 board');
    await sq(page, 22);
    await sq(page, 17);
    await said(page, /不允许：.*能吃子必须吃子/, 'compulsory capture in Russian draughts');
    await sq(page, 23);
    await sq(page, 14);
    await said(page, /本课完成/, 'the capture of one piece accepted (no majority rule)');
    // the progress kept on reload
    await page.goto(`${base()}/#/learn`);
    await page.reload();
    await waitFor(async () => (await page.textContent('[data-testid=learn-list]')).includes('已完成 3 / 20 课'), 5000, 'three lessons done after a reload');
    check((await page.textContent('[data-testid=learn-list]')).includes('✓'), 'done lessons marked');
    await ctx.close();
  });

  test('learn: a zh-CN visitor plays the first Chinese checkers lessons on the star board; a wrong move shows the rule', async () => {
    const ctx = await browser().newContext({ locale: 'zh-CN', viewport: { width: 1100, height: 800 } });
    const page = await ctx.newPage();
    const hole = (n) => page.click(`#lesson-board [data-testid=hole-${n}]`);
    await page.goto(`${base()}/#/learn`);
    await waitFor(async () => (await page.textContent('[data-testid=learn-list]')).includes('中国跳棋'), 5000, 'the Chinese checkers course listed');
    await page.click('[data-testid=learn-cc-board]');
    await ready(page, 'cc-board');
    check((await page.textContent('[data-testid=lesson-title]')) === '六角星棋盘与营区', 'the first lesson in Chinese');
    check(await page.isVisible('#lesson-board svg.jumpboard'), 'the star board drawn');
    check((await page.$$('#lesson-board [data-hole]')).length === 121, '121 holes');
    await checkNoEnglish(page, 'the first Chinese checkers lesson');
    // choosing the peg on 113 marks its two steps
    await hole(113);
    await waitFor(async () => (await page.$$('#lesson-board .hole.target')).length === 2, 5000, 'the two steps of 113 marked');
    // a hole out of reach: the rules core's words, in Chinese
    await hole(95);
    await said(page, /不允许：.*113 的棋子一步到不了 95/, 'the rule that forbids 113-95');
    check(await page.evaluate(() => window.damierLesson.step === 0), 'the wrong move not played');
    // a legal move that is not the task's
    await hole(113);
    await hole(105);
    await said(page, /113-105 合乎规则，但不是本题的答案/, 'a legal move that is not the answer');
    // the task, by clicks
    await hole(113);
    await hole(104);
    await said(page, /本课完成/, 'the first Chinese checkers lesson completed');
    // the next one by the keyboard: Tab to the peg on 117, Enter, then the hole 104
    await page.click('[data-testid=lesson-next]');
    await ready(page, 'cc-jump');
    await page.focus('#lesson-board [data-hole="117"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#lesson-board [data-hole="104"][tabindex="0"]');
    await page.focus('#lesson-board [data-hole="104"]');
    await page.keyboard.press('Enter');
    await said(page, /本课完成/, 'the jump lesson completed by the keyboard');
    // a chain of jumps clicked by its two ends
    await page.goto(`${base()}/#/learn/cc-bridge`);
    await ready(page, 'cc-bridge');
    await hole(104);
    await hole(103);
    await said(page, /正确！对方应了 7-16/, 'the bridge built, the opponent answered');
    await hole(112);
    await hole(67);
    await said(page, /本课完成/, 'the bridge crossed in one chain');
    await page.goto(`${base()}/#/learn`);
    await waitFor(async () => (await page.textContent('[data-testid=learn-list]')).includes('已完成 3 / 7 课'), 5000, 'three Chinese checkers lessons done');
    await ctx.close();
  });

  test('learn: a signed-in learner\'s progress is kept in the account and seen from a new browser', async () => {
    const ctx = await browser().newContext({ viewport: { width: 1100, height: 800 } });
    const page = await ctx.newPage();
    await page.goto(`${base()}/#/learn`);
    // done before signing in: merged into the account when the course is shown signed in
    await page.evaluate(() => localStorage.setItem('damier.lessons.done', JSON.stringify({ board: true })));
    const up = await ctx.request.post(`${base()}/api/account/signup`, { data: { name: 'learner', password: 'password-learner' } });
    check(up.status() === 201, `signed up (${up.status()})`);
    await page.goto(`${base()}/#/learn/cc-board`);
    await ready(page, 'cc-board');
    const posted = page.waitForResponse((r) => r.url().endsWith('/api/account/lessons') && r.request().method() === 'POST');
    await page.click('#lesson-board [data-testid=hole-113]');
    await page.click('#lesson-board [data-testid=hole-104]');
    await said(page, /Lesson complete/, 'the lesson completed');
    check((await posted).status() === 200, 'the lesson kept in the account');
    await page.goto(`${base()}/#/learn`);
    await waitFor(async () => (await page.$$('#learn-list .done')).length === 2, 5000, 'two lessons marked done');
    await ctx.close();
    // another browser: nothing stored locally, the account's lessons shown once signed in
    const ctx2 = await browser().newContext({ viewport: { width: 1100, height: 800 } });
    const page2 = await ctx2.newPage();
    await page2.goto(`${base()}/#/learn`);
    await page2.waitForSelector('[data-testid=learn-cc-board]');
    check((await page2.$$('#learn-list .done')).length === 0, 'a visitor: nothing done');
    const login = await ctx2.request.post(`${base()}/api/account/login`, { data: { name: 'learner', password: 'password-learner' } });
    check(login.status() === 200, `signed in (${login.status()})`);
    await page2.reload();
    await waitFor(async () => (await page2.$$('#learn-list .done')).length === 2, 5000, 'the account\'s two lessons shown in the new browser');
    check(await page2.isVisible('[data-testid=learn-cc-board] + .done'), 'the Chinese checkers lesson among them');
    await ctx2.close();
  });

  test('learn: a shot in two steps by the move entry, the forced answer played by the page', async () => {
    const page = await browser().newPage();
    await page.goto(`${base()}/#/learn/shot`);
    await ready(page, 'shot');
    check((await page.textContent('[data-testid=lesson-title]')) === 'A first shot', 'the lesson in English');
    await page.fill('#lesson-move', '27-21');
    await page.press('#lesson-move', 'Enter');
    await said(page, /27-21 is legal, but it is not the answer/, 'a quiet move is not the shot');
    await page.fill('#lesson-move', '27-22');
    await page.press('#lesson-move', 'Enter');
    await said(page, /Right! Black answered 18x27/, 'the forced capture answered');
    check((await page.textContent('[data-testid=lesson-task]')).includes('take two'), 'the second task shown');
    await page.fill('#lesson-move', '32x21');
    await page.press('#lesson-move', 'Enter');
    await said(page, /not the answer|Not allowed/, 'the wrong capture refused');
    await page.fill('#lesson-move', '32x12');
    await page.press('#lesson-move', 'Enter');
    await said(page, /Lesson complete! On to the next one/, 'the shot completed');
    check(await page.evaluate(() => window.damierLesson.fen) === 'B:W12,28,38,46:B3,4,9', `the position after the shot (${await page.evaluate(() => window.damierLesson.fen)})`);
    // a lone king caught by a sacrifice
    await page.goto(`${base()}/#/learn/catch-king`);
    await ready(page, 'catch-king');
    await page.fill('#lesson-move', '8-12');
    await page.press('#lesson-move', 'Enter');
    await said(page, /Right! Black answered 7x9/, 'the king had to take');
    await page.fill('#lesson-move', '4x13');
    await page.press('#lesson-move', 'Enter');
    await said(page, /Lesson complete! On to the next one/, 'the lone king caught');
    // the last lesson: three kings take the long diagonal and force the lone king
    await page.goto(`${base()}/#/learn/three-kings`);
    await ready(page, 'three-kings');
    for (const [mine, his] of [['2-19', '26-3'], ['38-21', '3x26'], ['19-37', '26x42']]) {
      await page.fill('#lesson-move', mine);
      await page.press('#lesson-move', 'Enter');
      await said(page, new RegExp(`Right! Black answered ${his}`), `${mine} answered by ${his}`);
    }
    await page.fill('#lesson-move', '48x31');
    await page.press('#lesson-move', 'Enter');
    await said(page, /Lesson complete! On to the next one/, 'three kings won');
    // edge and centre: the edge move explained by the lesson's reason, the centre move wins
    await page.goto(`${base()}/#/learn/edge-centre`);
    await ready(page, 'edge-centre');
    await page.fill('#lesson-move', '30-25');
    await page.press('#lesson-move', 'Enter');
    await said(page, /30-25 goes to the edge/, 'the edge move explained');
    for (const [mine, his] of [['30-24', '28-33'], ['38x29', '14-19']]) {
      await page.fill('#lesson-move', mine);
      await page.press('#lesson-move', 'Enter');
      await said(page, new RegExp(`Right! Black answered ${his}`), `${mine} answered by ${his}`);
    }
    await page.fill('#lesson-move', '24x13');
    await page.press('#lesson-move', 'Enter');
    await said(page, /Lesson complete! On to the next one/, 'the centre man won');
    // the Russian Turkish strike: the king stopped by the man it jumped, then caught
    await page.goto(`${base()}/#/learn/ru-turkish`);
    await ready(page, 'ru-turkish');
    await page.fill('#lesson-move', 'f4-g5');
    await page.press('#lesson-move', 'Enter');
    await said(page, /Right! Black answered h4:h8/, 'the king stopped on h8');
    await page.fill('#lesson-move', 'c3-b4');
    await page.press('#lesson-move', 'Enter');
    await said(page, /c3-b4 takes your man off the long diagonal/, 'the weaker move explained');
    await page.fill('#lesson-move', 'g1-h2');
    await page.press('#lesson-move', 'Enter');
    await said(page, /Right! Black answered h8:b2/, 'the king had to take c3');
    await page.fill('#lesson-move', 'a1:c3');
    await page.press('#lesson-move', 'Enter');
    await said(page, /Lesson complete! On to the next one/, 'the king caught');
    // the last lesson: tempo; a weaker move is explained by the lesson's reason
    await page.goto(`${base()}/#/learn/tempo`);
    await ready(page, 'tempo');
    await page.fill('#lesson-move', '47-42');
    await page.press('#lesson-move', 'Enter');
    await said(page, /47-42 opens the block: Black takes two men with 26x48/, 'the weaker move explained');
    for (const [mine, his] of [['31-27', '26-31'], ['27-21', '31-37'], ['41x32', '36-41']]) {
      await page.fill('#lesson-move', mine);
      await page.press('#lesson-move', 'Enter');
      await said(page, new RegExp(`Right! Black answered ${his}`), `${mine} answered by ${his}`);
    }
    await page.fill('#lesson-move', '47x36');
    await page.press('#lesson-move', 'Enter');
    await said(page, /you have finished the course/, 'the last lesson completes the course');
    await page.close();
  });

  test('library: a world champion\'s games found by his name, one opened on the review board', async () => {
    const page = await browser().newPage();
    await page.goto(`${base()}/#/library`);
    await page.waitForSelector('#library-champions a');
    await page.click('#library-champions a:text-is("Sijbrands")');
    await waitFor(async () => (await page.textContent('[data-testid=library-total]').catch(() => '')) === '2 games', 5000, 'two games of Sijbrands');
    const rows = await page.$$eval('table.library tr', (trs) => trs.slice(1).map((tr) => tr.textContent));
    check(rows.every((r) => r.includes('T. Sijbrands')), `his games listed (${rows})`);
    await page.click('table.library tr:nth-child(2) button');
    await page.waitForFunction(() => location.hash.startsWith('#/game/') && window.damierState && window.damierState.moves.length > 0);
    const st = await page.evaluate(() => window.damierState);
    check(st.mode === 'review' && st.moves[0].text === '32-28', `the game on the review board (${st.mode}, ${st.moves.map((m) => m.text)})`);
    // a search by a pattern of squares and by year
    await page.goto(`${base()}/#/library?pattern=${encodeURIComponent('W:W28:B23')}&year=1973`);
    await waitFor(async () => (await page.textContent('[data-testid=library-total]').catch(() => '')) === '2 games', 5000, 'the pattern search');
    await page.goto(`${base()}/#/library?year=soon`);
    await waitFor(async () => (await page.textContent('#library-error')).includes('year'), 5000, 'a bad year refused with a reason');
    await page.close();
  });

  test('library: the opening explorer on the analysis board, its moves played by a click', async () => {
    const page = await browser().newPage();
    await page.goto(`${base()}/#/analysis`);
    await page.waitForSelector('[data-testid="explorer-move-32-28"]');
    const row = await page.textContent('[data-testid=explorer] tr:nth-child(2)');
    check(row.replace(/\s+/g, ' ').startsWith('32-28211'), `32-28: 2 games, 1 White win, 1 draw (${row})`);
    await page.click('[data-testid="explorer-move-32-28"]');
    await page.waitForSelector('[data-testid="explorer-move-19-23"]');
    check((await page.inputValue('#fen-input')).startsWith('B:'), 'the move played on the board');
    await page.click('[data-testid=explorer-games]');
    await waitFor(async () => (await page.textContent('[data-testid=library-total]').catch(() => '')) === '2 games', 5000, 'the games of the position');
    await page.close();
  });
}
