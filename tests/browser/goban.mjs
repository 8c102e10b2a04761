// Browser tests of the gomoku board (15 x 15 and 20 x 20, five in a row), run by play.mjs with its
// browser, server and bookkeeping: the board drawn as lines with the stones on the intersections,
// coordinates along the edges (columns a.. from the left, rows 1.. from the bottom), the whole board
// in view on a desktop and on a phone, points of at least 24 x 24 CSS px (zoomed on a phone where
// the board cannot fit them), play by clicking an intersection, the last-move mark, the analysis as
// a heat map with the expected line numbered on the board, renju's forbidden points, and no
// per-cell numbers.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const LETTERS = 'abcdefghijklmnopqrst';
const MIN_TARGET = 24;

// Board notation, as the API writes it: h8 is column h from the left, row 8 from the bottom.
export const coordinateOf = (index, n) => LETTERS[index % n] + String(n - Math.floor(index / n));
export const indexOf = (coordinate, n) => (n - Number(coordinate.slice(1))) * n + LETTERS.indexOf(coordinate[0]);

const VIEWPORTS = [
  { name: 'desktop 1280x800', options: { viewport: { width: 1280, height: 800 } } },
  { name: 'phone 390x844', phone: true, options: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true } },
];

// What the page shows of its board: the geometry of every point and label, read in the page.
async function measure(page) {
  return page.evaluate(() => {
    const rect = (el) => { const r = el.getBoundingClientRect(); return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height }; };
    const board = document.getElementById('board');
    const scroll = document.getElementById('board-scroll');
    const cells = [...board.querySelectorAll('button[data-index]')];
    return {
      goban: board.classList.contains('goban'),
      board: rect(board),
      frame: rect(scroll),
      frameScroll: { width: scroll.scrollWidth, clientWidth: scroll.clientWidth, height: scroll.scrollHeight, clientHeight: scroll.clientHeight },
      viewport: { width: window.innerWidth, height: window.innerHeight },
      pageWidth: document.documentElement.scrollWidth,
      minWidth: Math.min(...cells.map((c) => c.getBoundingClientRect().width)),
      minHeight: Math.min(...cells.map((c) => c.getBoundingClientRect().height)),
      cells: cells.length,
      first: rect(cells[0]),
      last: rect(cells[cells.length - 1]),
      rowLabels: [...board.querySelectorAll('.row-label')].map((l) => ({ text: l.textContent, ...rect(l) })),
      colLabels: [...board.querySelectorAll('.col-label')].map((l) => ({ text: l.textContent, ...rect(l) })),
      zoomOffered: !document.querySelector('.board-tools').hidden,
      ruleShown: !document.querySelector('.rule-field').hidden,
    };
  });
}

// Every point's state as a user or a screen reader gets it.
async function readPoints(page) {
  return page.$$eval('#board button[data-index]', (bs) => bs.map((b) => ({
    index: Number(b.dataset.index),
    label: b.getAttribute('aria-label') || '',
    text: (b.textContent || '').trim(),
    disabled: b.getAttribute('aria-disabled') === 'true',
    description: b.getAttribute('aria-description') || '',
    stone: b.querySelector('.stone.black') ? 'X' : b.querySelector('.stone.white') ? 'O' : null,
    last: b.classList.contains('last'),
    heat: b.dataset.heat === undefined ? null : Number(b.dataset.heat),
    heatAlpha: b.querySelector('.heat') ? Number((/rgba\([^)]*,\s*([\d.]+)\)/.exec(getComputedStyle(b.querySelector('.heat')).backgroundColor) || [0, 1])[1]) : null,
    pv: b.querySelector('.pv') ? b.querySelector('.pv').textContent : null,
    foul: b.dataset.forbidden || null,
    foulShown: !!b.querySelector('.foul'),
    lastMark: b.querySelector('.stone') ? getComputedStyle(b.querySelector('.stone'), '::after').content !== 'none' : false,
  })));
}

