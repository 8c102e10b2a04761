// The game page: the controller. It keeps no copy of the rules: the server says what is legal and
// who won (POST /v1/play for every move, POST /v1/status for a set-up position), the AI's moves
// come from POST /v1/move, and the review from POST /v1/review.
//
// Modules: api.js (the one request helper), state.js (the state and how cells are named),
// board.js (the board views), review.js (the review chart), analysis.js (variations and set-up
// positions), notation.js and records.js (move strings, the address, PSQ and text records).
import { request, Slot, isAbort } from './api.js';
import {
  $, game, other, variant, isHuman, atEnd, toMove, markOf, cellsAt, wireBoard, positionKey, geometry,
  coordinate, named, columnName, cellName, shortName, stoneName, valueText,
} from './state.js';
import {
  TOP_MOVES, FOUL_TEXT, buildBoard, renderBoard, updateZoom, toggleZoom, forbiddenHere, moveNumbers,
  cellButtons, isOpen, moveFocus, nearestOpen, focusedCell, setFocusedCell,
} from './board.js';
import { drawChart, drawLegend } from './review.js';
import {
  NotationError, parseVariant, variantName, takesRule, rulesFor, formatMoves, toQuery, fromQuery, landing,
  coordinate as coordinateOf,
} from './notation.js';
import { parseAny, toPsq, toRecord } from './records.js';
import {
  branch as startBranch, leaveVariation as restoreGame, setupCells, startSetup, endSetup, cycleCell, clearSetup,
} from './analysis.js';

const boardEl = $('board');
const statusEl = $('status');
const explanationEl = $('explanation');
const errorEl = $('error');
const errorText = $('error-text');
const noteEl = $('analysis-note');
const sizeSel = $('size');
const sideSel = $('side');
const diffSel = $('difficulty');
const timeSel = $('time-limit');
const analysisBox = $('analysis');
const numbersBox = $('move-numbers');
const ruleSel = $('rule');
const undoBtn = $('undo');
const editBtn = $('edit');
const liveEl = $('live');
const liveText = $('live-text');
const reviewEl = $('review');
const reviewChart = $('review-chart');
const shareMessage = $('share-message');

// One slot a kind of request: a newer request of the same kind aborts the older one.
const moveSlot = new Slot();      // the AI's move
const playSlot = new Slot();      // the human's move, checked by POST /v1/play
const analysisSlot = new Slot();  // the move table of the analysis view
const forbiddenSlot = new Slot(); // renju: the points black may not play
const reviewSlot = new Slot();    // POST /v1/review
const checkSlot = new Slot();     // loading a game or checking a set-up position

let forbiddenKey = null;          // the position the forbidden request in flight is for

function abortRequests() {
  moveSlot.abort();
  playSlot.abort();
  analysisSlot.abort();
  forbiddenSlot.abort();
  forbiddenKey = null;
}

const bigBoard = () => game.rows !== 3 || game.cols !== 3 || game.k !== 3;
// The search budget on boards larger than 3 x 3: the player's choice.
const searchLimits = () => (bigBoard() ? { time_limit_ms: Number(timeSel.value) } : {});
// Connect Four's column scores are asked for with the longest time limit the server allows
// (it caps the request's at its own): with the opening book every 7 x 6 position is proven
// well within it, so the analysis shows proven scores, not estimates. The AI's own move keeps
// the player's choice.
const CONNECT_FOUR_ANALYSIS_MS = 10000;
const connectFour = () => game.gravity && game.rows === 6 && game.cols === 7 && game.k === 4;
const analysisLimits = () => (connectFour() ? { time_limit_ms: CONNECT_FOUR_ANALYSIS_MS } : searchLimits());
const errorMessage = (err) => (err && err.message ? err.message : String(err));

// ---------------------------------------------------------------- rendering

function winningCells() {
  return new Set(atEnd() && game.result ? game.result.line : []);
}

// The review's word on the move shown (the last move on the board), when there is one.
function reviewedMove() {
  if (!game.review || game.phase === 'edit' || game.view === 0) return null;
  return game.review.moves[game.view - 1] || null;
}

