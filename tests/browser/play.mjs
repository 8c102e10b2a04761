// Browser tests of the game page, in headless Debian chromium, against the real release binary
// (the gomoku board's own tests are in goban.mjs, the search-tree view's in trace.mjs, the
// analysis board's in analysis.mjs, all run from here).
//
//   node tests/browser/play.mjs          (from the repo root; scripts/ci/browser-test.sh sets it all up)
//
// Environment: MINIMAX_BIN (default target/release/minimax-move), MINIMAX_URL (test a server that
// is already running on 127.0.0.1 instead of starting one), CHROMIUM (default
// /usr/bin/chromium), GAMES_PER_SIDE (default 24), SEED (default 20240611).
// Prints every failed check, then a last line `N passed, M failed`; exits non-zero on any failure.
// Never downloads a browser; everything is bounded by timeouts (the whole run by OVERALL_MS).

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { gobanTests } from './goban.mjs';
import { traceTests } from './trace.mjs';
import { analysisTests } from './analysis.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = process.env.MINIMAX_BIN || path.join(ROOT, 'target', 'release', 'minimax-move');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const GAMES_PER_SIDE = Number(process.env.GAMES_PER_SIDE || 24);
const SEED = Number(process.env.SEED || 20240611);
const OVERALL_MS = 420_000;
const STEP_MS = 15_000;
const VERBOSE = !!process.env.VERBOSE;

// ------------------------------------------------------------------ bookkeeping

let passed = 0;
let failed = 0;
const failures = [];

function check(name, ok, detail = '') {
  if (ok) {
    passed++;
    if (VERBOSE) console.log(`ok   ${name}`);
  } else {
    failed++;
    const line = `FAIL ${name}${detail ? ` -- ${detail}` : ''}`;
    failures.push(line);
    console.log(line);
  }
  return !!ok;
}

function log(msg) {
  console.log(`[${((Date.now() - started) / 1000).toFixed(1)}s] ${msg}`);
}

const started = Date.now();
let server = null;
let serverLog = '';
let browser = null;

async function cleanup() {
  if (browser) {
    const b = browser;
    browser = null;
    await Promise.race([b.close().catch(() => {}), sleep(5000)]);
  }
  if (server && server.exitCode === null) {
    const s = server;
    s.kill('SIGTERM');
    const exited = await Promise.race([
      new Promise((r) => s.once('exit', () => r(true))),
      sleep(3000).then(() => false),
    ]);
    if (!exited) s.kill('SIGKILL');
  }
}

function finish() {
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  if (failed) {
    console.log(`\n${failures.length} failure(s):\n${failures.join('\n')}`);
    if (serverLog) console.log(`\nserver log (tail):\n${serverLog.slice(-3000)}`);
  }
  console.log(`browser tests took ${secs}s`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

const watchdog = setTimeout(async () => {
  check('the whole run finishes within the time limit', false, `still running after ${OVERALL_MS / 1000}s`);
  await Promise.race([cleanup(), sleep(8000)]);
  finish();
}, OVERALL_MS);

for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, async () => {
    check(`interrupted by ${sig}`, false);
    await Promise.race([cleanup(), sleep(8000)]);
    finish();
  });
}

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: timed out after ${ms} ms`)), ms);
    }),
  ]);
}

// A small seeded PRNG (mulberry32), so a failing game can be replayed with the same SEED.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ------------------------------------------------------------------ the server

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function startServer() {
  if (process.env.MINIMAX_URL) return process.env.MINIMAX_URL.replace(/\/$/, '');
  if (!fs.existsSync(BIN)) throw new Error(`no binary at ${BIN}: run cargo build --release`);
  const port = await freePort();
  server = spawn(BIN, ['--host', '127.0.0.1', '--port', String(port)], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), RUST_LOG: process.env.RUST_LOG || 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk) => {
    serverLog += chunk.toString();
    if (serverLog.length > 200_000) serverLog = serverLog.slice(-100_000);
  };
  server.stdout.on('data', keep);
  server.stderr.on('data', keep);
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}: ${serverLog.slice(-2000)}`);
    try {
      const res = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(1000) });
      if (res.ok) return base;
    } catch (_) {
      // not up yet
    }
    await sleep(100);
  }
  throw new Error(`the server did not become ready within 30 s: ${serverLog.slice(-2000)}`);
}

async function apiMove(base, body) {
  const res = await fetch(`${base}/v1/move`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(STEP_MS),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`POST /v1/move ${res.status}: ${JSON.stringify(json)}`);
  return json;
}

// ------------------------------------------------------------------ rules (independent of the page)

const LINES3 = [
  [0, 1, 2], [3, 4, 5], [6, 7, 8],
  [0, 3, 6], [1, 4, 7], [2, 5, 8],
  [0, 4, 8], [2, 4, 6],
];

function winner3(cells) {
  for (const [a, b, c] of LINES3) {
    if (cells[a] && cells[a] === cells[b] && cells[a] === cells[c]) return { mark: cells[a], line: [a, b, c] };
  }
  return null;
}

const other = (p) => (p === 'X' ? 'O' : 'X');

// ------------------------------------------------------------------ the page

// What the page shows, read the way a user (or a screen reader) would: the cells' aria-labels and
// text, and the status element.
async function readBoard(page) {
  return page.$$eval('#board button[data-index]', (bs) =>
    bs.map((b) => ({
      index: Number(b.dataset.index),
      label: b.getAttribute('aria-label') || '',
      text: (b.textContent || '').trim(),
      // A cell that cannot be played is aria-disabled; the `disabled` attribute would take it out
      // of the tab order and the accessibility tree's reach, so it must never be set.
      disabled: b.getAttribute('aria-disabled') === 'true',
      nativeDisabled: b.disabled,
      description: b.getAttribute('aria-description'),
      score: b.dataset.score === undefined ? null : b.dataset.score,
      scoreText: (b.querySelector('.score') || {}).textContent || null,
    })),
  );
}

function marksOf(cells) {
  return cells.map((c) => {
    const m = /, (X|O|empty)$/.exec(c.label);
    return m && m[1] !== 'empty' ? m[1] : null;
  });
}

async function statusText(page) {
  return (await page.textContent('[role="status"]')).trim();
}

async function phase(page) {
  return page.evaluate(() => document.body.dataset.phase);
}

// Waits until the page is waiting for the human, the game is over, or an error is shown.
async function settle(page) {
  await page.waitForFunction(
    () => ['human', 'over', 'error'].includes(document.body.dataset.phase),
    null,
    { timeout: STEP_MS },
  );
  return phase(page);
}

async function newGame(page, { size = '3x3x3', side = 'X', difficulty = 'perfect' } = {}) {
  await page.selectOption('#size', size);
  await page.selectOption('#side', side);
  await page.selectOption('#difficulty', difficulty);
  await page.click('#new-game');
  return settle(page);
}

