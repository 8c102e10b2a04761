// The board views: a grid of cells (m,n,k and Connect Four) or a goban (stones on intersections),
// drawn from the state; keyboard movement over the cells (one tab stop, arrow keys).
import {
  $, game, other, LETTERS, coordinate, named, positionKey, describeScore, formatScore, gravityScore, toMove,
} from './state.js';
import { landing } from './notation.js';

export const TOP_MOVES = 5;        // the heat map of a big board shows this many of the best moves
const MIN_TARGET_PX = 24;          // the smallest intersection a finger should have to hit
export const FOUL_TEXT = { overline: 'overline', double_four: 'double four', double_three: 'double three' };

const boardEl = $('board');
const zoomBtn = $('zoom');
const boardTools = zoomBtn.closest('.board-tools');
const boardScroll = $('board-scroll');
const columnScoresEl = $('column-scores');
const scoreKindEl = $('column-score-kind');
const topMovesEl = $('top-moves');

let buttons = [];
let focusIndex = 0;   // the board's single tab stop (roving tabindex)
let hoverColumn = null; // Connect Four: the column under the pointer (showColumn)

export const cellButtons = () => buttons;
export const focusedCell = () => focusIndex;
export const setFocusedCell = (i) => { focusIndex = i; };

export function buildBoard() {
  if (game.goban) { buildGoban(); return; }
  const { rows, cols } = game;
  boardEl.textContent = '';
  document.body.classList.remove('goban-mode');
  boardTools.hidden = true;
  boardScroll.classList.remove('zoomed');
  // The column count is a class (no style attribute: the page's CSP allows no inline styles).
  boardEl.className = `cols-${cols} ` + (cols <= 3 ? 'size-s' : cols <= 5 ? 'size-m' : cols <= 7 ? 'size-l' : 'size-xl') + (game.gravity ? ' gravity' : '');
  boardEl.setAttribute('aria-label', `Board, ${rows} rows by ${cols} columns, ${game.k} in a row wins` + (game.gravity ? ', marks drop to the lowest free cell of their column' : ''));
  columnScoresEl.textContent = '';
  if (game.gravity) {
    for (let c = 0; c < cols; c++) {
      const s = document.createElement('span');
      s.setAttribute('role', 'listitem');
      s.dataset.column = String(c);
      columnScoresEl.appendChild(s);
    }
  }
  buttons = [];
  for (let i = 0; i < rows * cols; i++) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'cell';
    b.dataset.index = String(i);
    b.dataset.row = String(Math.floor(i / cols) + 1);
    b.dataset.col = String((i % cols) + 1);
    b.tabIndex = -1;
    boardEl.appendChild(b);
    buttons.push(b);
  }
  focusIndex = Math.floor((rows * cols) / 2);
}

// The star points drawn on a goban: the centre and the 4-4 points (4-4 from each corner).
function starPoints(rows, cols) {
  const r = [3, Math.floor(rows / 2), rows - 4], c = [3, Math.floor(cols / 2), cols - 4];
  const out = new Set();
  for (const y of [r[0], r[2]]) for (const x of [c[0], c[2]]) out.add(y * cols + x);
  out.add(r[1] * cols + c[1]);
  return out;
}