function render() {
  document.body.dataset.phase = game.phase;
  document.body.dataset.side = game.side;
  boardEl.setAttribute('aria-busy', game.phase === 'ai' || game.phase === 'playing' ? 'true' : 'false');
  const mover = toMove(game.cells);
  const playable = game.phase === 'human';
  const showScores = analysisBox.checked && (playable || game.phase === 'viewing') && game.analysis && game.analysis.key === positionKey(game.cells);
  const reviewed = reviewedMove();
  const bestReply = reviewed && reviewed.label !== 'best' && Number.isInteger(reviewed.best[0]) && game.cells[reviewed.best[0]] === null ? reviewed.best[0] : null;
  renderBoard({
    playable,
    editing: game.phase === 'edit',
    over: game.phase === 'over',
    showScores,
    winning: winningCells(),
    mover,
    bestReply,
    numbers: numbersBox.checked && game.goban ? moveNumbers() : null,
  });
  undoBtn.disabled = !game.moves.some((_, i) => isHuman(markOf(i + 1))) || game.phase === 'ai' || game.phase === 'edit';
  editBtn.setAttribute('aria-pressed', String(game.phase === 'edit'));
  statusEl.textContent = statusText();
  renderNote(showScores, mover);
  renderSteps();
  renderMoveList();
  renderReviewCaption(reviewed);
  renderVariation();
}

function statusText() {
  const ai = game.side === 'both' ? null : other(game.side);
  const mover = toMove(game.cells);
  const where = atEnd() ? '' : `Move ${game.view} of ${game.moves.length}: `;
  switch (game.phase) {
    case 'human':
      if (!atEnd()) return `${where}${game.goban ? stoneName(mover) : mover} to move; play a move to try a variation.`;
      if (game.side === 'both') return `${game.goban ? stoneName(mover) : mover} to move: you play both sides.`;
      return game.goban ? `Your turn: you play ${stoneName(game.side)}.` : `Your turn: you play ${game.side}.`;
    case 'viewing': return `${where}${mover} (the AI) to move here. Step on, or choose "Both sides" to try a move.`;
    case 'ai': return `The AI (${ai}) is thinking\u2026`;
    case 'playing': return `${mover === 'X' ? 'O' : 'X'} plays ${shortName(game.last)}\u2026`;
    case 'edit': return `Setting up a position: ${toMove(game.cells)} would move next.`;
    case 'error': return `The AI (${ai}) could not move. Try again, undo, or start a new game.`;
    case 'over': {
      const w = game.result && game.result.winner;
      if (!w) return game.cells.every(Boolean) ? 'Draw: the board is full and nobody completed a line.' : 'Draw: nobody can complete a line any more.';
      if (game.side === 'both') return `${w} wins.`;
      return w === game.side ? `${w} wins: you beat the AI!` : `${w} wins: the AI beat you.`;
    }
    default: return 'Loading\u2026';
  }
}

function renderNote(showScores, mover) {
  if (!analysisBox.checked) { noteEl.hidden = true; noteEl.textContent = ''; return; }
  noteEl.hidden = false;
  if (game.phase === 'over') {
    noteEl.textContent = 'The game is over: step back through it (Prev, or the Left arrow key) to see the scores of an earlier position.';
  } else if (game.phase === 'edit') {
    noteEl.textContent = 'Move scores appear once the position is set up.';
  } else if (game.phase !== 'human' && game.phase !== 'viewing') {
    noteEl.textContent = 'Move scores appear here when it is your move.';
  } else if (!showScores) {
    noteEl.textContent = 'Scoring the moves\u2026';
  } else if (game.goban) {
    noteEl.textContent = `The ${TOP_MOVES} best moves for ${mover} are shaded on the board, the darker the better, and the expected line of play is numbered in rings from 1` +
      (game.analysis.moves.some((m) => !m.exact) ? ' (estimates from a time-limited search).' : '.');
  } else if (game.analysis.moves.some((m) => !m.exact)) {
    noteEl.textContent = `Scores for ${mover}'s moves are estimates from a time-limited search (between -1 and 1; higher is better for ${mover}).`;
  } else if (game.gravity) {
    noteEl.textContent = `Scores for ${mover}'s columns with best play, in the form the caption above the board names. Green wins, red loses.`;
  } else {
    const w = game.rows * game.cols + 1;
    noteEl.textContent = `Scores for ${mover}'s moves with best play: ${w} minus the plies to a win, 0 for a draw, the plies minus ${w} for a loss (a ply is one move by either side, this one included). Green wins, red loses.`;
  }
}

function renderSteps() {
  const n = game.moves.length;
  const busy = game.phase === 'edit' || game.phase === 'playing';
  $('step-first').disabled = busy || game.view === 0;
  $('step-prev').disabled = busy || game.view === 0;
  $('step-next').disabled = busy || game.view >= n;
  $('step-last').disabled = busy || game.view >= n;
  $('step-text').textContent = n === 0 ? 'No moves yet' : game.view === 0 ? `Start of ${n} moves` : `Move ${game.view} of ${n}`;
}