// Plays one complete 3x3 game by clicking cells; `choose(marks, page)` picks the human's cell.
// Returns {marks, result, status}. Checks the page's behaviour move by move.
async function playGame(page, human, choose, label) {
  let ph = await newGame(page, { side: human });
  let cells = await readBoard(page);
  let marks = marksOf(cells);
  const ai = other(human);
  let moveProblems = [];
  if (human === 'O') {
    const count = marks.filter(Boolean).length;
    if (count !== 1 || !marks.includes('X')) moveProblems.push(`the AI (X) did not open: ${JSON.stringify(marks)}`);
  } else if (marks.some(Boolean)) {
    moveProblems.push('the board is not empty at the start');
  }
  for (let turn = 0; turn < 9 && ph === 'human'; turn++) {
    // Every empty cell is enabled on the human's turn and every full one is disabled.
    for (const c of cells) {
      const empty = marks[c.index] === null;
      if (empty === c.disabled) moveProblems.push(`cell ${c.index} ${empty ? 'empty but aria-disabled' : 'taken but not aria-disabled'}`);
      if (c.nativeDisabled) moveProblems.push(`cell ${c.index} has the disabled attribute`);
      if (!empty && c.text !== marks[c.index]) moveProblems.push(`cell ${c.index} shows ${JSON.stringify(c.text)} but its label says ${marks[c.index]}`);
    }
    const before = marks.slice();
    const index = await choose(marks, page);
    await page.click(`#board button[data-index="${index}"]`, { timeout: STEP_MS });
    ph = await settle(page);
    cells = await readBoard(page);
    marks = marksOf(cells);
    if (marks[index] !== human) moveProblems.push(`clicking ${index} did not put ${human} there`);
    const changed = marks.map((m, i) => (m !== before[i] ? i : -1)).filter((i) => i >= 0 && i !== index);
    const humanWon = winner3(marks) && winner3(marks).mark === human;
    const full = before.filter((m) => m === null).length === 1;
    if (ph === 'human' || (ph === 'over' && !humanWon && !full)) {
      if (changed.length !== 1 || marks[changed[0]] !== ai || before[changed[0]] !== null) {
        moveProblems.push(`after ${human}@${index} the AI did not make exactly one move on an empty cell: ${JSON.stringify(before)} -> ${JSON.stringify(marks)}`);
      }
    } else if (ph === 'over' && changed.length !== 0) {
      moveProblems.push(`the AI moved after the game ended: ${JSON.stringify(marks)}`);
    }
    if (ph === 'error') moveProblems.push(`the page shows an error: ${await page.textContent('#error')}`);
  }
  const status = await statusText(page);
  const w = winner3(marks);
  const full = marks.every(Boolean);
  check(`${label}: the page plays a consistent game`, moveProblems.length === 0, moveProblems.slice(0, 3).join('; '));
  check(`${label}: the game ends (phase over)`, ph === 'over', `phase ${ph}, board ${JSON.stringify(marks)}`);
  check(`${label}: the AI never loses on perfect`, !(w && w.mark === human), `board ${JSON.stringify(marks)}`);
  // The status element names the result.
  if (w) {
    check(`${label}: status names the winner`, new RegExp(`\\b${w.mark} wins\\b`).test(status), `status ${JSON.stringify(status)}`);
  } else {
    check(`${label}: status says draw`, full && /draw/i.test(status) && !/wins/.test(status), `status ${JSON.stringify(status)}, board ${JSON.stringify(marks)}`);
  }
  // After the game every cell is disabled, and the winning line is highlighted.
  const after = await page.$$eval('#board button[data-index]', (bs) => bs.map((b) => ({ d: b.getAttribute('aria-disabled') === 'true' && !b.disabled, win: b.classList.contains('win') })));
  const highlighted = after.map((c, i) => (c.win ? i : -1)).filter((i) => i >= 0);
  check(`${label}: every cell is aria-disabled (and none disabled) after the game`, after.every((c) => c.d));
  check(`${label}: the winning line is highlighted`, JSON.stringify(highlighted) === JSON.stringify(w ? w.line : []), `highlighted ${highlighted}`);
  return { marks, winner: w ? w.mark : null, status };
}

// Compares the analysis view's per-cell scores with the API's move table for the same position.
async function checkAnalysis(page, base, human, label) {
  await page.waitForFunction(
    () => {
      const empty = [...document.querySelectorAll('#board button[data-index]')].filter((b) => !/, (X|O)$/.test(b.getAttribute('aria-label')));
      return empty.length > 0 && empty.every((b) => b.querySelector('.score'));
    },
    null,
    { timeout: STEP_MS },
  );
  const cells = await readBoard(page);
  const marks = marksOf(cells);
  const board = marks.map((m, i) => m || i);
  const answer = await apiMove(base, { board, player: human, moves: true });
  const table = new Map(answer.moves.map((m) => [m.index, m]));
  const problems = [];
  for (const c of cells) {
    const entry = table.get(c.index);
    if (marks[c.index]) {
      if (entry) problems.push(`cell ${c.index} is taken but the API scores it`);
      if (c.scoreText !== null) problems.push(`cell ${c.index} is taken but shows a score`);
      continue;
    }
    if (!entry) { problems.push(`the API has no score for empty cell ${c.index}`); continue; }
    if (Number(c.score) !== entry.score) problems.push(`cell ${c.index}: data-score ${c.score}, API ${entry.score}`);
    if (Number(c.scoreText) !== entry.score) problems.push(`cell ${c.index}: shows ${JSON.stringify(c.scoreText)}, API ${entry.score}`);
    const want = scoreDescription(entry, human);
    if (c.description !== want) problems.push(`cell ${c.index}: described ${JSON.stringify(c.description)}, expected ${JSON.stringify(want)}`);
  }
  const note = (await page.textContent('#analysis-note')) || '';
  if (!/\bplies\b/.test(note) || /\bmoves? to\b/.test(note)) problems.push(`the note counts plies as moves: ${JSON.stringify(note)}`);
  if (table.size !== marks.filter((m) => m === null).length) problems.push(`API table has ${table.size} moves for ${marks.filter((m) => m === null).length} empty cells`);
  check(`${label}: analysis scores match the API's move table`, problems.length === 0, problems.slice(0, 4).join('; '));
  return answer;
}

// What a cell's aria-description must say for a move-table entry of the API. `plies` counts the
// moves of both sides from the position, this one included; "move" is only ever one side's move.
function scoreDescription(entry, mark) {
  const them = other(mark);
  const ordinal = (n) => `${n}${{ 1: 'st', 2: 'nd', 3: 'rd' }[n] || 'th'}`;
  const score = Number.isInteger(entry.score)
    ? `score ${entry.score}`
    : `score ${entry.score < 0 ? '-' : ''}${Math.abs(entry.score).toFixed(2).replace(/^0/, '')}`;
  const p = entry.plies;
  switch (entry.outcome) {
    case 'win': return p === 1 ? `${score}: ${mark} wins with this move` : `${score}: ${mark} wins in ${p} plies, on ${mark}'s ${ordinal((p + 1) / 2)} move counting this one`;
    case 'loss': return `${score}: ${mark} loses in ${p} plies, ${them} wins on ${p === 2 ? 'its next move' : `its ${ordinal(p / 2)} move from here`}`;
    case 'draw': return `${score}: a draw with best play`;
    default: return `${score}: estimated, not proven`;
  }
}

// A stand-in answer of POST /v1/move with the given move table, for the board in the request.
// `entryFor(index, n)` gives the n-th empty cell's entry (without its index).
function fakeAnswer(route, entryFor) {
  const req = JSON.parse(route.request().postData() || '{}');
  const free = req.board.map((c, i) => (c === i ? i : -1)).filter((i) => i >= 0);
  const moves = free.map((index, n) => ({ index, exact: true, ...entryFor(index, n) }));
  const best = moves.reduce((a, b) => (b.score > a.score ? b : a));
  return {
    status: 200,
    contentType: 'application/json',
    body: JSON.stringify({ index: best.index, score: best.score, player: req.player, outcome: best.outcome, plies: best.plies, exact: best.exact, moves }),
  };
}

// Requests held by a route handler, handed out in order of arrival.
function holdQueue() {
  const arrived = [];
  const waiting = [];
  return {
    push(route) {
      if (waiting.length) waiting.shift()(route);
      else arrived.push(route);
    },
    next(what) {
      const p = arrived.length ? Promise.resolve(arrived.shift()) : new Promise((resolve) => waiting.push(resolve));
      return withTimeout(p, STEP_MS, what);
    },
  };
}

