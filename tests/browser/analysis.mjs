// Browser tests of the page as an analysis board, run by play.mjs with its browser, server and
// bookkeeping, at 1280 x 800 and 390 x 844, in the light and the dark scheme: games in links
// (the public Connect Four solver's `pos`, gomocalc's move strings, the page's own) shared and
// reloaded; malformed strings refused with a message; stepping with the buttons and the arrow
// keys; a variation played and left; a position set up, an illegal one refused by the server;
// PSQ records exported and imported back, and one written as Piskvork writes them; the review
// chart readable and its points told apart by shape; move numbers, the expected line, the
// thinking time, and texts that match the game's state.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { coordinateOf, indexOf } from './goban.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

const VIEWPORTS = [
  { name: 'desktop 1280x800', short: 'desktop', options: { viewport: { width: 1280, height: 800 } } },
  { name: 'phone 390x844', short: 'phone', phone: true, options: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true } },
];

// Connect Four from the solver's digits, independently of the page: the cells the discs land on.
function dropCells(digits, rows = 6, cols = 7) {
  const height = new Array(cols).fill(0);
  return [...digits].map((d) => {
    const c = Number(d) - 1;
    const cell = (rows - 1 - height[c]) * cols + c;
    height[c]++;
    return cell;
  });
}

// The marks on the board as the page shows them (the cells' accessible names).
async function marks(page) {
  return page.$$eval('#board button[data-index]', (bs) => bs.map((b) => {
    const m = /, (X|O|empty)$/.exec(b.getAttribute('aria-label') || '');
    return m && m[1] !== 'empty' ? m[1] : null;
  }));
}