function renderMoveList() {
  const list = $('move-list');
  const labels = game.review ? game.review.moves.map((m) => m.label) : [];
  const key = `${game.moves.join(',')}|${game.view}|${labels.join(',')}|${game.gravity}${game.goban}`;
  if (list.dataset.key === key) return;
  list.dataset.key = key;
  list.textContent = '';
  $('move-list-empty').hidden = game.moves.length > 0;
  $('review-now').hidden = game.moves.length === 0 || game.start.some(Boolean);
  game.moves.forEach((cell, i) => {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'move';
    b.dataset.number = String(i + 1);
    const label = labels[i];
    b.textContent = `${i + 1}. ${markOf(i + 1)} ${shortName(cell)}`;
    if (label) {
      b.dataset.label = label;
      const tag = document.createElement('span');
      tag.className = `tag ${label}`;
      tag.textContent = label;
      b.appendChild(tag);
    }
    if (i + 1 === game.view) b.setAttribute('aria-current', 'step');
    li.appendChild(b);
    list.appendChild(li);
  });
}

function renderReviewCaption(m) {
  const detail = $('review-detail');
  if (!m) { detail.hidden = true; $('review-caption').textContent = ''; }
  else {
    const best = m.best[0];
    const better = m.label === 'best' ? 'the best move' : `best was ${cellName(best)} (${valueText(m.best_score, m.best_outcome)}), starred on the board`;
    $('review-caption').textContent = `Move ${m.number}: ${m.player} played ${cellName(m.cell)}, ${m.label} (${valueText(m.score, m.outcome)}); ${better}.`;
    detail.hidden = false;
  }
  if (game.review) {
    for (const c of reviewChart.querySelectorAll('.point')) c.classList.toggle('selected', Number(c.dataset.number) === game.view);
  }
}

function renderVariation() {
  const bar = $('variation');
  bar.hidden = !game.main;
  if (game.main) {
    $('variation-text').textContent = `A variation from move ${game.variationFrom} (the game has ${game.main.moves.length} moves): ${formatMoves(game.moves.slice(game.variationFrom), variant()) || 'no move yet'}.`;
  }
}

// ---------------------------------------------------------------- the address

function currentGame() {
  return { variant: variant(), rule: game.rule, side: game.side, setup: game.start, moves: game.moves };
}

function syncAddress() {
  if (game.phase === 'edit' || game.phase === 'loading') return;
  // A fresh default game keeps the bare address.
  const pristine = game.moves.length === 0 && !game.start.some(Boolean) && variantName(variant()) === '3x3x3' && game.side === 'X';
  const query = pristine ? '' : toQuery(currentGame());
  const url = `${location.pathname}${query ? `?${query}` : ''}`;
  if (url !== `${location.pathname}${location.search}` || location.hash) history.replaceState(null, '', url);
  $('share-text').value = location.href;
}

// ---------------------------------------------------------------- the position on the board

// Shows move `game.view` of the line and decides what happens next: the human's turn, the AI's,
// or a position to look at.
function update({ autoplay = true } = {}) {
  game.cells = game.phase === 'edit' ? setupCells() : cellsAt(game.view);
  game.last = game.phase === 'edit' || game.view === 0 ? null : game.moves[game.view - 1];
  if (game.phase === 'edit') { render(); return; }
  const mover = toMove(game.cells);
  if (atEnd() && game.result) game.phase = 'over';
  else if (isHuman(mover)) game.phase = 'human';
  else if (atEnd() && autoplay) { syncAddress(); aiMove(false); return; }
  else game.phase = 'viewing';
  render();
  syncAddress();
  syncForbidden();
  refreshAnalysis();
}

function goTo(n) {
  if (game.phase === 'edit' || game.phase === 'playing') return;
  const to = Math.max(0, Math.min(game.moves.length, n));
  if (to === game.view && game.phase !== 'error') return;
  abortRequests();
  clearError();
  hideLive();
  game.view = to;
  explanationEl.textContent = '';
  // Stepping does not make the AI move; reaching the end of a line it is to move in does.
  update({ autoplay: to === game.moves.length });
}

// A move at an earlier position starts a variation (analysis.js), and the review no longer
// matches the line shown.
function branch() {
  if (startBranch()) hideReview();
}

function leaveVariation() {
  if (!game.main) return;
  abortRequests();
  clearError();
  hideLive();
  const at = restoreGame();
  hideReview();
  if (game.result && game.start.every((c) => !c)) reviewGame();
  game.view = at;
  explanationEl.textContent = '';
  update({ autoplay: false });
}

// ---------------------------------------------------------------- renju's forbidden points