// Runs in the page: every visible text against what is painted behind it, and the boundaries of
// the controls against what surrounds them. Colours are read from computed styles and resolved by
// a canvas, so any CSS colour syntax works; translucent layers are composited.
function auditContrast() {
  const canvas = document.createElement('canvas');
  canvas.width = 1;
  canvas.height = 1;
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  const rgba = (css) => {
    ctx.clearRect(0, 0, 1, 1);
    ctx.fillStyle = 'rgba(0, 0, 0, 0)';
    ctx.fillStyle = css;
    ctx.fillRect(0, 0, 1, 1);
    const d = ctx.getImageData(0, 0, 1, 1).data;
    return [d[0], d[1], d[2], d[3] / 255];
  };
  const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat(1);
  const luminance = (c) => {
    const [r, g, b] = c.slice(0, 3).map((v) => {
      const s = v / 255;
      return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  // What is painted behind the content of `el`: its own background and its ancestors', composited.
  const backdrop = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = rgba(getComputedStyle(e).backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] >= 1) break;
    }
    return layers.reverse().reduce((under, top) => over(top, under), [255, 255, 255, 1]);
  };
  const opacity = (el) => {
    let o = 1;
    for (let e = el; e; e = e.parentElement) o *= Number(getComputedStyle(e).opacity);
    return o;
  };
  const hex = (c) => '#' + c.slice(0, 3).map((v) => Math.round(v).toString(16).padStart(2, '0')).join('');
  const name = (el) => el.id ? `#${el.id}` : `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\s+/).join('.') : ''}`;
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 2 && r.height > 2 && getComputedStyle(el).visibility !== 'hidden' && !el.closest('[hidden]');
  };
  const text = [];
  const ui = [];
  const textPair = (el, color, what) => {
    const bg = backdrop(el);
    const fg = over([...color.slice(0, 3), color[3] * opacity(el)], bg);
    text.push({ what, el: name(el), fg: hex(fg), bg: hex(bg), ratio: ratio(fg, bg) });
  };
  const uiPair = (el, color, behind, what) => {
    const fg = over(color, behind);
    ui.push({ what, el: name(el), fg: hex(fg), bg: hex(behind), ratio: ratio(fg, behind) });
  };
  for (const el of document.body.querySelectorAll('*')) {
    if (!visible(el) || el.closest(':disabled')) continue;  // inactive controls are exempt (WCAG 1.4.3)
    const cs = getComputedStyle(el);
    const ownText = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
    if (ownText || el.tagName === 'SELECT') textPair(el, rgba(cs.color), (el.tagName === 'SELECT' ? el.selectedOptions[0].textContent : el.textContent).trim().slice(0, 40));
    for (const pseudo of ['::before', '::after']) {
      const ps = getComputedStyle(el, pseudo);
      if (/^".*\S.*"$/.test(ps.content)) textPair(el, rgba(ps.color), `${pseudo} ${ps.content.slice(0, 40)}`);
    }
    const parentBg = el.parentElement ? backdrop(el.parentElement) : [255, 255, 255, 1];
    if (el.matches('select, .btn:not(.primary)')) uiPair(el, rgba(cs.borderTopColor), parentBg, 'control border');
    if (el.matches('.btn.primary')) uiPair(el, rgba(cs.backgroundColor), parentBg, 'button fill');
    // A goban's points are transparent: there the boundaries are the lines and the stones' edges.
    if (el.matches('#board:not(.goban) .cell')) uiPair(el, backdrop(el), parentBg, 'cell against the grid');
    if (el.matches('#board.goban')) uiPair(el, rgba(cs.getPropertyValue('--grid-line').trim()), backdrop(el), 'grid lines');
    if (el.matches('#board.goban .stone')) {
      uiPair(el, rgba(cs.borderTopColor), backdrop(el.parentElement), 'stone edge');
      const dot = getComputedStyle(el, '::after');
      if (dot.content !== 'none') uiPair(el, rgba(dot.backgroundColor), rgba(cs.backgroundColor), 'last-move mark');
      const halo = /^(rgba?\([^)]*\)) 0px 0px 0px \d/.exec(cs.boxShadow);
      if (halo) uiPair(el, rgba(halo[1]), backdrop(el.parentElement), 'winning stone ring');
    }
    const ring = /^(rgba?\([^)]*\)|color\([^)]*\)).* inset$/.exec(cs.boxShadow);
    if (ring && el.matches('.cell.best, .cell.win')) uiPair(el, rgba(ring[1]), backdrop(el), 'cell ring');
    if (el === document.activeElement && cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) > 0) {
      uiPair(el, rgba(cs.outlineColor), parseFloat(cs.outlineOffset) < 0 ? backdrop(el) : parentBg, 'focus outline');
    }
  }
  return { text, ui };
}

// Checks the contrast of what the page shows now: >= 4.5:1 for text, >= 3:1 for controls.
async function checkContrast(page, label) {
  // Colours are read once every transition has ended: a cell turning to the winning colour is
  // measured in that colour, not halfway there.
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => {}))));
  const { text, ui } = await page.evaluate(auditContrast);
  const show = (p) => `${p.el} "${p.what}" ${p.fg} on ${p.bg} ${p.ratio.toFixed(2)}:1`;
  const lowText = text.filter((p) => p.ratio < 4.5);
  const lowUi = ui.filter((p) => p.ratio < 3);
  check(`contrast, ${label}: ${text.length} texts all at least 4.5:1`, text.length > 5 && lowText.length === 0, lowText.slice(0, 4).map(show).join('; '));
  check(`contrast, ${label}: ${ui.length} control boundaries all at least 3:1`, ui.length > 3 && lowUi.length === 0, lowUi.slice(0, 4).map(show).join('; '));
  return { text, ui };
}

// Things the Content-Security-Policy would block: inline scripts and styles, style attributes,
// inline event handlers.
async function inlineAudit(page) {
  return page.evaluate(() => {
    const found = [];
    for (const s of document.querySelectorAll('script')) if (!s.src) found.push('inline <script>');
    if (document.querySelector('style')) found.push('<style> element');
    for (const el of document.querySelectorAll('*')) {
      for (const a of el.attributes) {
        if (a.name === 'style' || a.name.startsWith('on')) found.push(`${el.tagName.toLowerCase()}[${a.name}]`);
      }
    }
    return found;
  });
}

// ------------------------------------------------------------------ main