// A gomoku board: lines with the stones on their intersections, each intersection a button,
// the row numbers along the left edge (1 at the bottom) and the column letters along the bottom.
function buildGoban() {
  const { rows, cols } = game;
  boardEl.textContent = '';
  document.body.classList.add('goban-mode');
  boardEl.className = `goban cols-${cols} rows-${rows}` + (game.zoomed ? ' zoomed' : '');
  boardEl.setAttribute('aria-label', `Board, ${rows} rows by ${cols} columns, ${game.k} in a row wins; columns a to ${LETTERS[cols - 1]} from the left, rows 1 to ${rows} from the bottom`);
  columnScoresEl.textContent = '';
  const stars = starPoints(rows, cols);
  buttons = [];
  const label = (text, cls) => {
    const s = document.createElement('span');
    s.className = `coord ${cls}`;
    s.setAttribute('aria-hidden', 'true');
    s.textContent = text;
    boardEl.appendChild(s);
  };
  for (let r = 0; r < rows; r++) {
    label(String(rows - r), 'row-label');
    for (let c = 0; c < cols; c++) {
      const i = r * cols + c;
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'cell';
      if (r === 0) b.classList.add('edge-t');
      if (r === rows - 1) b.classList.add('edge-b');
      if (c === 0) b.classList.add('edge-l');
      if (c === cols - 1) b.classList.add('edge-r');
      if (stars.has(i)) b.classList.add('star');
      b.dataset.index = String(i);
      b.dataset.row = String(r + 1);
      b.dataset.col = String(c + 1);
      b.dataset.coordinate = coordinate(i);
      b.tabIndex = -1;
      boardEl.appendChild(b);
      buttons.push(b);
    }
  }
  label('', 'corner');
  for (let c = 0; c < cols; c++) label(LETTERS[c], 'col-label');
  focusIndex = Math.floor(rows / 2) * cols + Math.floor(cols / 2);
  boardTools.hidden = false;
  updateZoom();
}

// The zoom toggle is offered when an intersection is smaller than a fingertip target (a 20 x 20
// board on a phone) or while zoomed; zoomed, the board scrolls inside its frame.
export function updateZoom() {
  if (!game.goban) { boardTools.hidden = true; return; }
  boardEl.classList.toggle('zoomed', game.zoomed);
  boardScroll.classList.toggle('zoomed', game.zoomed);
  zoomBtn.setAttribute('aria-pressed', String(game.zoomed));
  zoomBtn.textContent = game.zoomed ? 'Zoom out: whole board' : 'Zoom in: larger points';
  const size = buttons.length ? buttons[0].getBoundingClientRect().width : 0;
  boardTools.hidden = !game.zoomed && size >= MIN_TARGET_PX;
}

export function toggleZoom() {
  game.zoomed = !game.zoomed;
  updateZoom();
  // Keep the point in focus (or the last move) in view inside the frame.
  const at = buttons[game.last !== null ? game.last : focusIndex];
  if (game.zoomed && at) at.scrollIntoView({ block: 'center', inline: 'center' });
  if (!game.zoomed) boardScroll.scrollTo(0, 0);
}

// The best few moves of the analysis as the server ranks them (`top`: searched moves only, best
// first, ties in the engine's order of preference), each with its heat level from 1 (coolest)
// to 5 (the best score). A move the search did not reach is never shaded.
export function topMoves() {
  const moves = (game.analysis.top || [])
    .filter((m) => m.searched !== false && game.cells[m.index] === null).slice(0, TOP_MOVES);
  if (moves.length === 0) return [];
  const hi = moves[0].score, lo = moves[moves.length - 1].score;
  return moves.map((m, rank) => ({ ...m, rank: rank + 1, heat: hi === lo ? 5 : 1 + Math.round((4 * (m.score - lo)) / (hi - lo)) }));
}

// The principal variation of the analysis: the cells of the expected line, from the mover's move.
export function principalVariation() {
  const pv = (game.analysis && game.analysis.pv) || [];
  const seen = new Set();
  return pv.filter((i) => Number.isInteger(i) && game.cells[i] === null && !seen.has(i) && seen.add(i));
}

export function forbiddenHere() {
  const f = game.forbidden;
  return f && f.key === positionKey(game.cells) ? f.cells : new Map();
}