// The points black (X) may not play, from POST /v1/status, for the position on the board while X
// is to move. Without an answer the marks stay off; the move itself is the server's to judge.
function syncForbidden() {
  const key = positionKey(game.cells);
  const needed = game.rule === 'renju' && game.phase !== 'over' && game.phase !== 'edit' && toMove(game.cells) === 'X';
  if (!needed || (game.forbidden && game.forbidden.key === key) || forbiddenKey === key) return;
  const controller = forbiddenSlot.start();
  forbiddenKey = key;
  request('/v1/status', { board: wireBoard(game.cells), ...geometry(), player: 'X' }, controller).then((data) => {
    if (!forbiddenSlot.take(controller)) return;
    forbiddenKey = null;
    const reasons = new Map((data.forbidden_detail || []).map((f) => [f.index, f.reason]));
    game.forbidden = { key, cells: new Map((data.forbidden || []).map((i) => [i, reasons.get(i) || 'forbidden'])) };
    render();
  }).catch(() => {
    if (!forbiddenSlot.take(controller)) return;
    forbiddenKey = null;
    game.forbidden = { key, cells: new Map() };
  });
}

function explainForbidden(index, reason) {
  const foul = reason || forbiddenHere().get(index);
  explanationEl.textContent = `${coordinate(index)} is forbidden to X (black) under renju: ${FOUL_TEXT[foul] || foul}. Choose another point.`;
}

// ---------------------------------------------------------------- moves

// A move by a human at the position shown; the server judges it (POST /v1/play).
async function humanMove(index) {
  if (game.phase !== 'human' || game.cells[index] !== null) return;
  if (forbiddenHere().has(index)) { explainForbidden(index); return; }
  const boardHadFocus = boardEl.contains(document.activeElement);
  clearError();
  abortRequests();
  const before = game.cells.slice();
  const mark = toMove(before);
  const saved = { moves: game.moves, view: game.view, main: game.main, variationFrom: game.variationFrom, result: game.result, review: game.review };
  branch();
  game.moves = game.moves.concat([index]);
  game.view = game.moves.length;
  if (!saved.main && !game.main) hideReview();
  game.cells = cellsAt(game.view);
  game.last = index;
  setFocusedCell(index);
  game.phase = 'playing';
  render();
  const controller = playSlot.start();
  try {
    const answer = await request('/v1/play', { board: wireBoard(before), index, player: mark, ...geometry() }, controller);
    if (!playSlot.take(controller)) return;
    const status = answer.status || {};
    const move = game.gravity ? `drops in ${columnName(index)}` : named() ? `plays ${coordinate(index)}` : `takes ${index}`;
    if (status.state === 'win' || status.state === 'draw') {
      explanationEl.textContent = status.state === 'win' ? `${mark} ${move} and completes a line.` : `${mark} ${move}: nobody can win any more.`;
      finish({ winner: status.state === 'win' ? status.winner : null, line: status.line || [] });
      return;
    }
    explanationEl.textContent = game.side === 'both' ? `${mark} ${move}.` : '';
    update();
    if (game.phase === 'human' && boardHadFocus) moveFocus(nearestOpen(focusedCell()));
  } catch (err) {
    if (!playSlot.take(controller)) return;
    // The server refused the move: the board goes back to what it was.
    Object.assign(game, saved);
    game.phase = 'human';
    const p = err.problem || {};
    update({ autoplay: false });
    if (p.code === 'forbidden_move') explainForbidden(index, p.reason);
    else if (!isAbort(err)) showError(`That move was not played: ${errorMessage(err)}`, null);
  }
}

async function aiMove(restoreFocus) {
  abortRequests();
  const controller = moveSlot.start();
  game.phase = 'ai';
  render();
  syncForbidden();
  const ai = toMove(game.cells);
  const live = bigBoard() && !game.gravity;
  try {
    const answer = await request('/v1/move', {
      board: wireBoard(game.cells), player: ai, difficulty: diffSel.value, ...geometry(), ...searchLimits(),
    }, controller, { onProgress: live ? (p) => { if (moveSlot.owns(controller)) showProgress(p); } : null });
    if (!moveSlot.take(controller)) return;
    if (typeof answer.index !== 'number') throw new Error('The server sent an answer this page does not understand.');
    if (game.cells[answer.index] !== null) throw new Error(`The server suggested cell ${answer.index}, which is taken.`);
    game.moves = game.moves.concat([answer.index]);
    game.view = game.moves.length;
    explanationEl.textContent = explain(answer, ai);
    const status = answer.status || {};
    if (status.state === 'win' || status.state === 'draw') {
      game.cells = cellsAt(game.view);
      game.last = answer.index;
      finish({ winner: status.state === 'win' ? status.winner : null, line: status.line || [] });
      return;
    }
    update();
    if (game.phase === 'human' && (restoreFocus || boardEl.contains(document.activeElement))) moveFocus(nearestOpen(focusedCell()));
  } catch (err) {
    if (!moveSlot.take(controller)) return;
    if (err && err.problem && err.problem.code === 'game_over') {
      finish({ winner: err.problem.winner || null, line: err.problem.line || [] });
      return;
    }
    game.phase = 'error';
    render();
    showError(errorMessage(err), () => aiMove(restoreFocus));
  }
}