const inside = (r, v, slack = 0.5) => r.left >= -slack && r.top >= -slack && r.right <= v.width + slack && r.bottom <= v.height + slack;
const show = (r) => `[${Math.round(r.left)}, ${Math.round(r.top)}, ${Math.round(r.right)}, ${Math.round(r.bottom)}]`;

export async function gobanTests({ browser, base, check, log, settle, checkContrast, watchPage, requests, STEP_MS }) {
  for (const vp of VIEWPORTS) {
    const context = await browser.newContext({ ...vp.options, serviceWorkers: 'block' });
    context.setDefaultTimeout(STEP_MS);
    context.on('request', (r) => requests.push(r.url()));
    const page = await context.newPage();
    watchPage(page);
    await page.goto(`${base}/`, { waitUntil: 'load' });
    await settle(page);
    const press = (selector) => (vp.phone ? page.tap(selector) : page.click(selector));
    const start = async (size, rule) => {
      await page.uncheck('#analysis');
      await page.selectOption('#size', size);
      await page.selectOption('#side', 'X');
      await page.selectOption('#difficulty', 'perfect');
      await page.selectOption('#rule', rule);
      await page.click('#new-game');
      await page.evaluate(() => window.scrollTo(0, 0));
      return settle(page);
    };
    for (const n of [15, 20]) {
      const label = `goban ${n}x${n}, ${vp.name}`;
      const size = `${n}x${n}x5`;
      const ph = await start(size, 'freestyle');
      await layoutChecks(page, { n, label, phone: !!vp.phone, check, ph });
      await playAndAnalyse(page, { n, label, press, check, settle, STEP_MS });
      fs.mkdirSync(path.join(ROOT, 'artifacts'), { recursive: true });
      await page.screenshot({ path: path.join(ROOT, 'artifacts', `goban-${n}x${n}-${vp.phone ? 'phone' : 'desktop'}.png`), fullPage: true });
      if (!vp.phone) {
        await checkContrast(page, `${label}, analysis shown`);
        await page.emulateMedia({ colorScheme: 'dark' });
        await checkContrast(page, `${label}, analysis shown, dark`);
        await page.emulateMedia({ colorScheme: 'light' });
      }
      // Renju is played on 15 x 15 only, and offered only there.
      if (n === 15) await renjuChecks(page, { n, label, press, start, base, check, settle, STEP_MS, contrast: vp.phone ? null : checkContrast });
      else {
        const offered = await page.$$eval('#rule option', (os) => os.filter((o) => !o.disabled && !o.hidden).map((o) => o.value));
        check(`${label}: renju is not offered on ${n}x${n}`, !offered.includes('renju') && offered.includes('freestyle'), JSON.stringify(offered));
      }
      log(`${label} done`);
    }
    await context.close();
  }
}