function expectedMarks(n, cells) {
  const out = new Array(n).fill(null);
  cells.forEach((c, i) => { out[c] = i % 2 === 0 ? 'X' : 'O'; });
  return out;
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// Runs in the page: random games on every board written in each text form and read back with
// the page's own modules; returns what did not come back the same.
async function roundTrips() {
  const N = await import('/static/notation.js');
  const R = await import('/static/records.js');
  let seed = 20240611;
  const random = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
  const problems = [];
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  for (const name of N.VARIANTS) {
    const g = N.parseVariant(name);
    for (let t = 0; t < 40; t++) {
      const cells = new Array(g.rows * g.cols).fill(null);
      const moves = [];
      const length = Math.floor(random() * Math.min(40, g.rows * g.cols));
      for (let n = 0; n < length; n++) {
        const cell = g.gravity ? N.landing(cells, Math.floor(random() * g.cols), g) : Math.floor(random() * cells.length);
        if (cell === null || cells[cell]) continue;
        cells[cell] = n % 2 ? 'O' : 'X';
        moves.push(cell);
      }
      const rule = N.rulesFor(g)[Math.floor(random() * N.rulesFor(g).length)];
      const game = { variant: g, rule, side: 'both', setup: null, moves };
      const text = N.formatMoves(moves, g);
      if (!same(N.parseMoves(text, g), moves)) problems.push(`${name} moves ${text}`);
      const back = N.fromQuery(`?${N.toQuery(game)}`);
      if (!same([back.variant, back.rule, back.moves], [g, rule, moves])) problems.push(`${name} link ${N.toQuery(game)}`);
      const record = R.fromRecord(R.toRecord(game));
      if (!same([record.variant, record.rule, record.moves], [g, rule, moves])) problems.push(`${name} record ${R.toRecord(game)}`);
      if (g.k === 5 && g.rows >= 15) {
        const psq = R.fromPsq(R.toPsq(game));
        if (!same([psq.variant, psq.moves], [g, moves])) problems.push(`${name} psq ${R.toPsq(game)}`);
      }
    }
  }
  return problems;
}

export async function analysisTests({ browser, base, check, log, settle, checkContrast, watchPage, expectErrors, requests, STEP_MS }) {
  for (const vp of VIEWPORTS) {
    for (const scheme of ['light', 'dark']) {
      const label = `analysis, ${vp.name}, ${scheme}`;
      const context = await browser.newContext({ ...vp.options, colorScheme: scheme, serviceWorkers: 'block', acceptDownloads: true });
      context.setDefaultTimeout(STEP_MS);
      context.on('request', (r) => requests.push(r.url()));
      const page = await context.newPage();
      watchPage(page);
      const press = (selector) => (vp.phone ? page.tap(selector) : page.click(selector));
      const step = () => page.textContent('#step-text');
      const open = async (query) => {
        await page.goto(`${base}/${query}`, { waitUntil: 'load' });
        return settle(page);
      };

      // --- the page is ES modules, all served as JavaScript
      if (scheme === 'light') {
        const scripts = new Map();
        const onResponse = (r) => { const u = new URL(r.url()); if (u.pathname.endsWith('.js')) scripts.set(u.pathname, r.headers()['content-type'] || ''); };
        page.on('response', onResponse);
        await open('');
        page.off('response', onResponse);
        const kind = await page.$eval('script[src="static/app.js"]', (s) => s.type).catch(() => '');
        check(`${label}: app.js is an ES module`, kind === 'module', kind);
        const modules = ['app.js', 'api.js', 'state.js', 'board.js', 'review.js', 'notation.js', 'records.js'].map((f) => `/static/${f}`);
        check(`${label}: every module of the page is loaded as JavaScript`, modules.every((m) => /^text\/javascript/.test(scripts.get(m) || '')), JSON.stringify([...scripts]));
      }

      // --- the notation modules in the page: every text form of a game reads back as written
      if (scheme === 'light' && !vp.phone) {
        await open('');
        const problems = await page.evaluate(roundTrips);
        check(`${label}: move strings, links, PSQ and text records read back what they write (random games on every board)`, problems.length === 0, problems.slice(0, 3).join(' | '));
      }

      // --- a Connect Four link in the public solver's notation, stepped through and extended
      {
        const ph = await open('?pos=4453');
        const shown = await marks(page);
        check(`${label}: ?pos=4453 opens Connect Four with the solver's four moves`, ph === 'human' && shown.length === 42 && same(shown, expectedMarks(42, dropCells('4453'))), JSON.stringify(shown));
        check(`${label}: ... on its last position, both sides played by hand`, (await step()) === 'Move 4 of 4' && (await page.inputValue('#side')) === 'both', await step());
        // Keys step on the main board (focus off the board, on the page).
        await page.focus('#step-prev');
        await page.keyboard.press('ArrowLeft');
        await page.keyboard.press('ArrowLeft');
        const back2 = await marks(page);
        check(`${label}: the Left arrow key steps back two moves`, (await step()) === 'Move 2 of 4' && same(back2, expectedMarks(42, dropCells('44'))), `${await step()}`);
        await page.keyboard.press('Home');
        check(`${label}: Home goes to the start`, (await step()) === 'Start of 4 moves' && (await marks(page)).every((m) => m === null), await step());
        await page.keyboard.press('ArrowRight');
        await page.keyboard.press('End');
        check(`${label}: End goes to the last move`, (await step()) === 'Move 4 of 4' && same(await marks(page), expectedMarks(42, dropCells('4453'))), await step());
        await press('#step-prev');
        await press('#step-first');
        await press('#step-next');
        check(`${label}: the First, Prev and Next buttons step too`, (await step()) === 'Move 1 of 4', await step());
        await press('#step-last');
        // A move by hand: the link follows the game; a reload restores it.
        await press('#board button[data-index="39"]');   // column 5
        await settle(page);
        const url = page.url();
        check(`${label}: a move adds its column to the link`, new URL(url).searchParams.get('pos') === '44535', url);
        await page.reload({ waitUntil: 'load' });
        await settle(page);
        check(`${label}: reloading the link restores the game`, same(await marks(page), expectedMarks(42, dropCells('44535'))) && (await step()) === 'Move 5 of 5', await step());
        check(`${label}: the share box holds the link`, (await page.inputValue('#share-text')) === page.url());
      }

      // --- gomocalc's coordinates: letters from the left, numbers from the BOTTOM row
      {
        const ph = await open('?moves=h8i9j10');
        const shown = await marks(page);
        const cells = ['h8', 'i9', 'j10'].map((c) => indexOf(c, 15));
        check(`${label}: ?moves=h8i9j10 opens 15 x 15 gomoku with h8, i9 and j10 (rows counted from the bottom)`,
          ph === 'human' && shown.length === 225 && same(shown, expectedMarks(225, cells)), JSON.stringify(cells.map((c) => shown[c])));
        const names = await page.$$eval('#board button[data-index]', (bs) => bs.filter((b) => /, (X|O)$/.test(b.getAttribute('aria-label'))).map((b) => b.getAttribute('aria-label')));
        check(`${label}: the stones are named as the link names them`, same(names.sort(), ['h8, X', 'i9, O', 'j10, X'].sort()), JSON.stringify(names));
        // Move numbers on the stones, on request.
        await page.check('#move-numbers');
        const numbers = await page.$$eval('#board .stone', (ss) => ss.map((s) => s.textContent).sort());
        check(`${label}: move numbers appear on the stones when asked for`, same(numbers, ['1', '2', '3']), JSON.stringify(numbers));
        await page.uncheck('#move-numbers');
        check(`${label}: ... and go when not`, (await page.$$eval('#board .stone', (ss) => ss.map((s) => s.textContent).join(''))) === '');
        // 20 x 20 when a coordinate needs it; a 20 x 20 record keeps renju off.
        const ph20 = await open('#h8i9t20');
        check(`${label}: a gomocalc-style #h8i9t20 opens on 20 x 20`, ph20 === 'human' && (await marks(page)).length === 400 && (await marks(page))[indexOf('t20', 20)] === 'X', `${(await marks(page)).length}`);
      }

      // --- malformed strings and links: a clear message, nothing changed
      {
        await open('?game=3x3x3&moves=b2a1&side=both');
        const before = await marks(page);
        const cases = [
          ['h8h8', /h8 was already played at move 1/],
          ['b2 zz', /"zz" .*is not a coordinate/],
          ['4482', /move 3: "8" is not a column from 1 to 7/],
          ['4444444', /move 7: column 4 is already full/],
          ['Piskvorky 19x19, 11:11, 0\n10,10,0', /19 × 19 board/],
          ['?game=9x9x5&moves=a1', /unknown board "9x9x5"/],
          ['?game=20x20x5&rule=renju&moves=a1', /renju rule is played on 15 × 15 only/],
          // Well formed, but the server says X had already won at move 5.
          ['a1b1a2b2a3c3', /move 6 \(O c3\) is not legal: the game was already over after move 5|game is over after move 5/],
        ];
        for (const [text, want] of cases) {
          await page.fill('#load-text', text);
          await press('#load');
          await page.waitForFunction(() => /Could not load/.test(document.getElementById('share-message').textContent), null, { timeout: STEP_MS }).catch(() => {});
          const message = (await page.textContent('#share-message')) || '';
          check(`${label}: loading ${JSON.stringify(text.split('\n')[0])} is refused with a message naming what is wrong`, want.test(message), message);
        }
        check(`${label}: a refused string leaves the game on the board`, same(await marks(page), before));
        const ph = await open('?pos=4449');
        const error = (await page.textContent('#error')) || '';
        check(`${label}: a malformed link shows why it could not be opened`, !(await page.isHidden('#error')) && /move 4: "9" is not a column from 1 to 7/.test(error) && ph === 'human', error);
      }

      // --- a variation from an earlier position, then back to the game
      {
        const game = ['b2', 'a1', 'c3', 'a3'];
        await open(`?game=3x3x3&moves=${game.join('')}`);
        const full = await marks(page);
        await page.focus('#step-prev');
        await page.keyboard.press('ArrowLeft');
        await page.keyboard.press('ArrowLeft');
        await press(`#board button[data-index="${indexOf('c1', 3)}"]`);
        await settle(page);
        const varied = await marks(page);
        const bar = await page.isVisible('#variation');
        check(`${label}: a move at an earlier position plays a variation`, bar && varied[indexOf('c1', 3)] === 'X' && varied.filter(Boolean).length === 3 && /variation from move 2/i.test(await page.textContent('#variation-text')), `${bar} ${JSON.stringify(varied)}`);
        check(`${label}: ... which the link follows`, /moves=b2a1c1/.test(page.url()), page.url());
        await press('#variation-leave');
        await settle(page);
        check(`${label}: "Back to the game" returns to the game, at the move the variation left`, !(await page.isVisible('#variation')) && (await step()) === 'Move 2 of 4' && (await page.$$eval('#move-list button.move', (bs) => bs.length)) === 4, await step());
        await page.keyboard.press('End');
        check(`${label}: ... with the game intact`, same(await marks(page), full));
      }

      // --- either side human or AI: the AI plays the side it is given
      {
        await open('?game=3x3x3&moves=b2');
        await page.selectOption('#side', 'X');   // O to move, now the AI's side
        const ph = await settle(page);
        const after = await marks(page);
        check(`${label}: choosing a side hands the other to the AI, which moves at once`, ph === 'human' && after.filter((m) => m === 'O').length === 1, JSON.stringify(after));
        check(`${label}: the link says which side you play`, new URL(page.url()).searchParams.get('side') === 'X', page.url());
      }

      // --- setting up a position: an illegal one is refused by the server, a legal one analysed
      {
        await open('?game=3x3x3&side=both');
        await press('#edit');
        for (const c of ['a1', 'b1', 'c1']) await press(`#board button[data-index="${indexOf(c, 3)}"]`);   // three X, no O
        // The server's 422 for the impossible position is logged by the browser as a failed load.
        expectErrors(true);
        await press('#edit-done');
        await page.waitForFunction(() => /refuses/.test(document.getElementById('edit-message').textContent), null, { timeout: STEP_MS }).catch(() => {});
        const message = (await page.textContent('#edit-message')) || '';
        expectErrors(false);
        check(`${label}: an impossible set-up position is refused with the server's reason`, /refuses/.test(message) && /impossible|count|marks/i.test(message) && (await page.evaluate(() => document.body.dataset.phase)) === 'edit', message);
        // b1 twice more: X -> O -> empty; then O on b2.
        await press(`#board button[data-index="${indexOf('b1', 3)}"]`);
        await press(`#board button[data-index="${indexOf('b1', 3)}"]`);
        await press(`#board button[data-index="${indexOf('b2', 3)}"]`);
        await press(`#board button[data-index="${indexOf('b2', 3)}"]`);
        await press('#edit-done');
        const ph = await settle(page);
        const shown = await marks(page);
        const want = new Array(9).fill(null);
        want[indexOf('a1', 3)] = 'X'; want[indexOf('c1', 3)] = 'X'; want[indexOf('b2', 3)] = 'O';
        check(`${label}: a legal set-up position is accepted, with O to move`, ph === 'human' && same(shown, want) && /\bO to move/.test(await page.textContent('#status')), `${ph} ${JSON.stringify(shown)} ${await page.textContent('#status')}`);
        check(`${label}: ... and the link holds it`, new URL(page.url()).searchParams.get('setup') === '....O.X.X', page.url());
      }

      // --- PSQ: export, import back; a record in Piskvork's own conventions
      {
        const moves = ['h8', 'i9', 'h9', 'h10', 'g8'];
        await open(`?game=15x15x5&moves=${moves.join('')}`);
        const shown = await marks(page);
        const [download] = await Promise.all([page.waitForEvent('download', { timeout: STEP_MS }), press('#export-record')]);
        const file = await download.path();
        const psq = fs.readFileSync(file, 'utf8');
        const lines = psq.trim().split('\n');
        const wantLines = moves.map((c) => { const i = indexOf(c, 15); return `${(i % 15) + 1},${Math.floor(i / 15) + 1},0`; });
        check(`${label}: the record is a PSQ: a Piskvorky header, x,y,time per move from the top left, a -1 trailer`,
          download.suggestedFilename().endsWith('.psq') && lines[0] === 'Piskvorky 15x15, 11:11, 0' && same(lines.slice(1, 6), wantLines) && lines[6] === '-1', psq);
        await open('?game=3x3x3');
        await page.setInputFiles('#load-file', { name: 'game.psq', mimeType: 'text/plain', buffer: Buffer.from(psq) });
        await page.waitForFunction(() => /Loaded/.test(document.getElementById('share-message').textContent), null, { timeout: STEP_MS }).catch(() => {});
        check(`${label}: the exported PSQ imports back to the same game`, same(await marks(page), shown) && (await step()) === 'Move 5 of 5', `${await page.textContent('#share-message')}`);
        // As Piskvork writes them: 20 x 20, CRLF, moves with and without a time, engine names after.
        const piskvork = 'Piskvorky 20x20, 11:11, 0\r\n10,10,1250\r\n11,11\r\n10,11,820\r\n-1\r\npbrain-embryo.exe\r\npbrain-yixin.exe\r\n-1\r\n';
        await page.fill('#load-text', piskvork);
        await press('#load');
        await page.waitForFunction(() => /Loaded/.test(document.getElementById('share-message').textContent), null, { timeout: STEP_MS }).catch(() => {});
        const got = await marks(page);
        const want = expectedMarks(400, [9 * 20 + 9, 10 * 20 + 10, 10 * 20 + 9]);
        check(`${label}: a Piskvork PSQ (20x20, lines with 2 or 3 numbers, trailer) imports its three moves`, same(got, want), `${await page.textContent('#share-message')}`);
        check(`${label}: ... named as the goban names them (x from the left, y from the top)`,
          got[indexOf(coordinateOf(9 * 20 + 9, 20), 20)] === 'X' && coordinateOf(9 * 20 + 9, 20) === 'j11');
        // The page's own record for the other boards, round trip.
        await open('?pos=4453');
        const [rec] = await Promise.all([page.waitForEvent('download', { timeout: STEP_MS }), press('#export-record')]);
        const text = fs.readFileSync(await rec.path(), 'utf8');
        check(`${label}: Connect Four saves as the page's text record`, text === 'minimax-move game\nboard 6x7x4g\nrule freestyle\nmoves 4453\n', JSON.stringify(text));
        await open('?game=3x3x3');
        await page.fill('#load-text', text);
        await press('#load');
        await page.waitForFunction(() => /Loaded/.test(document.getElementById('share-message').textContent), null, { timeout: STEP_MS }).catch(() => {});
        check(`${label}: ... and loads back`, same(await marks(page), expectedMarks(42, dropCells('4453'))));
      }

      // --- the review: a readable chart, labels told apart by shape, a click goes to the move
      {
        // O's edge reply b3 to the centre loses (a blunder); X wins on the diagonal c3-b2-a1.
        await open('?game=3x3x3&moves=b2b3a3c1a1a2c3');
        await page.waitForSelector('#review-chart .point', { timeout: STEP_MS });
        const chart = await page.evaluate(() => {
          const svg = document.getElementById('review-chart');
          const r = svg.getBoundingClientRect();
          const numbers = [...svg.querySelectorAll('.move-number')].map((t) => t.textContent);
          const size = Math.min(...[...svg.querySelectorAll('text')].map((t) => t.getBoundingClientRect().height));
          const shapes = {};
          for (const p of svg.querySelectorAll('.point')) {
            const d = p.getAttribute('d');
            shapes[p.dataset.label] = (d.match(/[A-Za-z]/g) || []).join('');
          }
          return { width: r.width, height: r.height, numbers, size, shapes, points: svg.querySelectorAll('.point').length, note: document.getElementById('analysis-note').textContent };
        });
        check(`${label}: the review chart is large (${Math.round(chart.width)} x ${Math.round(chart.height)} px)`, chart.width >= (vp.phone ? 300 : 340) && chart.height >= 190, JSON.stringify(chart));
        check(`${label}: the chart's axis carries move numbers`, chart.numbers.includes('1') && chart.numbers.includes('7'), JSON.stringify(chart.numbers));
        check(`${label}: the chart's text is at least 11 px tall`, chart.size >= 11, String(chart.size));
        // Best and good share the plain dot; inaccuracy, mistake and blunder each have their own.
        const kinds = [...new Set(Object.keys(chart.shapes).map((l) => (l === 'good' ? 'best' : l)))];
        const signatures = new Set(kinds.map((k) => chart.shapes[k] || chart.shapes.good));
        check(`${label}: each kind of move has its own marker shape`, kinds.length >= 2 && signatures.size === kinds.length, JSON.stringify(chart.shapes));
        const blunder = await page.$('#review-chart .point.blunder');
        if (blunder) {
          const n = Number(await blunder.getAttribute('data-number'));
          await blunder.click();
          const caption = (await page.textContent('#review-caption')) || '';
          const stars = await page.$$eval('#board .best-reply', (bs) => bs.length);
          check(`${label}: a click on the blunder goes to that move on the main board and stars the best move`, (await step()) === `Move ${n} of 7` && /blunder/.test(caption) && stars === 1, `${await step()} ${caption} ${stars}`);
        } else check(`${label}: the review finds the blunder`, false, JSON.stringify(chart.shapes));
        await page.click('#move-list button.move[data-number="2"]');
        check(`${label}: a click on a move in the list goes to it`, (await step()) === 'Move 2 of 7');
        await page.check('#analysis');
        await page.keyboard.press('End');
        const note = await page.textContent('#analysis-note');
        check(`${label}: after the game the note says so (not "on your turn")`, /game is over/.test(note) && !/your turn/.test(note), note);
        await page.uncheck('#analysis');
        if (scheme === 'dark' || !vp.phone) await checkContrast(page, `${label}, review`);
      }

      // --- big boards: a thinking time the AI gets; the expected line drawn unlike stones
      {
        const bodies = [];
        const onRequest = (r) => { if (r.url().endsWith('/v1/move')) bodies.push(JSON.parse(r.postData() || '{}')); };
        page.on('request', onRequest);
        await open('?game=15x15x5&moves=h8&side=X');
        const timeShown = await page.isVisible('#time-limit');
        await page.selectOption('#time-limit', '300');
        await page.check('#analysis');
        await page.waitForSelector('#board .pv', { timeout: STEP_MS });
        check(`${label}: the thinking time is offered on a big board and sent as time_limit_ms`, timeShown && bodies.some((b) => b.time_limit_ms === 300), JSON.stringify(bodies.map((b) => b.time_limit_ms)));
        const pv = await page.$eval('#board .pv', (el) => { const s = getComputedStyle(el); return { radius: s.borderTopLeftRadius, style: s.borderTopStyle, width: el.getBoundingClientRect().width, cell: el.parentElement.getBoundingClientRect().width }; });
        const stone = await page.$eval('#board .stone', (el) => getComputedStyle(el).borderTopLeftRadius);
        check(`${label}: the expected line is drawn as small dashed squares, not round stones`, pv.style === 'dashed' && pv.radius !== stone && !/50%/.test(pv.radius) && pv.width < pv.cell * 0.7, JSON.stringify({ pv, stone }));
        await page.uncheck('#analysis');
        page.off('request', onRequest);
        await open('?game=3x3x3');
        check(`${label}: no thinking time on 3 x 3, where every answer is exact`, !(await page.isVisible('#time-limit')));
      }

      fs.mkdirSync(path.join(ROOT, 'artifacts'), { recursive: true });
      await open('?game=15x15x5&moves=h8i9h9h10g8g9&side=both');
      await page.check('#move-numbers');
      await page.screenshot({ path: path.join(ROOT, 'artifacts', `analysis-${vp.short}-${scheme}.png`), fullPage: true });
      const fit = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
      check(`${label}: nothing scrolls sideways`, fit.scroll <= fit.width, JSON.stringify(fit));
      log(`${label} done`);
      await context.close();
    }
  }
}