// Draws the position in `game.cells`. `o`: {playable, editing, showScores, winning: Set, mover,
// bestReply (a cell or null), numbers (Map cell -> move number, or null)}.
export function renderBoard(o) {
  boardEl.dataset.state = o.over ? (game.result && game.result.winner ? 'win' : 'draw') : 'in_play';
  boardEl.classList.toggle('editing', o.editing);
  const table = new Map();
  let best = null;
  if (o.showScores) {
    for (const m of game.analysis.moves) {
      table.set(m.index, m);
      if (best === null || m.score > best) best = m.score;
    }
  }
  const allEqual = table.size > 0 && [...table.values()].every((m) => m.score === best);
  if (game.goban) renderGoban(o);
  else renderCells(o, table, best, allEqual);
  renderColumnScores(o.showScores ? table : null, best, allEqual, o.mover);
  if (game.gravity && !game.goban) showColumn(hoverColumn);
  updateTabStop();
  renderTopMoves(o.showScores, o.mover);
}

function renderCells(o, table, best, allEqual) {
  const { cols } = game;
  buttons.forEach((b, i) => {
    const mark = game.cells[i];
    const r = Math.floor(i / cols) + 1, c = (i % cols) + 1;
    b.setAttribute('aria-label', named() ? `${coordinate(i)}, ${mark || 'empty'}` : `Row ${r}, column ${c}, ${mark || 'empty'}`);
    // Never the `disabled` attribute: a taken cell stays focusable and is read out, it just
    // does nothing when pressed (see the click handler).
    const closed = game.gravity ? game.cells[i % cols] !== null : !!mark;
    b.setAttribute('aria-disabled', String(o.editing ? false : closed || !o.playable));
    b.classList.toggle('win', o.winning.has(i));
    b.classList.toggle('last', game.last === i && !o.winning.has(i));
    b.classList.toggle('best-reply', o.bestReply === i);
    const entry = mark ? null : table.get(i);
    b.classList.toggle('best', !!entry && entry.score === best && !allEqual);
    if (mark) {
      b.dataset.mark = mark;
      delete b.dataset.score;
      b.removeAttribute('title');
      const note = o.winning.has(i) ? 'in the winning line' : game.last === i ? 'the last move' : '';
      if (note) b.setAttribute('aria-description', note);
      else b.removeAttribute('aria-description');
      if (b.textContent !== mark || b.querySelector('.hint')) {
        b.textContent = '';
        const span = document.createElement('span');
        span.className = 'mark';
        if (game.gravity) {
          // A disc with its letter, dropping in when it is the newest.
          const letter = document.createElement('span');
          letter.textContent = mark;
          span.appendChild(letter);
          span.classList.toggle('drop', game.last === i);
        } else {
          span.textContent = mark;
        }
        b.appendChild(span);
      }
    } else {
      delete b.dataset.mark;
      b.textContent = '';
      if (entry) {
        const span = document.createElement('span');
        span.className = 'score ' + entry.outcome;
        span.textContent = game.gravity ? gravityScore(entry) : formatScore(entry);
        b.appendChild(span);
        b.dataset.score = String(entry.score);
        const d = describeScore(entry, o.mover);
        b.title = d;
        b.setAttribute('aria-description', d);
      } else {
        delete b.dataset.score;
        b.removeAttribute('title');
        if (o.bestReply === i) b.setAttribute('aria-description', 'the best move here, by the review');
        else b.removeAttribute('aria-description');
      }
      if (o.bestReply === i && !entry) {
        const hint = document.createElement('span');
        hint.className = 'hint';
        hint.setAttribute('aria-hidden', 'true');
        hint.textContent = '\u2605';
        b.appendChild(hint);
      }
    }
  });
}