// The board as a board: lines and points, coordinates, in view, points large enough to hit.
async function layoutChecks(page, { n, label, phone, check, ph }) {
  const points = await readPoints(page);
  check(`${label}: ${n * n} points, the human to move on an empty board`, points.length === n * n && ph === 'human' && points.every((p) => !p.stone), `${points.length} points, phase ${ph}`);
  const m = await measure(page);
  check(`${label}: the board is drawn as a goban (lines with points on them)`, m.goban);
  check(`${label}: the rule selector is shown for five in a row`, m.ruleShown);
  const names = points.map((p) => p.label.replace(/, (X|O|empty)$/, ''));
  check(`${label}: each point is a button named by its coordinate (a${n} top left, ${LETTERS[n - 1]}1 bottom right)`,
    names.every((name, i) => name === coordinateOf(i, n)) && points.every((p) => /, empty$/.test(p.label)),
    `${names[0]} .. ${names[names.length - 1]}`);
  check(`${label}: no point shows a number (or any text) on an empty board`, points.every((p) => p.text === ''), JSON.stringify(points.filter((p) => p.text).slice(0, 5).map((p) => [p.index, p.text])));

  // Coordinates: row numbers down the left edge from n at the top to 1 at the bottom, each level
  // with its row; column letters along the bottom, each under its column.
  const rowsOk = m.rowLabels.length === n && m.rowLabels.every((l, r) => l.text === String(n - r));
  const colsOk = m.colLabels.length === n && m.colLabels.every((l, c) => l.text === LETTERS[c]);
  check(`${label}: row numbers ${n}..1 top to bottom and column letters a..${LETTERS[n - 1]} are shown`, rowsOk && colsOk,
    `${m.rowLabels.map((l) => l.text).join(' ')} / ${m.colLabels.map((l) => l.text).join(' ')}`);
  const pitch = (m.last.left - m.first.left) / (n - 1);
  const aligned = m.rowLabels.every((l, r) => Math.abs((l.top + l.bottom) / 2 - (m.first.top + m.first.height / 2 + r * pitch)) <= 1.5 && l.right <= m.first.left + 0.5)
    && m.colLabels.every((l, c) => Math.abs((l.left + l.right) / 2 - (m.first.left + m.first.width / 2 + c * pitch)) <= 1.5 && l.top >= m.last.bottom - 0.5);
  check(`${label}: each number is level with its row (left of the board) and each letter under its column`, aligned);

  if (!phone) {
    // A desktop: the whole board on screen as the page opens, points of at least 24 px, no zoom needed.
    check(`${label}: the whole board is in the viewport without scrolling`, inside(m.board, m.viewport) && inside(m.last, m.viewport), `board ${show(m.board)} in ${m.viewport.width}x${m.viewport.height}`);
    check(`${label}: every point is at least ${MIN_TARGET} x ${MIN_TARGET} px`, m.minWidth >= MIN_TARGET && m.minHeight >= MIN_TARGET, `${m.minWidth.toFixed(1)} x ${m.minHeight.toFixed(1)}`);
    return;
  }
  // A phone: the board spans the width without sideways scrolling of the page; scrolled to, the whole
  // board is on screen. Where its points are under 24 px (20 x 20), the zoom toggle enlarges them.
  await page.$eval('#board', (b) => b.scrollIntoView({ block: 'center' }));
  const shown = await measure(page);
  check(`${label}: no sideways scrolling of the page`, shown.pageWidth <= shown.viewport.width, `page ${shown.pageWidth}px wide`);
  check(`${label}: scrolled to, the whole board is in the viewport (not zoomed)`, inside(shown.board, shown.viewport), `board ${show(shown.board)} in ${shown.viewport.width}x${shown.viewport.height}`);
  if (shown.minWidth >= MIN_TARGET && shown.minHeight >= MIN_TARGET) {
    check(`${label}: every point is at least ${MIN_TARGET} px without zooming`, true);
    check(`${label}: ${n === 15 ? 'the board fits without zooming' : 'zoom offered'}`, n === 15 || shown.zoomOffered);
    return;
  }
  check(`${label}: points under ${MIN_TARGET} px come with a zoom toggle`, shown.zoomOffered && n === 20, `points ${shown.minWidth.toFixed(1)} px, zoom ${shown.zoomOffered}`);
  await page.tap('#zoom');
  const zoomed = await measure(page);
  const pressed = await page.getAttribute('#zoom', 'aria-pressed');
  check(`${label}: zoomed, every point is at least ${MIN_TARGET} x ${MIN_TARGET} px`, pressed === 'true' && zoomed.minWidth >= MIN_TARGET && zoomed.minHeight >= MIN_TARGET, `aria-pressed ${pressed}, ${zoomed.minWidth.toFixed(1)} x ${zoomed.minHeight.toFixed(1)}`);
  check(`${label}: zoomed, the board pans inside its frame and the page still does not scroll sideways`,
    zoomed.frameScroll.width > zoomed.frameScroll.clientWidth && zoomed.pageWidth <= zoomed.viewport.width, JSON.stringify({ frame: zoomed.frameScroll, page: zoomed.pageWidth }));
  // Every corner can be brought on screen by panning.
  const corners = [0, n - 1, n * n - n, n * n - 1];
  const reached = [];
  for (const i of corners) {
    reached.push(await page.$eval(`#board button[data-index="${i}"]`, (b) => {
      b.scrollIntoView({ block: 'nearest', inline: 'nearest' });
      const r = b.getBoundingClientRect();
      const f = document.getElementById('board-scroll').getBoundingClientRect();
      return r.left >= f.left - 0.5 && r.right <= f.right + 0.5 && r.top >= f.top - 0.5 && r.bottom <= f.bottom + 0.5
        && r.left >= -0.5 && r.right <= window.innerWidth + 0.5 && r.top >= -0.5 && r.bottom <= window.innerHeight + 0.5;
    }));
  }
  check(`${label}: zoomed, panning reaches all four corners`, reached.every(Boolean), JSON.stringify(reached));
  await page.tap('#zoom');
  await page.$eval('#board', (b) => b.scrollIntoView({ block: 'center' }));
  const back = await measure(page);
  check(`${label}: zoomed out again, the whole board is in the viewport`, inside(back.board, back.viewport) && (await page.getAttribute('#zoom', 'aria-pressed')) === 'false', `board ${show(back.board)}`);
  // Play zoomed, as on a phone one would.
  await page.tap('#zoom');
}