// The AI's sentence. On a goban the server names points by coordinate; an answer without
// `coordinate` (an older server) has its move's index replaced by the coordinate here.
function explain(answer, ai) {
  if (!named()) return answer.explanation || `${ai} takes ${answer.index}.`;
  const name = answer.coordinate || coordinate(answer.index);
  if (!answer.explanation) return `${ai} plays ${name}.`;
  if (answer.coordinate) return answer.explanation;
  return answer.explanation.replace(new RegExp(`\\b(at|plays|takes|on) ${answer.index}\\b`, 'g'), `$1 ${name}`);
}

function finish(result) {
  abortRequests();
  game.result = result;
  game.view = game.moves.length;
  game.cells = cellsAt(game.view);
  game.last = game.view ? game.moves[game.view - 1] : null;
  game.phase = 'over';
  render();
  syncAddress();
  if (game.start.every((c) => !c)) reviewGame();
}

// ---------------------------------------------------------------- live search and review

function showProgress(p) {
  liveEl.hidden = false;
  liveText.textContent = `Depth ${p.depth}: best ${cellName(p.index)}, ${valueText(p.score, p.outcome)}; ` +
    `${p.nodes.toLocaleString('en')} nodes in ${p.elapsed_ms} ms; line ${p.pv.map(shortName).join(' ')}`;
}

function hideLive() {
  liveEl.hidden = true;
  liveText.textContent = '';
}

function hideReview() {
  reviewSlot.abort();
  game.review = null;
  reviewEl.hidden = true;
  reviewChart.textContent = '';
  $('review-detail').hidden = true;
  $('review-sentence').textContent = '';
}

async function reviewGame() {
  reviewSlot.abort();
  if (game.moves.length === 0) return;
  const controller = reviewSlot.start();
  const body = { moves: game.moves.slice(), ...geometry() };
  if (game.first !== 'X') body.first = game.first;
  reviewEl.hidden = false;
  $('review-sentence').textContent = 'Reviewing the game\u2026';
  try {
    const data = await request('/v1/review', body, controller);
    if (!reviewSlot.take(controller)) return;
    game.review = data;
    $('review-sentence').textContent = data.sentence;
    drawReview();
    render();
  } catch (err) {
    if (!reviewSlot.take(controller)) return;
    $('review-sentence').textContent = 'Could not review the game: ' + errorMessage(err);
  }
}

function drawReview() {
  if (!game.review || reviewEl.hidden) return;
  drawChart(reviewChart, game.review, shortName, game.view || null);
  drawLegend($('review-legend'));
}

// A click or Enter on a point of the chart goes to the position after that move, with the best
// move there starred.
function pickPoint(e) {
  const point = e.target.closest('.point');
  if (!point) return;
  if (e.type === 'keydown') {
    if (e.key !== 'Enter' && e.key !== ' ') return;
    e.preventDefault();
  }
  goTo(Number(point.dataset.number));
  drawReview();
  const again = reviewChart.querySelector(`.point[data-number="${point.dataset.number}"]`);
  if (again && e.type === 'keydown') again.focus();
}
reviewChart.addEventListener('click', pickPoint);
reviewChart.addEventListener('keydown', pickPoint);

// Scores for every legal move of the side to move, for the analysis view.
async function refreshAnalysis() {
  if (!analysisBox.checked || (game.phase !== 'human' && game.phase !== 'viewing')) { render(); return; }
  const key = positionKey(game.cells);
  if (game.analysis && game.analysis.key === key) { render(); return; }
  const controller = analysisSlot.start();
  render();
  try {
    const answer = await request('/v1/move', {
      board: wireBoard(game.cells), player: toMove(game.cells), difficulty: 'perfect', moves: true, top: TOP_MOVES,
      ...geometry(), ...analysisLimits(),
    }, controller);
    if (!analysisSlot.take(controller)) return;
    game.analysis = { key, moves: answer.moves || [], top: answer.top || [], pv: Array.isArray(answer.pv) ? answer.pv : [answer.index] };
    render();
  } catch (err) {
    if (!analysisSlot.take(controller)) return;
    showError('Could not score the moves: ' + errorMessage(err), () => { clearError(); refreshAnalysis(); });
  }
}

// ---------------------------------------------------------------- errors

function showError(message, retry) {
  errorText.textContent = message;
  errorEl.hidden = false;
  game.retry = retry || null;
  $('retry').hidden = !retry;
}