function renderGoban(o) {
  const heat = new Map(o.showScores ? topMoves().map((m) => [m.index, m]) : []);
  const pv = o.showScores ? principalVariation() : [];
  const pvAt = new Map(pv.map((i, n) => [i, n + 1]));
  const forbidden = forbiddenHere();
  const side = toMove(game.cells);
  buttons.forEach((b, i) => {
    const mark = game.cells[i];
    const foul = !mark && side === 'X' && !o.over && !o.editing ? forbidden.get(i) : undefined;
    const entry = mark ? null : heat.get(i);
    const step = mark ? undefined : pvAt.get(i);
    const number = mark && o.numbers ? o.numbers.get(i) : undefined;
    const notes = [];
    if (o.winning.has(i)) notes.push('in the winning line');
    else if (game.last === i) notes.push('the last move');
    if (number) notes.push(`move ${number}`);
    if (foul) notes.push(`forbidden to X (black): ${FOUL_TEXT[foul] || foul}`);
    if (entry) notes.push(`best move ${entry.rank} of ${heat.size}, ${describeScore(entry, o.mover)}`);
    if (step) notes.push(`move ${step} of the expected line, ${step % 2 ? o.mover : other(o.mover)} to play`);
    if (o.bestReply === i && !mark) notes.push('the best move here, by the review');
    b.setAttribute('aria-label', `${coordinate(i)}, ${mark || 'empty'}`);
    b.setAttribute('aria-disabled', String(o.editing ? false : !!mark || !!foul || !o.playable));
    b.classList.toggle('win', o.winning.has(i));
    b.classList.toggle('last', game.last === i);
    b.classList.toggle('forbidden', !!foul);
    b.classList.toggle('best', !!entry && entry.rank === 1);
    b.classList.toggle('best-reply', o.bestReply === i && !mark);
    if (entry) { b.dataset.score = String(entry.score); b.dataset.heat = String(entry.heat); } else { delete b.dataset.score; delete b.dataset.heat; }
    if (step) b.dataset.pv = String(step); else delete b.dataset.pv;
    if (foul) b.dataset.forbidden = foul; else delete b.dataset.forbidden;
    if (mark) b.dataset.mark = mark; else delete b.dataset.mark;
    if (number) b.dataset.number = String(number); else delete b.dataset.number;
    if (notes.length) { b.setAttribute('aria-description', notes.join('; ')); b.title = `${coordinate(i)}: ${notes.join('; ')}`; } else { b.removeAttribute('aria-description'); b.removeAttribute('title'); }
    b.textContent = '';
    const part = (cls, text) => {
      const span = document.createElement('span');
      span.className = cls;
      if (text) span.textContent = text;
      b.appendChild(span);
      return span;
    };
    if (mark) {
      const stone = part(`stone ${mark === 'X' ? 'black' : 'white'}`);
      if (number) { stone.classList.add('numbered'); stone.textContent = String(number); }
    }
    if (entry) part(`heat heat-${entry.heat}`);
    if (foul) part('foul', '\u00d7');
    // The expected line: small numbered rings, never filled like a stone.
    if (step) part(`pv ${(step % 2 ? o.mover : other(o.mover)) === 'X' ? 'black' : 'white'}`, String(step));
    if (o.bestReply === i && !mark) part('hint', '\u2605');
  });
}

// The list of the best moves and the expected line, in words (coordinates), beside the heat map.
function renderTopMoves(showScores, mover) {
  const list = $('top-moves-list');
  list.textContent = '';
  topMovesEl.hidden = !(game.goban && showScores);
  if (topMovesEl.hidden) { $('pv-text').textContent = ''; return; }
  for (const m of topMoves()) {
    const li = document.createElement('li');
    li.dataset.index = String(m.index);
    li.textContent = `${coordinate(m.index)}: ${describeScore(m, mover)}`;
    list.appendChild(li);
  }
  const pv = principalVariation();
  $('pv-text').textContent = pv.length
    ? `Expected line, numbered on the board in rings: ${pv.map((i, n) => `${n + 1}. ${n % 2 ? other(mover) : mover} ${coordinate(i)}`).join(', ')}.`
    : '';
}