// Clicking (or tapping) an intersection puts a stone there; the AI's reply carries the last-move
// mark; the analysis is a heat map of the best moves with the expected line numbered on the board.
async function playAndAnalyse(page, { n, label, press, check, settle, STEP_MS }) {
  const centre = indexOf(`${LETTERS[Math.floor(n / 2)]}${n - Math.floor(n / 2)}`, n);
  await press(`#board button[data-index="${centre}"]`);
  const ph = await settle(page);
  let points = await readPoints(page);
  // The stone sits on the intersection: its centre is the point's, where the two lines cross.
  const where = await page.$eval(`#board button[data-index="${centre}"]`, (b) => { const r = b.getBoundingClientRect(); return { x: (r.left + r.right) / 2, y: (r.top + r.bottom) / 2 }; });
  const stone = await page.$eval(`#board button[data-index="${centre}"] .stone`, (s) => { const r = s.getBoundingClientRect(); return { x: (r.left + r.right) / 2, y: (r.top + r.bottom) / 2 }; }).catch(() => null);
  check(`${label}: clicking the intersection ${coordinateOf(centre, n)} places a black stone (X) centred on it`,
    points[centre].stone === 'X' && /, X$/.test(points[centre].label) && stone && Math.abs(stone.x - where.x) <= 1 && Math.abs(stone.y - where.y) <= 1,
    `${points[centre].label}, stone ${JSON.stringify(stone)} vs point ${JSON.stringify(where)}`);
  const ai = points.filter((p) => p.stone === 'O');
  check(`${label}: the AI answers with one white stone (O)`, ph === 'human' && ai.length === 1 && points.filter((p) => p.stone === 'X').length === 1, `phase ${ph}, ${ai.length} white stones`);
  const marked = points.filter((p) => p.last);
  check(`${label}: the last move (the AI's) carries the last-move mark, and only it`,
    ai.length === 1 && marked.length === 1 && marked[0].index === ai[0].index && marked[0].lastMark && /the last move/.test(marked[0].description),
    JSON.stringify(marked.map((p) => [p.index, p.lastMark, p.description])));
  const expl = ((await page.textContent('#explanation')) || '').trim();
  if (ai.length === 1) {
    const name = coordinateOf(ai[0].index, n);
    check(`${label}: the explanation names the AI's point by coordinate (${name}), not by index`,
      new RegExp(`\\b${name}\\b`).test(expl) && !new RegExp(`\\b${ai[0].index}\\b`).test(expl), expl);
  }

  if (ph !== 'human') {
    check(`${label}: the analysis can be checked (the AI answered)`, false, `phase ${ph}: ${((await page.textContent('#error-text')) || '').trim()}`);
    return;
  }
  // The analysis: the page's own request and answer, so the check does not depend on a second,
  // time-limited search agreeing with the first.
  const answered = page.waitForResponse((r) => r.url().endsWith('/v1/move') && /"moves":true/.test(r.request().postData() || ''), { timeout: STEP_MS });
  await page.check('#analysis');
  const response = await answered;
  const request = JSON.parse(response.request().postData());
  const answer = await response.json();
  await page.waitForFunction(() => document.querySelectorAll('#board .pv').length > 0, null, { timeout: STEP_MS });
  points = await readPoints(page);
  check(`${label}: the analysis request names the rule and the board`, request.rule === 'freestyle' && request.rows === n && request.cols === n && request.k === 5, JSON.stringify({ rule: request.rule, rows: request.rows, cols: request.cols, k: request.k }));
  const empty = new Set(points.filter((p) => !p.stone).map((p) => p.index));
  // The ranking is the server's (`top`): searched moves only, best first.
  const top = (answer.top || []).filter((m) => empty.has(m.index)).slice(0, 5);
  const heated = points.filter((p) => p.heat !== null);
  check(`${label}: the page asks the server for its five best moves`, request.top === 5, JSON.stringify(request));
  check(`${label}: the heat map shades exactly the ${top.length} best moves the server ranked`,
    top.length === 5 && JSON.stringify(heated.map((p) => p.index).sort((a, b) => a - b)) === JSON.stringify(top.map((m) => m.index).sort((a, b) => a - b)),
    `shaded ${heated.map((p) => p.index)}, best ${top.map((m) => m.index)}`);
  const unsearched = new Set(answer.moves.filter((m) => m.searched === false).map((m) => m.index));
  check(`${label}: no shaded move is one the search never reached`,
    top.every((m) => m.searched === true) && heated.every((p) => !unsearched.has(p.index)),
    `shaded ${heated.map((p) => p.index)}, unsearched ${unsearched.size}`);
  const heatOf = new Map(heated.map((p) => [p.index, p]));
  const monotone = top.every((a) => top.every((b) => !(a.score > b.score) || (heatOf.get(a.index) && heatOf.get(b.index) && heatOf.get(a.index).heat >= heatOf.get(b.index).heat && heatOf.get(a.index).heatAlpha >= heatOf.get(b.index).heatAlpha)));
  check(`${label}: the colour is most intense at the best score and never less intense for a better one`,
    monotone && top.length > 0 && heatOf.get(top[0].index) && heatOf.get(top[0].index).heat === 5,
    JSON.stringify(heated.map((p) => [p.index, p.heat, p.heatAlpha])));
  const pv = (answer.pv || []).filter((i, k, all) => empty.has(i) && all.indexOf(i) === k);
  const numbered = points.filter((p) => p.pv !== null).sort((a, b) => Number(a.pv) - Number(b.pv));
  check(`${label}: the expected line (pv) is numbered 1..${pv.length} on its points, in order`,
    pv.length > 0 && JSON.stringify(numbered.map((p) => p.index)) === JSON.stringify(pv) && numbered.every((p, k) => p.pv === String(k + 1)),
    `numbered ${JSON.stringify(numbered.map((p) => [p.index, p.pv]))}, pv ${JSON.stringify(answer.pv)}`);
  const texts = points.filter((p) => !p.stone && p.text !== '' && p.text !== p.pv);
  check(`${label}: with the analysis shown, no empty point shows a number but the expected line's`, texts.length === 0 && points.filter((p) => p.text !== '').length === numbered.length,
    JSON.stringify(texts.slice(0, 5).map((p) => [p.index, p.text])));
  const list = await page.$$eval('#top-moves-list li', (lis) => lis.map((li) => li.textContent));
  check(`${label}: the best moves are listed by coordinate, best first`,
    list.length === top.length && list.every((t, k) => t.startsWith(`${coordinateOf(top[k].index, n)}:`)), JSON.stringify(list));
  const line = (await page.textContent('#pv-text')) || '';
  check(`${label}: the expected line is written out in coordinates`, pv.every((i) => line.includes(coordinateOf(i, n))) && !/\b\d{3}\b/.test(line), line);
  const named = [answer, ...answer.moves].filter((e) => e.coordinate !== undefined);
  check(`${label}: the server's coordinates (beside each index) are the page's`,
    named.length === answer.moves.length + 1 && named.every((e) => e.coordinate === coordinateOf(e.index, n)),
    `${named.length} of ${answer.moves.length + 1} entries carry a coordinate; first ${JSON.stringify(answer.moves[0])}`);
}