function clearError() {
  errorEl.hidden = true;
  errorText.textContent = '';
  game.retry = null;
}

// ---------------------------------------------------------------- settings and new games

// The board, rule and side selectors set to a game's; the board rebuilt when its shape changed.
function applyVariant(g, rule, side) {
  const name = variantName(g);
  const resized = g.rows !== game.rows || g.cols !== game.cols || g.k !== game.k || g.gravity !== game.gravity || cellButtons().length === 0;
  if (sizeSel.value !== name) sizeSel.value = name;
  if (resized) timeSel.value = g.gravity ? '3000' : '800';
  offerRules(g);
  if (rulesFor(g).includes(rule)) ruleSel.value = rule;
  sideSel.value = side;
  Object.assign(game, g, {
    rule: takesRule(g) ? ruleSel.value : 'freestyle',
    goban: g.rows * g.cols >= 100 && !g.gravity,
    side,
  });
  ruleSel.closest('.rule-field').hidden = !takesRule(g);
  timeSel.closest('.time-field').hidden = !(g.rows !== 3 || g.cols !== 3 || g.k !== 3);
  numbersBox.closest('.numbers-toggle').hidden = !game.goban;
  if (resized) buildBoard();
}

// Rules are offered only where players use them: renju on 15 x 15 only.
function offerRules(g) {
  const allowed = rulesFor(g);
  for (const option of ruleSel.options) {
    const ok = allowed.includes(option.value);
    option.disabled = !ok;
    option.hidden = !ok;
  }
  if (!allowed.includes(ruleSel.value)) ruleSel.value = 'freestyle';
}

function resetLine(start, moves) {
  game.start = start;
  game.first = toMove(start);
  game.moves = moves;
  game.view = moves.length;
  game.main = null;
  game.variationFrom = null;
  game.result = null;
  game.analysis = null;
  game.forbidden = null;
  hideReview();
  hideLive();
  explanationEl.textContent = '';
}

function newGame() {
  abortRequests();
  checkSlot.abort();
  clearError();
  if (game.phase === 'edit') leaveEdit();
  const g = parseVariant(sizeSel.value);
  offerRules(g);
  applyVariant(g, ruleSel.value, sideSel.value);
  resetLine(new Array(g.rows * g.cols).fill(null), []);
  game.phase = 'human';
  update();
}

function undo() {
  if (undoBtn.disabled) return;
  abortRequests();
  clearError();
  // Back to the human's last move: the AI's reply goes with it.
  let moves = game.moves.slice();
  do { moves.pop(); } while (moves.length && game.side !== 'both' && !isHuman(markOf(moves.length + 1)));
  game.moves = moves;
  game.view = moves.length;
  game.result = null;
  hideReview();
  explanationEl.textContent = '';
  update();
}

// ---------------------------------------------------------------- loading games

// Loads a game read from a link, a record or a pasted string: the server replays it move by move
// (POST /v1/status for a set-up position, POST /v1/play for each move), so what it says is legal
// is what the page shows. Nothing changes when any of it is refused; the message says why.
async function loadGame(loaded, { source = 'text' } = {}) {
  const controller = checkSlot.start();
  const g = loaded.variant;
  const rule = loaded.rule;
  const geo = { rows: g.rows, cols: g.cols, k: g.k };
  if (g.gravity) geo.gravity = true;
  if (takesRule(g)) geo.rule = rule;
  const start = loaded.setup ? loaded.setup.slice() : new Array(g.rows * g.cols).fill(null);
  let result = null;
  try {
    if (loaded.setup) {
      const status = await request('/v1/status', { board: wireBoard(start), ...geo }, controller);
      if (status.status && status.status.state !== 'in_play' && loaded.moves.length) throw new Error('the set-up position is already over, so no move can follow it');
      if (status.status && status.status.state !== 'in_play') result = { winner: status.status.winner || null, line: status.status.line || [] };
    }
    const cells = start.slice();
    for (let n = 0; n < loaded.moves.length; n++) {
      const index = loaded.moves[n];
      const mark = toMove(cells);
      let answer;
      try {
        answer = await request('/v1/play', { board: wireBoard(cells), index, player: mark, ...geo }, controller);
      } catch (err) {
        if (isAbort(err)) throw err;
        const p = err.problem || {};
        const name = g.gravity ? `column ${(index % g.cols) + 1}` : coordinateOf(index, g);
        const why = p.code === 'game_over' ? `the game was already over after move ${n}` : p.detail || errorMessage(err);
        throw new Error(`move ${n + 1} (${mark} ${name}) is not legal: ${why}`);
      }
      cells[index] = mark;
      const s = answer.status || {};
      if (s.state === 'win' || s.state === 'draw') {
        if (n + 1 < loaded.moves.length) throw new Error(`the game is over after move ${n + 1}, but ${loaded.moves.length - n - 1} more follow`);
        result = { winner: s.state === 'win' ? s.winner : null, line: s.line || [] };
      }
    }
  } catch (err) {
    if (!checkSlot.take(controller) || isAbort(err)) return false;
    setShareMessage(`Could not load this ${source}: ${errorMessage(err)}`, true);
    return false;
  }
  if (!checkSlot.take(controller)) return false;
  abortRequests();
  clearError();
  if (game.phase === 'edit') leaveEdit();
  applyVariant(g, rule, loaded.side);
  resetLine(start, loaded.moves.slice());
  game.result = result;
  game.phase = 'loaded';
  update({ autoplay: true });
  if (result && !loaded.setup) reviewGame();
  return true;
}