// Connect Four: each column's score above it (the move of dropping a mark there).
function renderColumnScores(table, best, allEqual, mover) {
  columnScoresEl.hidden = !game.gravity || !table;
  scoreKindEl.hidden = columnScoresEl.hidden;
  if (columnScoresEl.hidden) return;
  $('column-score-caption').textContent = $('moves-to-end').checked
    ? 'Moves to the end with best play: +n wins on the nth move from here (this one included), -n loses, 0 draws.'
    : 'Pons\' scores, as connect4.gamesolver.org: positive wins (the sooner, the larger), negative loses, 0 draws.';
  [...columnScoresEl.children].forEach((s, c) => {
    const i = landing(game.cells, c, game);
    const entry = i === null ? null : table.get(i);
    s.className = entry ? entry.outcome : 'full';
    s.classList.toggle('best', !!entry && entry.score === best && !allEqual);
    s.textContent = entry ? gravityScore(entry) : '\u2013';
    if (entry) s.dataset.score = String(entry.score);
    else delete s.dataset.score;
    const what = entry ? describeScore(entry, mover) : 'full';
    s.title = `Column ${c + 1}: ${what}`;
    s.setAttribute('aria-label', `Column ${c + 1}: ${what}`);
  });
}

// The move numbers of the stones shown: cell -> its move's number (set-up stones have none).
export function moveNumbers() {
  const numbers = new Map();
  game.moves.slice(0, game.view).forEach((cell, n) => numbers.set(cell, n + 1));
  return numbers;
}

// ---------------------------------------------------------------- keyboard

// Every cell is reachable, taken or not: a screen reader user explores the board with the arrow
// keys and hears each cell's contents. The board has one tab stop (roving tabindex).
export const isOpen = (b) => b.getAttribute('aria-disabled') !== 'true';

function updateTabStop() {
  if (!buttons[focusIndex]) focusIndex = 0;
  buttons.forEach((b, i) => { b.tabIndex = i === focusIndex ? 0 : -1; });
}

// The open cell nearest to `from` (by rows plus columns), or `from` itself when none is open.
export function nearestOpen(from) {
  const { cols } = game;
  const r0 = Math.floor(from / cols), c0 = from % cols;
  let bestI = -1, bestD = Infinity;
  buttons.forEach((b, i) => {
    if (!isOpen(b)) return;
    const d = Math.abs(Math.floor(i / cols) - r0) + Math.abs((i % cols) - c0);
    if (d < bestD) { bestD = d; bestI = i; }
  });
  return bestI < 0 ? from : bestI;
}

export function moveFocus(to) {
  if (!buttons[to]) return;
  focusIndex = to;
  updateTabStop();
  buttons[to].focus();
}

boardEl.addEventListener('keydown', (e) => {
  const t = e.target.closest('.cell');
  if (!t) return;
  const i = Number(t.dataset.index);
  const { rows, cols } = game;
  const r = Math.floor(i / cols), c = i % cols;
  let to;
  switch (e.key) {
    case 'ArrowRight': to = c + 1 < cols ? i + 1 : i; break;
    case 'ArrowLeft': to = c > 0 ? i - 1 : i; break;
    case 'ArrowDown': to = r + 1 < rows ? i + cols : i; break;
    case 'ArrowUp': to = r > 0 ? i - cols : i; break;
    case 'Home': to = e.ctrlKey ? 0 : r * cols; break;
    case 'End': to = e.ctrlKey ? buttons.length - 1 : r * cols + cols - 1; break;
    default: return;
  }
  e.preventDefault();
  moveFocus(to);
});

// Connect Four: the column under the pointer lights up, with a ghost disc where a mark would land.
export function showColumn(column) {
  hoverColumn = column;
  const target = column === null || game.phase !== 'human' ? null : landing(game.cells, column, game);
  const mark = toMove(game.cells);
  buttons.forEach((b, i) => {
    b.classList.toggle('column-hover', target !== null && i % game.cols === column);
    b.classList.toggle('ghost', i === target);
    if (i === target) b.dataset.ghost = mark;
    else delete b.dataset.ghost;
  });
}
boardEl.addEventListener('pointerover', (e) => {
  const t = e.target.closest('.cell');
  if (game.gravity && t) showColumn(Number(t.dataset.index) % game.cols);
});
boardEl.addEventListener('pointerleave', () => { if (game.gravity) showColumn(null); });