// Renju: with black's stones making a double three at h8 (f8 g8 and h6 h7), h8 is marked forbidden
// while black (X) is to move, as POST /v1/status says; pressing it places nothing. The AI's replies
// (O far away, along the top edge) come from a stand-in for POST /v1/move; the status is the server's.
async function renjuChecks(page, { n, label, press, start, base, check, settle, STEP_MS, contrast }) {
  const ph = await start(`${n}x${n}x5`, 'renju');
  const xs = ['f8', 'g8', 'h6', 'h7'].map((c) => indexOf(c, n));
  const os = [`a${n}`, `c${n}`, `e${n}`, `g${n}`].map((c) => indexOf(c, n));
  const h8 = indexOf('h8', n);
  const statusBodies = [];
  const onRequest = (r) => { if (r.url().endsWith('/v1/status')) statusBodies.push(JSON.parse(r.postData() || '{}')); };
  page.on('request', onRequest);
  await page.route('**/v1/move', (route) => {
    const req = JSON.parse(route.request().postData() || '{}');
    const index = os.find((i) => req.board[i] === i);
    const board = req.board.slice();
    board[index] = 'O';
    return route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({ index, coordinate: coordinateOf(index, n), score: 0, player: 'O', outcome: 'unknown', plies: null, exact: false, board, status: { state: 'in_play', winner: null, line: [] }, pv: [index], explanation: `O plays ${coordinateOf(index, n)}.` }),
    });
  });
  for (const i of xs) {
    await press(`#board button[data-index="${i}"]`);
    await settle(page);
  }
  let foul = null;
  try {
    await page.waitForSelector('#board .foul', { timeout: STEP_MS });
  } catch (_) { foul = 'no forbidden point shown'; }
  const points = await readPoints(page);
  const board = points.map((p) => p.stone || p.index);
  const res = await fetch(`${base}/v1/status`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ board, rows: n, cols: n, k: 5, rule: 'renju' }),
    signal: AbortSignal.timeout(STEP_MS),
  });
  const status = await res.json();
  const marked = points.filter((p) => p.foul).map((p) => p.index);
  check(`${label}, renju: black's double three at h8 is in the server's forbidden points`, res.ok && Array.isArray(status.forbidden) && status.forbidden.includes(h8), `${res.status} ${JSON.stringify(status).slice(0, 300)}`);
  check(`${label}, renju: the page marks exactly the server's forbidden points while X is to move`,
    ph === 'human' && !foul && Array.isArray(status.forbidden) && JSON.stringify(marked) === JSON.stringify(status.forbidden) && points.filter((p) => p.foulShown).length === marked.length,
    `${foul || ''} marked ${JSON.stringify(marked)}, server ${JSON.stringify(status.forbidden)}`);
  check(`${label}, renju: the page asked POST /v1/status with the rule`, statusBodies.some((b) => b.rule === 'renju' && b.rows === n), JSON.stringify(statusBodies.slice(-1)));
  const p = points[h8];
  check(`${label}, renju: h8 says why it is forbidden, and is not playable`, p.foul === 'double_three' && p.disabled && /forbidden to X \(black\): double three/.test(p.description), JSON.stringify(p));
  if (contrast) await contrast(page, `${label}, renju forbidden points`);
  await page.click(`#board button[data-index="${h8}"]`, { force: true });
  const after = await readPoints(page);
  const expl = ((await page.textContent('#explanation')) || '').trim();
  check(`${label}, renju: pressing a forbidden point places nothing and says why`, !after[h8].stone && /h8 is forbidden/.test(expl), `${after[h8].label}; ${expl}`);
  await page.unrouteAll({ behavior: 'wait' });
  page.off('request', onRequest);
  // Under freestyle the same stones make no forbidden point, and the page asks for none.
  await start(`${n}x${n}x5`, 'freestyle');
  const none = await page.$$eval('#board .foul', (els) => els.length);
  check(`${label}: no forbidden points outside renju`, none === 0, `${none} shown`);
}