function setShareMessage(text, isError = false) {
  shareMessage.textContent = text;
  shareMessage.classList.toggle('error', isError);
}

async function loadText(text, source) {
  let loaded;
  try {
    loaded = parseAny(text, { variant: variant(), rule: game.rule, side: game.side });
  } catch (err) {
    if (!(err instanceof NotationError)) throw err;
    setShareMessage(`Could not load this ${source}: ${err.message}.`, true);
    return false;
  }
  setShareMessage(`Loading ${loaded.moves.length} move${loaded.moves.length === 1 ? '' : 's'} (${loaded.format})\u2026`);
  const ok = await loadGame(loaded, { source });
  if (ok) setShareMessage(`Loaded ${loaded.moves.length} move${loaded.moves.length === 1 ? '' : 's'} on ${variantName(loaded.variant)} (${loaded.format}).`);
  return ok;
}

// ---------------------------------------------------------------- sharing and records

async function copyText(text, what) {
  try {
    await navigator.clipboard.writeText(text);
    setShareMessage(`${what} copied.`);
  } catch (_) {
    // Without clipboard access the text is selected for the user to copy.
    const input = $('share-text');
    input.value = text;
    input.focus();
    input.select();
    setShareMessage(`${what} selected: copy it with Ctrl+C (or the menu).`);
  }
}

function exportRecord() {
  const gomoku = game.k === 5 && game.goban && !game.start.some(Boolean);
  const text = gomoku ? toPsq(currentGame()) : toRecord(currentGame());
  const blob = new Blob([text], { type: 'text/plain' });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = gomoku ? `gomoku-${game.rows}x${game.cols}.psq` : `game-${variantName(variant())}.txt`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
  $('load-text').value = text;
  setShareMessage(`Saved ${a.download} (${gomoku ? 'Piskvork PSQ' : 'game record'}); its text is in the box below as well.`);
}

// ---------------------------------------------------------------- setting up a position

function enterEdit() {
  if (game.phase === 'edit') { leaveEdit(); update({ autoplay: false }); return; }
  abortRequests();
  checkSlot.abort();
  clearError();
  hideLive();
  startSetup(game.cells);
  $('edit-bar').hidden = false;
  $('edit-message').textContent = '';
  update();
}

function leaveEdit() {
  endSetup();
  $('edit-bar').hidden = true;
}

function editCell(index) {
  cycleCell(index);
  $('edit-message').textContent = '';
  update();
}

async function finishEdit() {
  const controller = checkSlot.start();
  const cells = setupCells().slice();
  $('edit-message').textContent = 'Checking the position\u2026';
  let status;
  try {
    status = await request('/v1/status', { board: wireBoard(cells), ...geometry() }, controller);
  } catch (err) {
    if (!checkSlot.take(controller) || isAbort(err)) return;
    $('edit-message').textContent = `The server refuses this position: ${errorMessage(err)}. Change it, or cancel.`;
    return;
  }
  if (!checkSlot.take(controller)) return;
  leaveEdit();
  resetLine(cells, []);
  const s = status.status || {};
  if (s.state === 'win' || s.state === 'draw') game.result = { winner: s.state === 'win' ? s.winner : null, line: s.line || [] };
  update({ autoplay: false });
  explanationEl.textContent = game.result ? 'The position is legal, and the game in it is already over.' : `Position set up: ${status.to_move || toMove(cells)} to move.`;
}

// ---------------------------------------------------------------- events

boardEl.addEventListener('click', (e) => {
  const t = e.target.closest('.cell');
  if (!t) return;
  const index = Number(t.dataset.index);
  if (game.phase === 'edit') { editCell(index); return; }
  if (t.dataset.forbidden && game.phase === 'human') { explainForbidden(index); return; }
  if (!isOpen(t)) return;
  // Connect Four: a click anywhere in a column drops a mark there.
  const target = game.gravity ? landing(game.cells, index % game.cols, game) : index;
  if (target !== null) humanMove(target);
});