async function main() {
  log(`starting ${path.relative(ROOT, BIN)}`);
  const base = await startServer();
  log(`server ready at ${base}`);

  if (!fs.existsSync(CHROMIUM)) throw new Error(`no chromium at ${CHROMIUM} (apt-get install -y chromium)`);
  browser = await withTimeout(
    chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      timeout: 30_000,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-dev-shm-usage',
      ],
    }),
    40_000,
    'launching chromium',
  );
  log(`chromium ${browser.version()}`);

  const context = await browser.newContext({ viewport: { width: 1100, height: 1000 }, serviceWorkers: 'block' });
  context.setDefaultTimeout(STEP_MS);
  context.setDefaultNavigationTimeout(STEP_MS);

  // Every request the browser makes, from any page of the context.
  const requests = [];
  context.on('request', (r) => requests.push(r.url()));

  // Console errors and uncaught exceptions. `expectedErrors` is raised while the test injects a
  // failing response on purpose (chromium logs the failed load as a console error).
  const consoleErrors = [];
  let expectedErrors = false;
  const watchPage = (page) => {
    page.on('console', (msg) => {
      if (msg.type() !== 'error' && msg.type() !== 'warning') return;
      if (expectedErrors && /Failed to load resource/.test(msg.text())) return;
      if (msg.type() === 'error') consoleErrors.push(msg.text());
      else if (VERBOSE) console.log(`console warning: ${msg.text()}`);
    });
    page.on('pageerror', (err) => consoleErrors.push(`uncaught: ${err.message}`));
  };

  // Every Content-Security-Policy violation in any page, as the page itself sees it.
  await context.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__cspViolations.push(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile || ''}:${e.lineNumber || ''})`);
    });
  });

  const page = await context.newPage();
  watchPage(page);
  const assets = new Map();
  page.on('response', (r) => {
    const u = new URL(r.url());
    if (u.pathname.startsWith('/static/')) assets.set(u.pathname, { status: r.status(), type: r.headers()['content-type'] || '', etag: r.headers().etag || '' });
  });
  const response = await page.goto(`${base}/`, { waitUntil: 'load' });
  check('GET / answers 200', response && response.status() === 200, `status ${response && response.status()}`);
  check('GET / is HTML', /text\/html/.test((response && response.headers()['content-type']) || ''));
  await settle(page);

  // --- the page's script and style are files, and its CSP allows nothing inline
  {
    const csp = (response && response.headers()['content-security-policy']) || '';
    const directive = (name) => (csp.split(';').map((d) => d.trim().split(/\s+/)).find((d) => d[0] === name) || []).slice(1).join(' ');
    check('GET / has a Content-Security-Policy without \'unsafe-inline\'', csp.length > 0 && !/unsafe-inline|unsafe-eval/.test(csp), csp);
    check('the CSP allows scripts and styles from this origin only', directive('script-src') === "'self'" && directive('style-src') === "'self'" && directive('default-src') === "'none'", csp);
    const js = assets.get('/static/app.js');
    const css = assets.get('/static/app.css');
    check('the page loads /static/app.js as JavaScript', js && js.status === 200 && /^text\/javascript/.test(js.type) && js.etag.length > 2, JSON.stringify(js));
    check('the page loads /static/app.css as CSS', css && css.status === 200 && /^text\/css/.test(css.type) && css.etag.length > 2, JSON.stringify(css));
    const inline = await inlineAudit(page);
    check('the page has no inline script, style, style attribute or event handler', inline.length === 0, inline.join(', '));
    const styled = await page.evaluate(() => getComputedStyle(document.getElementById('board')).display);
    check('the style sheet applies (the board is a grid)', styled === 'grid', styled);
  }

  // --- the CSP is enforced: an injected inline script and an inline style are refused and reported
  {
    const probe = await context.newPage();
    await probe.goto(`${base}/`, { waitUntil: 'load' });
    await settle(probe);
    const refused = await probe.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.__inlineRan = true;';
      document.body.appendChild(s);
      const p = document.createElement('p');
      p.setAttribute('style', 'color: rgb(1, 2, 3)');
      document.body.appendChild(p);
      return { ran: window.__inlineRan === true, color: getComputedStyle(p).color };
    });
    await probe.waitForFunction(() => window.__cspViolations.length >= 2, null, { timeout: STEP_MS }).catch(() => {});
    const reported = await probe.evaluate(() => window.__cspViolations);
    check('an injected inline script does not run', !refused.ran);
    check('an injected style attribute does not apply', refused.color !== 'rgb(1, 2, 3)', refused.color);
    check('both are reported as CSP violations', reported.some((v) => v.startsWith('script-src')) && reported.some((v) => v.startsWith('style-src')), JSON.stringify(reported));
    await probe.close();
  }

  // --- the API explorer at /docs still works (the page's strict policy is the page's only)
  {
    const docs = await context.newPage();
    const docsErrors = [];
    docs.on('console', (m) => { if (m.type() === 'error') docsErrors.push(m.text()); });
    docs.on('pageerror', (e) => docsErrors.push(e.message));
    const res = await docs.goto(`${base}/docs/`, { waitUntil: 'load' });
    const shown = await docs.waitForSelector('.opblock-summary', { timeout: STEP_MS }).then(() => true, () => false);
    const ops = await docs.$$eval('.opblock-summary-path', (els) => els.map((e) => e.textContent.trim()));
    const violations = await docs.evaluate(() => window.__cspViolations);
    check('/docs renders the Swagger UI with the API\'s operations', res && res.status() === 200 && shown && ops.some((o) => o.includes('/v1/move')), JSON.stringify(ops));
    check('/docs has no console errors or CSP violations', docsErrors.length === 0 && violations.length === 0, [...docsErrors, ...violations].slice(0, 3).join(' | '));
    await docs.close();
  }

  // --- structure and accessibility of the page
  {
    const cells = await readBoard(page);
    check('the 3x3 board has 9 cell buttons with data-index 0..8',
      cells.length === 9 && cells.every((c, i) => c.index === i), JSON.stringify(cells.map((c) => c.index)));
    const labelsOk = cells.every((c, i) => c.label === `Row ${Math.floor(i / 3) + 1}, column ${(i % 3) + 1}, empty`);
    check('each cell has an aria-label naming its row, column and contents', labelsOk, cells.map((c) => c.label).join(' | '));
    const roles = await page.$$eval('[role="status"]', (els) => els.map((e) => ({ live: e.getAttribute('aria-live'), text: e.textContent })));
    check('there is exactly one role=status element', roles.length === 1);
    check('the status says whose turn it is', /your turn/i.test(roles[0].text) && /\bX\b/.test(roles[0].text), roles[0].text);
    const meta = await page.$eval('meta[name="viewport"]', (m) => m.content).catch(() => '');
    check('the page has a responsive viewport meta', /width=device-width/.test(meta), meta);
    const external = await page.$$eval('script[src], link[href], img[src], iframe', (els) =>
      els.map((e) => e.src || e.href).filter((u) => u && !u.startsWith('data:') && new URL(u).origin !== location.origin));
    check('the page loads no external resources', external.length === 0, external.join(', '));
    for (const id of ['size', 'side', 'difficulty', 'new-game', 'undo', 'analysis']) {
      const labelled = await page.$eval(`#${id}`, (el) => {
        if (el.labels && el.labels.length) return (el.labels[0].textContent || '').trim().length > 0;
        return (el.getAttribute('aria-label') || el.textContent || '').trim().length > 0;
      }).catch(() => false);
      check(`control #${id} exists and has an accessible name`, labelled);
    }
  }

  // --- taken cells stay reachable by keyboard and screen reader, and pressing them does nothing
  {
    await newGame(page, { side: 'X' });
    await page.click('#board button[data-index="0"]');
    await settle(page);
    const before = marksOf(await readBoard(page));
    const taken = before.map((m, i) => (m ? i : -1)).filter((i) => i >= 0);
    const aiCell = taken.find((i) => i !== 0);
    // Walk to the human's cell 0 with the keyboard: Control+Home goes to the first cell, taken or not.
    await page.focus('#analysis');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Control+Home');
    let at = await page.evaluate(() => document.activeElement.dataset.index);
    check('Control+Home reaches the first cell even though it is taken', at === '0', `at ${at}`);
    const target = `${Math.floor(aiCell / 3) + 1}, column ${(aiCell % 3) + 1}`;
    for (let i = 0; i < aiCell % 3; i++) await page.keyboard.press('ArrowRight');
    for (let i = 0; i < Math.floor(aiCell / 3); i++) await page.keyboard.press('ArrowDown');
    at = await page.evaluate(() => document.activeElement.dataset.index);
    check('the arrow keys reach the AI\'s taken cell', at === String(aiCell), `at ${at}, AI at ${aiCell}`);
    for (const key of ['Enter', 'Space']) {
      await page.keyboard.press(key);
      const now = marksOf(await readBoard(page));
      check(`${key} on a taken cell does nothing`, (await phase(page)) === 'human' && JSON.stringify(now) === JSON.stringify(before), `phase ${await phase(page)}, ${JSON.stringify(now)}`);
    }
    // force: Playwright would otherwise wait for an aria-disabled button to become enabled.
    await page.click(`#board button[data-index="${aiCell}"]`, { force: true });
    const afterClick = marksOf(await readBoard(page));
    check('clicking a taken cell does nothing', (await phase(page)) === 'human' && JSON.stringify(afterClick) === JSON.stringify(before), JSON.stringify(afterClick));
    // What a screen reader gets: chromium's own accessibility tree.
    const cdp = await context.newCDPSession(page);
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    await cdp.detach();
    const prop = (n, key) => ((n.properties || []).find((p) => p.name === key) || { value: {} }).value.value;
    const cell = (label) => nodes.find((n) => n.role && n.role.value === 'button' && n.name && n.name.value === label);
    const ai = cell(`Row ${target}, ${before[aiCell]}`);
    check('the taken cell is in the accessibility tree as a button named by row, column and mark', !!ai, `looked for "Row ${target}, ${before[aiCell]}"`);
    check('the taken cell is exposed as disabled but focusable', ai && prop(ai, 'disabled') === true && prop(ai, 'focusable') === true && prop(ai, 'focused') === true, JSON.stringify(ai && ai.properties));
    const free = before.findIndex((m) => m === null);
    const open = cell(`Row ${Math.floor(free / 3) + 1}, column ${(free % 3) + 1}, empty`);
    check('a free cell is an enabled, focusable button', open && prop(open, 'disabled') === undefined && prop(open, 'focusable') === true, JSON.stringify(open && open.properties));
    const cells = await readBoard(page);
    check('no cell has the disabled attribute', cells.every((c) => !c.nativeDisabled));
  }

  // --- a stale analysis request is aborted and never overwrites (or clears) a newer one
  for (const order of ['newer answered first', 'older released first']) {
    await page.uncheck('#analysis');
    await newGame(page, { side: 'X' });
    const held = holdQueue();
    await page.route('**/v1/move', (route) => {
      const req = JSON.parse(route.request().postData() || '{}');
      if (!req.moves) return route.continue();
      held.push(route);
    });
    await page.check('#analysis');
    const older = await held.next('the first analysis request');
    const olderFailed = page.waitForEvent('requestfailed', { predicate: (r) => r === older.request(), timeout: STEP_MS }).then((r) => r.failure() && r.failure().errorText, () => null);
    await page.uncheck('#analysis');
    await page.check('#analysis');
    const newer = await held.next('the second analysis request');
    const abortReason = await olderFailed;
    check(`stale analysis (${order}): the older request is aborted when a newer one starts`, /ABORTED/i.test(abortReason || ''), String(abortReason));
    // The older answer would say every move loses; the newer one says every move draws.
    const stale = fakeAnswer(older, () => ({ score: -8, outcome: 'loss', plies: 2 }));
    const fresh = fakeAnswer(newer, () => ({ score: 0, outcome: 'draw', plies: 9 }));
    if (order === 'newer answered first') {
      await newer.fulfill(fresh);
      await page.waitForFunction(() => document.querySelectorAll('#board .score').length === 9, null, { timeout: STEP_MS });
      await older.fulfill(stale).catch(() => {});   // too late: the page already gave up on it
    } else {
      await older.fulfill(stale).catch(() => {});
      const shownEarly = await page.$$eval('#board .score', (els) => els.length);
      check(`stale analysis (${order}): the older answer shows nothing`, shownEarly === 0, `${shownEarly} scores shown`);
      await newer.fulfill(fresh);
      await page.waitForFunction(() => document.querySelectorAll('#board .score').length === 9, null, { timeout: STEP_MS });
    }
    const scores = (await readBoard(page)).map((c) => c.score);
    check(`stale analysis (${order}): the newer answer is shown`, scores.every((x) => x === '0'), JSON.stringify(scores));
    const note = (await page.textContent('#analysis-note')) || '';
    check(`stale analysis (${order}): the note is for a finished analysis`, !/Scoring your moves/.test(note), note);
    await page.unrouteAll({ behavior: 'wait' });
    await page.uncheck('#analysis');
  }

  // --- a move while the analysis is loading: the old position's answer is dropped
  {
    await newGame(page, { side: 'X' });
    const held = holdQueue();
    await page.route('**/v1/move', (route) => {
      const req = JSON.parse(route.request().postData() || '{}');
      if (!req.moves) return route.continue();
      held.push(route);
    });
    await page.check('#analysis');
    const older = await held.next('the analysis of the empty board');
    const olderFailed = page.waitForEvent('requestfailed', { predicate: (r) => r === older.request(), timeout: STEP_MS }).then((r) => r.failure() && r.failure().errorText, () => null);
    await page.click('#board button[data-index="4"]');
    const newer = await held.next('the analysis after the AI\'s reply');
    check('a move aborts the analysis of the old position', /ABORTED/i.test((await olderFailed) || ''));
    await newer.fulfill(fakeAnswer(newer, () => ({ score: 0, outcome: 'draw', plies: 7 })));
    await page.waitForFunction(() => document.querySelectorAll('#board .score').length === 7, null, { timeout: STEP_MS });
    await older.fulfill(fakeAnswer(older, () => ({ score: 9, outcome: 'win', plies: 1 }))).catch(() => {});
    const scores = (await readBoard(page)).filter((c) => c.score !== null).map((c) => c.score);
    check('the analysis shown is the new position\'s', scores.length === 7 && scores.every((x) => x === '0'), JSON.stringify(scores));
    await page.unrouteAll({ behavior: 'wait' });
    await page.uncheck('#analysis');
  }

  // --- score wording: "plies" for moves of both sides, "move" for one side's move; then the
  // contrast of everything on screen, in both colour schemes
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    const dark = await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches);
    check(`${scheme} scheme is in effect`, dark === (scheme === 'dark'));
    await newGame(page, { side: 'X' });
    await page.click('#board button[data-index="0"]');
    await settle(page);
    const kinds = [
      { score: 9, outcome: 'win', plies: 1 },
      { score: 7, outcome: 'win', plies: 3 },
      { score: -8, outcome: 'loss', plies: 2 },
      { score: -6, outcome: 'loss', plies: 4 },
      { score: 0, outcome: 'draw', plies: 7 },
      { score: 0.25, outcome: 'unknown', plies: null, exact: false },
      { score: -0.5, outcome: 'unknown', plies: null, exact: false },
    ];
    const entries = new Map();
    await page.route('**/v1/move', (route) => {
      const req = JSON.parse(route.request().postData() || '{}');
      if (!req.moves) return route.continue();
      return route.fulfill(fakeAnswer(route, (index, n) => {
        const e = kinds[n % kinds.length];
        entries.set(index, e);
        return e;
      }));
    });
    await page.check('#analysis');
    await page.waitForFunction(() => document.querySelectorAll('#board .score').length === 7, null, { timeout: STEP_MS });
    if (scheme === 'light') {
      const cells = await readBoard(page);
      const wrong = cells.filter((c) => entries.has(c.index) && c.description !== scoreDescription({ index: c.index, ...entries.get(c.index) }, 'X'));
      check('each score is described in plies, and "move" means one side\'s move', wrong.length === 0,
        wrong.slice(0, 3).map((c) => `${c.index}: ${JSON.stringify(c.description)} vs ${JSON.stringify(scoreDescription(entries.get(c.index), 'X'))}`).join('; '));
      const texts = [...cells.map((c) => c.description || ''), (await page.textContent('#analysis-note')) || ''];
      const counted = texts.filter((t) => /\b\d+ moves?\b/.test(t));
      check('no score text counts plies as moves', counted.length === 0, counted.join(' | '));
    }
    await checkContrast(page, `${scheme}, scores shown`);
    await page.hover('#board button.best');
    await checkContrast(page, `${scheme}, hovering the best cell`);
    await page.hover('#new-game');
    await checkContrast(page, `${scheme}, hovering New game`);
    await page.hover('#undo');
    await checkContrast(page, `${scheme}, hovering Undo`);
    await page.mouse.move(0, 0);
    // Keyboard focus: every stop from the first control to the board shows a ring that contrasts.
    await page.focus('#size');
    await page.keyboard.press('Tab');
    const rings = [];
    for (let i = 0; i < 6; i++) {
      const { ui } = await page.evaluate(auditContrast);
      const ring = ui.find((p) => p.what === 'focus outline');
      rings.push(ring ? { ...ring, ok: ring.ratio >= 3 } : { el: await page.evaluate(() => document.activeElement.id || document.activeElement.tagName), ok: false, what: 'no focus outline' });
      await page.keyboard.press('Tab');
    }
    const badRings = rings.filter((r) => !r.ok);
    check(`contrast, ${scheme}: ${rings.length} focus rings all visible and at least 3:1`, badRings.length === 0, JSON.stringify(badRings.slice(0, 3)));
    await page.unrouteAll({ behavior: 'wait' });
    await page.uncheck('#analysis');

    // An error, shown in its box.
    expectedErrors = true;
    await page.route('**/v1/move', (route) => route.fulfill({
      status: 503,
      contentType: 'application/problem+json',
      headers: { 'Retry-After': '1' },
      body: JSON.stringify({ type: '/problems/overloaded', title: 'Service Unavailable', status: 503, detail: 'every search slot is busy', code: 'overloaded' }),
    }));
    await page.click('#board button[data-index="8"]');
    const ph = await settle(page);
    check(`${scheme}: the error state is shown`, ph === 'error');
    await checkContrast(page, `${scheme}, an error shown`);
    await page.unrouteAll({ behavior: 'wait' });
    expectedErrors = false;

    // A finished game with its winning line.
    await newGame(page, { side: 'X' });
    await page.route('**/v1/move', (route) => {
      const req = JSON.parse(route.request().postData() || '{}');
      const index = [3, 5, 6, 7].find((i) => req.board[i] === i);
      const board = req.board.slice();
      board[index] = 'O';
      return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ index, score: 0, player: 'O', outcome: 'draw', plies: 9, exact: true, board, status: { state: 'in_play', winner: null, line: [] }, explanation: `O plays ${index}.` }) });
    });
    for (const i of [0, 4, 8]) {
      await page.click(`#board button[data-index="${i}"]`);
      await settle(page);
    }
    check(`${scheme}: the game is over with a winning line`, (await phase(page)) === 'over' && (await page.$$('#board button.win')).length === 3);
    const winNote = await page.getAttribute('#board button[data-index="4"]', 'aria-description');
    check(`${scheme}: a cell of the winning line says so to a screen reader`, winNote === 'in the winning line', String(winNote));
    await checkContrast(page, `${scheme}, game over`);
    await page.unrouteAll({ behavior: 'wait' });
  }
  await page.emulateMedia({ colorScheme: 'light' });

  // --- perfect against perfect: the human plays the best move from the analysis view, which is
  // checked against the API's table at every position; the game must be a draw.
  await page.check('#analysis');
  for (const human of ['X', 'O']) {
    const game = await playGame(page, human, async (marks, pg) => {
      const answer = await checkAnalysis(pg, base, human, `analysis, ${human} to move, ${marks.map((m) => m || '.').join('')}`);
      // The page must show the best move as the cell with the highest score.
      const best = Math.max(...answer.moves.map((m) => m.score));
      return answer.moves.find((m) => m.score === best).index;
    }, `perfect ${human} vs perfect AI`);
    check(`perfect ${human} vs perfect AI: the game is a draw`, game.winner === null, JSON.stringify(game.marks));
  }
  await page.uncheck('#analysis');
  {
    const shown = await page.$$eval('#board .score', (els) => els.length);
    check('turning analysis off hides the scores', shown === 0, `${shown} scores still shown`);
  }

  // --- fixed lines (the human takes the first free cell of each list), then seeded random games.
  const fixed = {
    X: [[0, 8, 2, 6, 4, 1, 3, 5, 7], [4, 0, 8, 2, 6, 1, 3, 5, 7], [1, 3, 5, 7, 0, 2, 6, 8, 4], [0, 4, 8, 2, 6, 1, 3, 5, 7], [0, 5, 7, 1, 2, 3, 4, 6, 8]],
    O: [[0, 8, 2, 6, 4, 1, 3, 5, 7], [4, 0, 8, 2, 6, 1, 3, 5, 7], [1, 3, 5, 7, 0, 2, 6, 8, 4], [8, 7, 6, 5, 4, 3, 2, 1, 0]],
  };
  let losses = 0;
  let games = 0;
  for (const human of ['X', 'O']) {
    for (const [n, order] of fixed[human].entries()) {
      const g = await playGame(page, human, async (marks) => order.find((i) => marks[i] === null), `fixed line ${n + 1} as ${human}`);
      games++;
      if (g.winner === human) losses++;
    }
  }
  log(`fixed lines done`);
  const random = rng(SEED);
  const outcomes = { X: { win: 0, draw: 0, loss: 0 }, O: { win: 0, draw: 0, loss: 0 } };
  for (const human of ['X', 'O']) {
    for (let n = 0; n < GAMES_PER_SIDE; n++) {
      const g = await playGame(page, human, async (marks) => {
        const free = marks.map((m, i) => (m === null ? i : -1)).filter((i) => i >= 0);
        return free[Math.floor(random() * free.length)];
      }, `random game ${n + 1} as ${human} (SEED=${SEED})`);
      games++;
      if (g.winner === human) losses++;
      // From the AI's side: the human's loss is the AI's win.
      outcomes[human][g.winner === null ? 'draw' : g.winner === human ? 'loss' : 'win']++;
    }
  }
  log(`${games} games by clicking: AI lost ${losses}; AI results vs a random human: as O ${JSON.stringify(outcomes.X)}, as X ${JSON.stringify(outcomes.O)}`);
  check(`the AI lost none of ${games} games on perfect`, losses === 0);

  // --- the review after a game: a picture of the value after each move (an SVG chart, not a
  // table), blunders marked, and a click on a move shows its position and the best reply.
  {
    const line = [1, 3, 5, 7, 0, 2, 6, 8, 4];
    await playGame(page, 'X', async (marks) => line.find((i) => marks[i] === null), 'review line');
    await page.waitForFunction(() => document.querySelectorAll('#review-chart .point').length > 0, null, { timeout: STEP_MS });
    const shown = await page.evaluate(() => ({
      visible: !document.getElementById('review').hidden,
      points: [...document.querySelectorAll('#review-chart .point')].map((c) => ({
        number: Number(c.dataset.number), label: c.dataset.label, aria: c.getAttribute('aria-label'),
        blunder: c.classList.contains('blunder'),
      })),
      curve: !!document.querySelector('#review-chart polyline'),
      tables: document.querySelectorAll('#review table').length,
      sentence: document.getElementById('review-sentence').textContent,
    }));
    const moves = shown.points.map((p) => Number(/played (\d+)/.exec(p.aria)[1]));
    const res = await fetch(`${base}/v1/review`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ moves }),
    });
    const review = await res.json();
    check('review: the view appears when the game is over', shown.visible);
    check('review: the chart is an SVG picture with a curve, not a table', shown.curve && shown.tables === 0);
    check('review: one point a move, labelled as the API labels it',
      res.ok && review.moves.length === shown.points.length && review.moves.every((m, i) => m.label === shown.points[i].label),
      JSON.stringify({ shown: shown.points.map((p) => p.label), api: (review.moves || []).map((m) => m.label) }));
    check('review: every blunder is marked, and only blunders',
      review.moves.every((m, i) => (m.label === 'blunder') === shown.points[i].blunder));
    check('review: the sentence is the API\'s', shown.sentence === review.sentence, shown.sentence);
    const pick = review.moves.find((m) => m.label === 'blunder') || review.moves[0];
    await page.click(`#review-chart .point[data-number="${pick.number}"]`);
    await page.waitForFunction(() => !document.getElementById('review-detail').hidden, null, { timeout: STEP_MS });
    const detail = await page.evaluate(() => ({
      marks: [...document.querySelectorAll('#board button[data-index]')].map((d) => d.dataset.mark || null),
      best: [...document.querySelectorAll('#board .best-reply')].map((d) => Number(d.dataset.index)),
      caption: document.getElementById('review-caption').textContent,
      step: document.getElementById('step-text').textContent,
    }));
    const after = new Array(9).fill(null);
    review.moves.slice(0, pick.number).forEach((m) => { after[m.cell] = m.player; });
    check('review: a click on a move goes to the position after it on the main board',
      JSON.stringify(detail.marks) === JSON.stringify(after) && detail.step === `Move ${pick.number} of ${review.moves.length}`, `${JSON.stringify(detail.marks)}, ${detail.step}`);
    const starred = pick.label === 'best' || after[pick.best[0]] !== null ? [] : [pick.best[0]];
    check('review: ... and stars the best move there', JSON.stringify(detail.best) === JSON.stringify(starred),
      `${JSON.stringify(detail.best)} vs ${JSON.stringify(starred)}`);
    check('review: the caption names the move and its label',
      detail.caption.includes(`Move ${pick.number}`) && detail.caption.includes(pick.label), detail.caption);
    if (!review.moves.some((m) => m.label === 'blunder')) log('review line: no blunder in this game');
  }

  // --- a big-board search shown as it deepens (server-sent events)
  {
    await newGame(page, { size: '5x5x4', side: 'X' });
    await page.click('#board button[data-index="12"]');
    let seen = '';
    try {
      await page.waitForFunction(() => /^Depth \d+: best/.test(document.getElementById('live-text').textContent), null, { timeout: STEP_MS });
      seen = await page.textContent('#live-text');
    } catch (_) { seen = ''; }
    const ph = await settle(page);
    check('live search: the page shows the search as it deepens on a big board', /^Depth \d+: best \d+/.test(seen), JSON.stringify(seen));
    check('live search: the streamed answer is played', ph === 'human' && marksOf(await readBoard(page)).filter(Boolean).length === 2, `phase ${ph}`);
    await newGame(page, { size: '3x3x3', side: 'X' });
    check('live search: a new game hides the search panel', await page.evaluate(() => document.getElementById('live').hidden));
  }

  // --- keyboard play
  {
    await newGame(page, { side: 'X' });
    await page.focus('#analysis');
    await page.keyboard.press('Tab');
    const onCell = await page.evaluate(() => document.activeElement && document.activeElement.matches('#board button[data-index]'));
    check('Tab from the controls reaches the board', onCell);
    await page.keyboard.press('Control+Home');
    let at = await page.evaluate(() => document.activeElement.dataset.index);
    check('Control+Home goes to the first cell', at === '0', `at ${at}`);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowDown');
    at = await page.evaluate(() => document.activeElement.dataset.index);
    check('arrow keys move between cells', at === '4', `at ${at}`);
    await page.keyboard.press('Enter');
    await settle(page);
    let marks = marksOf(await readBoard(page));
    check('Enter plays the focused cell', marks[4] === 'X' && marks.filter(Boolean).length === 2, JSON.stringify(marks));
    const focus = await page.evaluate(() => {
      const el = document.activeElement;
      return el && el.matches('#board button[data-index]') ? { index: el.dataset.index, disabled: el.getAttribute('aria-disabled') === 'true' } : null;
    });
    check('after the AI replies, focus is back on a free cell', focus && !focus.disabled, JSON.stringify(focus));
    const target = Number(focus && focus.index);
    await page.keyboard.press('Space');
    await settle(page);
    marks = marksOf(await readBoard(page));
    check('Space plays the focused cell', marks[target] === 'X', `focused ${target}, board ${JSON.stringify(marks)}`);
  }

  // --- undo: takes back the human's last move and the AI's reply
  for (const human of ['X', 'O']) {
    await newGame(page, { side: human });
    let marks = marksOf(await readBoard(page));
    const undoDisabled = await page.isDisabled('#undo');
    check(`undo (${human}): disabled before the first move`, undoDisabled);
    const first = [0, 1, 2, 3, 4, 5, 6, 7, 8].find((i) => marks[i] === null);
    await page.click(`#board button[data-index="${first}"]`);
    await settle(page);
    const snapshot = marksOf(await readBoard(page));
    const second = [8, 7, 6, 5, 4, 3, 2, 1, 0].find((i) => snapshot[i] === null);
    await page.click(`#board button[data-index="${second}"]`);
    const ph = await settle(page);
    await page.click('#undo');
    await settle(page);
    marks = marksOf(await readBoard(page));
    check(`undo (${human}): restores the board before the last move`, JSON.stringify(marks) === JSON.stringify(snapshot) && ph !== 'error', `${JSON.stringify(snapshot)} vs ${JSON.stringify(marks)}`);
    check(`undo (${human}): it is the human's turn again`, /your turn/i.test(await statusText(page)), await statusText(page));
    await page.click('#undo');
    await settle(page);
    marks = marksOf(await readBoard(page));
    check(`undo (${human}): twice goes back to the start`, marks.filter(Boolean).length === (human === 'X' ? 0 : 1), JSON.stringify(marks));
  }

  // --- an error from the API is shown, and "Try again" recovers
  {
    await newGame(page, { side: 'X' });
    expectedErrors = true;
    await page.route('**/v1/move', (route) => route.fulfill({
      status: 503,
      contentType: 'application/problem+json',
      headers: { 'Retry-After': '1' },
      body: JSON.stringify({ type: 'about:blank', title: 'Service Unavailable', status: 503, detail: 'every search slot is busy', code: 'overloaded' }),
    }), { times: 2 });   // the page retries a 503 once by itself, so fail twice
    await page.click('#board button[data-index="4"]');
    const ph = await settle(page);
    const errorShown = await page.isVisible('#error');
    const errorText = (await page.textContent('#error')) || '';
    check('an API error is shown to the user', ph === 'error' && errorShown && /Service Unavailable|busy/.test(errorText), `phase ${ph}, error ${JSON.stringify(errorText)}`);
    check('the status says the AI could not move', /could not/i.test(await statusText(page)), await statusText(page));
    await page.click('#retry');
    const ph2 = await settle(page);
    const marks = marksOf(await readBoard(page));
    check('"Try again" recovers after an error', ph2 === 'human' && marks.filter(Boolean).length === 2 && !(await page.isVisible('#error')), `phase ${ph2}, ${JSON.stringify(marks)}`);
    await page.unrouteAll({ behavior: 'wait' });
    expectedErrors = false;
  }

  // --- the human can win: a stand-in for the API plays weak moves (O answers 3, then 5), so X wins
  // on the diagonal 0-4-8; the page must see the win itself, say so, and stop asking the AI.
  {
    await newGame(page, { side: 'X' });
    const weak = [3, 5, 6, 7];
    let calls = 0;
    await page.route('**/v1/move', async (route) => {
      calls++;
      const req = JSON.parse(route.request().postData() || '{}');
      const board = req.board.slice();
      const index = weak.find((i) => board[i] === i);
      board[index] = 'O';
      await route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({
          index, score: 0, player: 'O', outcome: 'draw', plies: 9, exact: true, board,
          status: { state: 'in_play', winner: null, line: [] }, pv: [index], explanation: `O plays ${index}.`,
        }),
      });
    });
    for (const i of [0, 4, 8]) {
      await page.click(`#board button[data-index="${i}"]`);
      await settle(page);
    }
    const marks = marksOf(await readBoard(page));
    const status = await statusText(page);
    check('a human win is detected by the page', (await phase(page)) === 'over' && /\bX wins\b/.test(status) && /you/i.test(status), `status ${JSON.stringify(status)}, ${JSON.stringify(marks)}`);
    check('no AI move is requested after the human wins', calls === 2, `${calls} calls`);
    const line = await page.$$eval('#board button.win', (bs) => bs.map((b) => Number(b.dataset.index)));
    check('the human\'s winning line is highlighted', JSON.stringify(line) === '[0,4,8]', JSON.stringify(line));
    await page.unrouteAll({ behavior: 'wait' });
  }

  // --- bigger boards: one move on 4x4 (four in a row) as X, and the AI opening 5x5 as X
  {
    const ph = await newGame(page, { size: '4x4x4', side: 'X' });
    let cells = await readBoard(page);
    check('4x4: 16 cells, labelled by row and column', cells.length === 16 && cells[15].label === 'Row 4, column 4, empty' && ph === 'human', `${cells.length} cells, last ${cells.at(-1) && cells.at(-1).label}`);
    const t0 = Date.now();
    await page.click('#board button[data-index="5"]');
    const ph2 = await settle(page);
    cells = await readBoard(page);
    const marks = marksOf(cells);
    check('4x4: the AI answers one move', ph2 === 'human' && marks[5] === 'X' && marks.filter((m) => m === 'O').length === 1, `phase ${ph2}, ${JSON.stringify(marks)}`);
    log(`4x4 AI move took ${Date.now() - t0} ms`);
    const expl = ((await page.textContent('#explanation')) || '').trim();
    check('4x4: an explanation is shown after the AI move', expl.length > 0 && /O/.test(expl), expl);

    const ph3 = await newGame(page, { size: '5x5x4', side: 'O' });
    const m5 = marksOf(await readBoard(page));
    check('5x5 as O: the AI opens', ph3 === 'human' && m5.length === 25 && m5.filter((m) => m === 'X').length === 1, `phase ${ph3}`);
  }

  // --- Connect Four: a click anywhere in a column drops the mark to its lowest free cell, the AI
  // answers with a mark that rests on another or on the bottom row, scores are shown per column
  {
    const resting = (marks) => marks.every((m, i) => m === null || i + 7 >= 42 || marks[i + 7] !== null);
    const ph = await newGame(page, { size: '6x7x4g', side: 'X' });
    let cells = await readBoard(page);
    const gravityClass = await page.$eval('#board', (b) => b.classList.contains('gravity'));
    check('connect four: 42 cells on a gravity board, the human to move', cells.length === 42 && gravityClass && ph === 'human', `${cells.length} cells, phase ${ph}`);
    await page.click('#board button[data-index="0"]');
    const ph2 = await settle(page);
    cells = await readBoard(page);
    let marks = marksOf(cells);
    check('connect four: a click on the top cell drops X to the bottom of column 1', marks[35] === 'X' && marks[0] === null, JSON.stringify(marks));
    check('connect four: the AI answers one mark, resting on the bottom row or another mark', ph2 === 'human' && marks.filter((m) => m === 'O').length === 1 && resting(marks), `phase ${ph2}, ${JSON.stringify(marks)}`);
    const drops = await page.$$eval('#board .mark.drop', (els) => els.length);
    check('connect four: the newest mark drops in', drops >= 1, `${drops} dropping marks`);
    const expl = ((await page.textContent('#explanation')) || '').trim();
    check('connect four: the explanation names the column the AI dropped in', /^O drops in column [1-7]\b/.test(expl), expl);
    const full = marks.map((m, i) => (m ? i : -1)).filter((i) => i >= 0);

    await page.check('#analysis');
    await page.waitForFunction(() => {
      const strip = document.getElementById('column-scores');
      return !strip.hidden && strip.querySelectorAll('[data-score]').length === 7;
    }, null, { timeout: STEP_MS });
    const strip = await page.$$eval('#column-scores > span', (els) => els.map((e) => ({ text: e.textContent, score: e.dataset.score, outcome: e.className.split(' ')[0], label: e.getAttribute('aria-label') })));
    check('connect four: seven column scores above the board, each labelled by its column', strip.length === 7 && strip.every((e, c) => e.label.startsWith(`Column ${c + 1}:`)), JSON.stringify(strip));
    check('connect four: every column score is proven, none an estimate', strip.every((e) => ['win', 'loss', 'draw'].includes(e.outcome) && !/estimated/.test(e.label)), JSON.stringify(strip));
    cells = await readBoard(page);
    marks = marksOf(cells);
    const landingOf = (c) => { for (let r = 5; r >= 0; r--) if (marks[r * 7 + c] === null) return r * 7 + c; return null; };
    const same = strip.every((e, c) => cells[landingOf(c)].score === e.score);
    check('connect four: each column\'s score is the one shown in its landing cell', same, JSON.stringify(strip.map((e) => e.score)));
    const api = await apiMove(base, { board: marks.map((m, i) => m || i), rows: 6, cols: 7, k: 4, gravity: true, player: 'X', moves: true, time_limit_ms: 3000 });
    const mismatches = api.moves.filter((m) => m.exact && strip[m.column].outcome !== 'unknown' && Number(strip[m.column].score) !== m.score);
    check('connect four: proven column scores match the API\'s move table', api.moves.length === 7 && api.moves.every((m) => m.index === landingOf(m.column)) && mismatches.length === 0, JSON.stringify(mismatches));
    // The text is Pons' score by default (the caption says so), the plies with the switch.
    const stones = marks.filter(Boolean).length;
    const pons = (m) => (m.outcome === 'draw' ? 0 : (m.outcome === 'win' ? 1 : -1) * (1 + Math.floor((42 - stones - m.plies) / 2)));
    const texts = async () => page.$$eval('#column-scores > span', (els) => els.map((e) => e.textContent));
    const caption = async () => (await page.textContent('#column-score-caption')) || '';
    const proven = api.moves.filter((m) => m.exact);
    let shown = await texts();
    check('connect four: column scores in Pons\' convention by default, and the caption says so', (await caption()).startsWith('Pons') && proven.every((m) => shown[m.column] === String(pons(m))), JSON.stringify({ shown, api: proven.map((m) => [m.column, m.outcome, m.plies]) }));
    await page.check('#moves-to-end');
    shown = await texts();
    const plies = (m) => (m.outcome === 'draw' ? '0' : (m.outcome === 'win' ? '+' : '-') + m.plies);
    check('connect four: the switch shows the moves to the end, and the caption says so', (await caption()).startsWith('Moves to the end') && proven.every((m) => shown[m.column] === plies(m)), JSON.stringify(shown));
    await page.uncheck('#moves-to-end');
    // Hovering a column lights it and shows a ghost disc on its landing cell.
    await page.hover('#board button[data-index="3"]');
    const lit = await page.$$eval('#board .cell.column-hover', (els) => els.map((e) => Number(e.dataset.index)));
    const ghosts = await page.$$eval('#board .cell.ghost', (els) => els.map((e) => [Number(e.dataset.index), e.dataset.ghost]));
    check('connect four: the hovered column is lit, with a ghost disc of the player on its landing cell', lit.length === 6 && lit.every((i) => i % 7 === 3) && ghosts.length === 1 && ghosts[0][0] === landingOf(3) && ghosts[0][1] === 'X', JSON.stringify({ lit, ghosts }));
    await page.mouse.move(0, 0);
    await page.uncheck('#analysis');
    // A click on a taken cell of a column that is not full still drops into that column.
    await page.click(`#board button[data-index="${full[0]}"]`, { force: true });
    await settle(page);
    marks = marksOf(await readBoard(page));
    check('connect four: clicking a taken cell drops into its column', marks.filter(Boolean).length === 4 && marks[full[0] - 7] !== null && resting(marks), JSON.stringify(marks));
  }

  // --- screenshots: desktop (docs/screenshot.png) and phone (artifacts/phone.png)
  {
    await newGame(page, { size: '3x3x3', side: 'X' });
    // X 0, O 4, X 8, O 1: X must block at 7, so the scores show a draw and several losses.
    await page.click('#board button[data-index="0"]');
    await settle(page);
    await page.click('#board button[data-index="8"]');
    await settle(page);
    await page.check('#analysis');
    await page.waitForFunction(() => document.querySelectorAll('#board .score').length > 0, null, { timeout: STEP_MS });
    const expl = ((await page.textContent('#explanation')) || '').trim();
    check('3x3: the explanation sentence is shown after the AI move', expl.length > 10, expl);
    fs.mkdirSync(path.join(ROOT, 'docs'), { recursive: true });
    await page.setViewportSize({ width: 1000, height: 900 });
    await page.screenshot({ path: path.join(ROOT, 'docs', 'screenshot.png'), fullPage: true });
    check('desktop screenshot saved to docs/screenshot.png', fs.statSync(path.join(ROOT, 'docs', 'screenshot.png')).size > 5000);
    await page.uncheck('#analysis');
  }

  {
    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      serviceWorkers: 'block',
    });
    phone.setDefaultTimeout(STEP_MS);
    phone.on('request', (r) => requests.push(r.url()));
    const p = await phone.newPage();
    watchPage(p);
    await p.goto(`${base}/`, { waitUntil: 'load' });
    await settle(p);
    for (const size of ['3x3x3', '4x4x4', '5x5x4', '7x7x5', '15x15x5']) {
      await newGame(p, { size, side: 'X' });
      const fit = await p.evaluate(() => {
        const board = document.getElementById('board').getBoundingClientRect();
        return { scroll: document.documentElement.scrollWidth, width: window.innerWidth, right: board.right };
      });
      check(`phone: the ${size} board fits the screen without sideways scrolling`, fit.scroll <= fit.width && fit.right <= fit.width, JSON.stringify(fit));
      if (size === '15x15x5') {
        fs.mkdirSync(path.join(ROOT, 'artifacts'), { recursive: true });
        await p.screenshot({ path: path.join(ROOT, 'artifacts', 'phone-15x15.png'), fullPage: true });
      }
    }
    await newGame(p, { size: '3x3x3', side: 'O' });
    const free = marksOf(await readBoard(p)).findIndex((m, i) => m === null && i >= 4);
    await p.tap(`#board button[data-index="${free}"]`);
    await settle(p);
    const box = await p.$eval('#board button[data-index="0"]', (b) => b.getBoundingClientRect().width);
    check('phone: 3x3 cells are comfortably tappable (>= 44 px)', box >= 44, `${box}px`);
    fs.mkdirSync(path.join(ROOT, 'artifacts'), { recursive: true });
    await p.screenshot({ path: path.join(ROOT, 'artifacts', 'phone.png'), fullPage: true });
    check('phone screenshot saved to artifacts/phone.png', fs.existsSync(path.join(ROOT, 'artifacts', 'phone.png')));
    await phone.close();
  }

  // --- gomoku boards (15 x 15 and 20 x 20) on a desktop and a phone: see goban.mjs
  await gobanTests({ browser, base, check, log, settle, checkContrast, watchPage, requests, STEP_MS });

  // --- the "How did it decide?" view, stepping both ways: see trace.mjs
  await traceTests({ browser, base, check, log, watchPage, requests, STEP_MS });

  // --- the analysis board: links, records, stepping, variations, set-up positions: see analysis.mjs
  const expectErrors = (on) => { expectedErrors = on; };
  await analysisTests({ browser, base, check, log, settle, checkContrast, watchPage, expectErrors, requests, STEP_MS });

  // --- nothing left the machine, nothing went wrong in the console
  const foreign = requests.filter((u) => {
    try {
      const url = new URL(u);
      if (url.protocol === 'data:' || url.protocol === 'about:' || url.protocol === 'blob:') return false;
      return url.hostname !== '127.0.0.1';
    } catch (_) {
      return true;
    }
  });
  check(`every request (${requests.length}) went to 127.0.0.1`, requests.length > 0 && foreign.length === 0, foreign.slice(0, 5).join(', '));
  check('no console errors or uncaught exceptions', consoleErrors.length === 0, consoleErrors.slice(0, 5).join(' | '));
}

try {
  await main();
} catch (err) {
  check('the run completes without an exception', false, err && err.stack ? err.stack.split('\n').slice(0, 4).join(' / ') : String(err));
}
clearTimeout(watchdog);
await Promise.race([cleanup(), sleep(10_000)]);
finish();
