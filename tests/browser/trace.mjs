// Browser tests of the "How did it decide?" view (static/trace.js), run by play.mjs with its
// browser, server and bookkeeping, on a desktop and on a phone: the textbook tree traced under
// alpha-beta, its node counts side by side, stepping forward and back (buttons and arrow keys)
// with α and β at each step, the pruned branch greyed with its reason, the chosen path
// highlighted at the end, the learner's own α and β checked; then the position on the board
// traced, with its line of play and the empty board's 549,946 nodes, and the switch of scores.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

const VIEWPORTS = [
  { name: 'desktop 1280x800', options: { viewport: { width: 1280, height: 800 } } },
  { name: 'phone 390x844', phone: true, options: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true } },
];

const text = (page, selector) => page.$eval(selector, (e) => e.textContent.trim());

async function traced(page) {
  await page.waitForFunction(() => ['ready', 'error'].includes(document.getElementById('trace').dataset.state));
  return page.$eval('#trace', (e) => e.dataset.state);
}

async function counts(page) {
  return page.$$eval('#trace-counts tr[data-algorithm]', (rows) =>
    Object.fromEntries(rows.map((r) => [r.dataset.algorithm, r.querySelector('td').textContent])));
}

export async function traceTests({ browser, base, check, log, watchPage, requests, STEP_MS }) {
  for (const vp of VIEWPORTS) {
    const label = (what) => `trace view, ${vp.name}: ${what}`;
    const context = await browser.newContext({ ...vp.options, serviceWorkers: 'block' });
    context.setDefaultTimeout(STEP_MS);
    context.on('request', (r) => requests.push(r.url()));
    const page = await context.newPage();
    watchPage(page);
    await page.goto(`${base}/`, { waitUntil: 'load' });
    await page.waitForFunction(() => ['human', 'over'].includes(document.body.dataset.phase));
    log(`trace view on ${vp.name}`);

    // --- the textbook tree under alpha-beta
    await page.click('.trace-textbook summary');
    await page.fill('#trace-tree', '[[[-1, 4], [2, 6]], [[-3, -5], [0, 7]]]');
    await page.selectOption('#trace-algorithm', 'alphabeta');
    await page.click('#trace-tree-run');
    check(label('the textbook tree is traced'), (await traced(page)) === 'ready', await text(page, '#trace-status'));
    const c = await counts(page);
    check(label('node counts side by side: minimax 15, alpha-beta 12'), c.minimax === '15' && c.alphabeta === '12' && c.alphabeta_table === '12', JSON.stringify(c));
    check(label('the explanation names the choice'), (await text(page, '#trace-explanation')).startsWith('MAX moves to B, worth 4.'));
    check(label('the first step is entering A with α −∞ and β +∞'), (await text(page, '#trace-now')) === 'Enter A, MAX to move, with α = −∞ and β = +∞.', await text(page, '#trace-now'));
    check(label('24 steps: enter and leave each of 12 nodes'), (await text(page, '#trace-step')) === 'Step 1 of 24', await text(page, '#trace-step'));
    check(label('back is disabled on the first step'), await page.$eval('#trace-back', (b) => b.disabled));

    const press = (selector) => (vp.phone ? page.tap(selector) : page.click(selector));
    await press('#trace-forward');
    await press('#trace-forward');
    check(label('forward twice: entering D'), (await text(page, '#trace-now')).startsWith('Enter D, MAX to move'), await text(page, '#trace-now'));
    check(label('the current node is marked'), (await page.$eval('li.current .trace-name', (e) => e.textContent)).startsWith('D'));
    await press('#trace-back');
    check(label('back once: entering B again, α −∞, β +∞'), (await text(page, '#trace-now')) === 'Enter B, MIN to move, with α = −∞ and β = +∞.', await text(page, '#trace-now'));

    // Keyboard: arrows step inside the view.
    await page.focus('#trace-forward');
    for (let i = 0; i < 6; i++) await page.keyboard.press('ArrowRight');
    const now = await text(page, '#trace-now');
    check(label('arrow keys step forward to leaving D with 4, given by I'), now.startsWith('Leave D with value 4, given by I'), now);
    await page.keyboard.press('ArrowLeft');
    check(label('arrow left steps back'), (await text(page, '#trace-step')) === 'Step 7 of 24', await text(page, '#trace-step'));
    await page.keyboard.press('Enter');
    check(label('Enter on the focused Forward button steps'), (await text(page, '#trace-step')) === 'Step 8 of 24', await text(page, '#trace-step'));

    await press('#trace-end');
    const last = await page.evaluate(() => ({
      chosen: [...document.querySelectorAll('li.chosen > .trace-row .trace-name')].map((e) => e.textContent),
      pruned: [...document.querySelectorAll('li.pruned.shown')].map((e) => e.textContent),
      forward: document.getElementById('trace-forward').disabled,
    }));
    check(label('at the end the chosen path A, B, D, I is highlighted'), JSON.stringify(last.chosen.map((n) => n[0])) === '["A","B","D","I"]', JSON.stringify(last.chosen));
    check(label('the pruned branch G is greyed with its reason'), last.pruned.length === 1 && /pruned, cut off by α \(α 4 ≥ β −3\)/.test(last.pruned[0]), JSON.stringify(last.pruned));
    check(label('forward is disabled at the end'), last.forward);
    await press('#trace-start');
    check(label('back to the first step'), (await text(page, '#trace-step')) === 'Step 1 of 24');
    check(label('the pruned branch is not shown before C is left'), (await page.$$('li.pruned.shown')).length === 0);

    // The learner's own α and β.
    await page.check('#trace-quiz');
    await press('#trace-forward');
    check(label('the quiz asks on entering B'), await page.$eval('#trace-quiz-form', (f) => !f.hidden));
    await page.fill('#trace-quiz-alpha', '-inf');
    await page.fill('#trace-quiz-beta', 'inf');
    await page.press('#trace-quiz-beta', 'Enter');
    check(label('a right α and β are confirmed'), (await text(page, '#trace-quiz-result')) === 'Right.', await text(page, '#trace-quiz-result'));
    // C is entered at step 16 (enter A B D H, leave H, enter I, leave I D, enter E J, leave J,
    // enter K, leave K E B, then enter C).
    for (let i = 0; i < 14; i++) await press('#trace-forward');
    check(label('step 16 enters C'), (await text(page, '#trace-now')).startsWith('Enter C'), await text(page, '#trace-now'));
    await page.fill('#trace-quiz-alpha', '-inf');
    await page.fill('#trace-quiz-beta', 'inf');
    await page.click('#trace-quiz-form button[type="submit"]');
    check(label('a wrong α is corrected: α = 4 on entry to C'), (await text(page, '#trace-quiz-result')).includes('α = 4, β = +∞'), await text(page, '#trace-quiz-result'));
    await page.uncheck('#trace-quiz');
    check(label('the quiz hides when unticked'), await page.$eval('#trace-quiz-form', (f) => getComputedStyle(f).display === 'none'));

    // --- the position on the board: the empty 3 x 3 under alpha-beta
    await page.selectOption('#trace-algorithm', 'alphabeta');
    await press('#trace-position');
    check(label('the empty board is traced'), (await traced(page)) === 'ready', await text(page, '#trace-status'));
    const empty = await counts(page);
    check(label('plain minimax visits the whole game tree: 549,946 nodes'), empty.minimax === '549,946', JSON.stringify(empty));
    const lineCells = await page.$$eval('#trace-line span.line', (s) => s.map((e) => e.textContent));
    check(label('the line of play is on the board, numbered from X1'), lineCells.length === 9 && lineCells.includes('X1'), JSON.stringify(lineCells));
    const items = await page.$$eval('#trace-tree-view li[role="treeitem"]', (l) => l.length);
    check(label('the tree lists the root and its nine moves at least'), items >= 10, String(items));
    const before = await text(page, '#trace-explanation');
    await page.selectOption('#trace-scoring', 'classic');
    await page.waitForFunction((b) => document.getElementById('trace-explanation').textContent !== b && document.getElementById('trace').dataset.state === 'ready', before);
    check(label('switching to +10/−10/0 traces again'), (await text(page, '#trace-status')).includes('value 0'), await text(page, '#trace-status'));

    const width = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, view: window.innerWidth }));
    check(label('no sideways scrolling'), width.page <= width.view, JSON.stringify(width));
    fs.mkdirSync(path.join(ROOT, 'artifacts'), { recursive: true });
    await page.screenshot({ path: path.join(ROOT, 'artifacts', `trace-${vp.phone ? 'phone' : 'desktop'}.png`), fullPage: true });
    await context.close();
  }
}