// The arrow keys step through the game wherever they do not already mean something (the board's
// own cells, text fields, selectors, the search-tree view); Home and End go to either end.
document.addEventListener('keydown', (e) => {
  if (e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) return;
  const t = e.target;
  if (t.closest && t.closest('#board, select, textarea, #trace, [contenteditable]')) return;
  if (t.tagName === 'INPUT' && t.type !== 'checkbox') return;
  const step = { ArrowLeft: game.view - 1, ArrowRight: game.view + 1, Home: 0, End: game.moves.length }[e.key];
  if (step === undefined || game.phase === 'edit') return;
  e.preventDefault();
  goTo(step);
  drawReview();
});

$('step-first').addEventListener('click', () => { goTo(0); drawReview(); });
$('step-prev').addEventListener('click', () => { goTo(game.view - 1); drawReview(); });
$('step-next').addEventListener('click', () => { goTo(game.view + 1); drawReview(); });
$('step-last').addEventListener('click', () => { goTo(game.moves.length); drawReview(); });
$('move-list').addEventListener('click', (e) => {
  const b = e.target.closest('button.move');
  if (b) { goTo(Number(b.dataset.number)); drawReview(); }
});
$('variation-leave').addEventListener('click', leaveVariation);
$('review-now').addEventListener('click', reviewGame);
$('new-game').addEventListener('click', newGame);
undoBtn.addEventListener('click', undo);
editBtn.addEventListener('click', enterEdit);
$('edit-done').addEventListener('click', finishEdit);
$('edit-clear').addEventListener('click', () => { clearSetup(); $('edit-message').textContent = ''; update(); });
$('edit-cancel').addEventListener('click', () => { checkSlot.abort(); leaveEdit(); update({ autoplay: false }); });
$('retry').addEventListener('click', () => {
  const again = game.retry;
  clearError();
  if (again) again();
});
sizeSel.addEventListener('change', newGame);
// Changing sides keeps the game on the board: the AI moves at once if it is now its turn.
sideSel.addEventListener('change', () => {
  game.side = sideSel.value;
  if (game.phase === 'edit') { render(); return; }
  abortRequests();
  clearError();
  hideLive();
  update({ autoplay: atEnd() });
});
ruleSel.addEventListener('change', newGame);
timeSel.addEventListener('change', () => { game.analysis = null; if (analysisBox.checked) refreshAnalysis(); });
$('zoom').addEventListener('click', toggleZoom);
window.addEventListener('resize', () => { updateZoom(); drawReview(); });
$('moves-to-end').addEventListener('change', render);
numbersBox.addEventListener('change', render);
analysisBox.addEventListener('change', () => {
  if (!analysisBox.checked) { analysisSlot.abort(); render(); return; }
  refreshAnalysis();
});
$('copy-link').addEventListener('click', () => { syncAddress(); copyText(location.href, 'Link'); });
$('copy-moves').addEventListener('click', () => copyText(formatMoves(game.moves, variant()), 'Moves'));
$('export-record').addEventListener('click', exportRecord);
$('load').addEventListener('click', () => loadText($('load-text').value, 'text'));
$('load-file').addEventListener('change', async (e) => {
  const file = e.target.files && e.target.files[0];
  if (!file) return;
  const text = await file.text();
  $('load-text').value = text;
  await loadText(text, `file ${file.name}`);
  e.target.value = '';
});

// For the search-tree view (trace.js): the position on the board, read-only.
window.minimaxPosition = () => ({
  cells: game.cells.slice(), rows: game.rows, cols: game.cols, k: game.k,
  gravity: game.gravity, over: game.phase === 'over',
});

// The game in the address, if any; a new game otherwise.
async function start() {
  let loaded = null;
  try {
    loaded = fromQuery(location.search, location.hash);
  } catch (err) {
    if (!(err instanceof NotationError)) throw err;
    newGame();
    setShareMessage(`Could not open the game in this link: ${err.message}.`, true);
    showError(`Could not open the game in this link: ${err.message}.`, null);
    return;
  }
  if (!loaded) { newGame(); return; }
  applyVariant(loaded.variant, loaded.rule, loaded.side);
  resetLine(new Array(loaded.variant.rows * loaded.variant.cols).fill(null), []);
  game.cells = cellsAt(0);
  game.phase = 'loading';
  render();
  const ok = await loadGame({ ...loaded, format: 'link' }, { source: 'link' });
  if (!ok) {
    const why = shareMessage.textContent;
    newGame();
    showError(why, null);
  }
}

start();
