// The page's state, shared by its modules, and how it names sides and cells.
import { LETTERS, coordinate as coordinateOf } from './notation.js';

export const $ = (id) => document.getElementById(id);
export const other = (p) => (p === 'X' ? 'O' : 'X');

// The whole state of the page.
export const game = {
  rows: 3, cols: 3, k: 3,
  gravity: false,       // Connect Four: a mark drops to the lowest free cell of its column
  rule: 'freestyle',    // freestyle | standard | renju | caro (k = 5 without gravity only)
  goban: false,         // a board of 100 cells or more without gravity: stones on intersections
  zoomed: false,        // the goban drawn with larger points inside a scrolling frame
  side: 'X',            // the side the human plays: X, O, or both (the analysis board)
  start: [],            // the cells before the first move: empty, or a set-up position
  first: 'X',           // the side that plays the first move of `moves`
  moves: [],            // the cells played from `start`, in order: the line on the board
  view: 0,              // how many of `moves` the board shows (stepping back shows fewer)
  cells: [],            // the position shown: null, 'X' or 'O'
  main: null,           // while a variation is played: the game it left {moves, result, review}
  variationFrom: null,  // the move number the variation branched at
  result: null,         // {winner, line} once the line's last position is over (the server's word)
  review: null,         // the answer of POST /v1/review for the line
  phase: 'loading',     // human | ai | playing | checking | viewing | edit | over | error
  last: null,           // the cell of the newest move shown
  forbidden: null,      // {key, cells: Map(index -> reason)}: renju points black may not play
  analysis: null,       // {key, moves, top, pv} for the position on the board, or null
  retry: null,          // what "Try again" does
};

export const variant = () => ({ rows: game.rows, cols: game.cols, k: game.k, gravity: game.gravity });
export const isHuman = (mark) => game.side === 'both' || game.side === mark;
export const atEnd = () => game.view === game.moves.length;

// The side to move in `cells`: the one with fewer marks, X when the counts are equal (as the API
// infers it).
export function toMove(cells) {
  let x = 0, o = 0;
  for (const c of cells) { if (c === 'X') x++; else if (c === 'O') o++; }
  return x > o ? 'O' : 'X';
}

// The mark of the move numbered `n` (from 1) of the line.
export const markOf = (n) => ((n - 1) % 2 === 0 ? game.first : other(game.first));

// The position after the first `n` moves of the line.
export function cellsAt(n) {
  const cells = game.start.slice();
  game.moves.slice(0, n).forEach((cell, i) => { cells[cell] = markOf(i + 1); });
  return cells;
}

// The board as the API's canonical array: marks, and each empty cell's own index.
export const wireBoard = (cells) => cells.map((c, i) => (c === null ? i : c));
export const positionKey = (cells) => `${game.rows}x${game.cols}x${game.k}${game.gravity ? 'g' : ''}:${game.rule}:` + cells.map((c) => c || '.').join('');
// The fields every route takes to know the game: the board's shape, gravity and the rule.
export function geometry() {
  const g = { rows: game.rows, cols: game.cols, k: game.k };
  if (game.gravity) g.gravity = true;
  if (game.k === 5 && !game.gravity) g.rule = game.rule;
  return g;
}

export { LETTERS };
// Board notation (renju, Gomocup): the column's letter from the left, the row's number from the
// bottom, so on 15 x 15 cell 112 is h8 and cell 0 is a15. The server sends the same `coordinate`.
export const coordinate = (i) => coordinateOf(i, game);
// How text names a cell, as the server's sentences do: its coordinate on gomoku boards (five in
// a row, or a goban), its column counted from 1 in Connect Four, its index elsewhere.
export const named = () => game.goban || (game.k === 5 && !game.gravity);
export const columnName = (i) => `column ${(i % game.cols) + 1}`;
export const cellName = (i) => (game.gravity ? columnName(i) : named() ? coordinate(i) : `${i} (row ${Math.floor(i / game.cols) + 1}, column ${(i % game.cols) + 1})`);
export const shortName = (i) => (game.gravity ? columnName(i) : named() ? coordinate(i) : String(i));
export const stoneName = (mark) => (mark === 'X' ? 'X (black)' : 'O (white)');

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
const ordinal = (n) => n + (n % 100 >= 11 && n % 100 <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][n % 10] || 'th');
const pliesText = (n) => plural(n, 'ply').replace(/plys$/, 'plies');

export function formatScore(entry) {
  const s = entry.score;
  if (Number.isInteger(s)) return String(s);
  // An estimate in (-1, 1): two decimals without the leading zero, so it fits a small cell;
  // three when two would round it to 1, which only a proven win reaches.
  const two = Math.abs(s).toFixed(2);
  const digits = two === '1.00' ? Math.min(Math.abs(s), 0.999).toFixed(3) : two;
  return (s < 0 ? '-' : '') + digits.replace(/^0/, '');
}

// Connect Four: a proven score as Pons' score (connect4.gamesolver.org's: from the side to
// move, a win on the stone numbered m scores 1 + (cells - m) / 2, a loss the negative, a draw
// 0), or, with "Moves to the end" checked, the plies to the end (+ a win, - a loss, 0 a draw).
// Estimates keep their own form.
export function gravityScore(entry) {
  if (!Number.isInteger(entry.score) || !entry.plies || !['win', 'loss', 'draw'].includes(entry.outcome)) return formatScore(entry);
  if (entry.outcome === 'draw') return '0';
  const sign = entry.outcome === 'win' ? '' : '-';
  if ($('moves-to-end').checked) return (entry.outcome === 'win' ? '+' : '-') + entry.plies;
  const stones = game.cells.filter(Boolean).length;
  return sign + String(1 + Math.floor((game.rows * game.cols - (stones + entry.plies)) / 2));
}

// The API's `plies` counts moves of both sides from this position, this move included: a "move"
// here is always one side's move, a "ply" one move of either side.
export function describeScore(entry, mark) {
  const plies = entry.plies;
  const score = `score ${game.gravity ? gravityScore(entry) : formatScore(entry)}`;
  switch (entry.outcome) {
    case 'win': {
      if (!plies) return `${score}: ${mark} wins`;
      if (plies === 1) return `${score}: ${mark} wins with this move`;
      return `${score}: ${mark} wins in ${pliesText(plies)}, on ${mark}'s ${ordinal((plies + 1) / 2)} move counting this one`;
    }
    case 'loss': {
      const them = other(mark);
      if (!plies) return `${score}: ${mark} loses`;
      const theirs = Math.floor(plies / 2);
      return `${score}: ${mark} loses in ${pliesText(plies)}, ${them} wins on ${theirs === 1 ? 'its next move' : `its ${ordinal(theirs)} move from here`}`;
    }
    case 'draw': return `${score}: a draw with best play`;
    default: {
      // Beyond ±0.9 the search sees a win it has not proven; only an exact score is proven.
      if (entry.score > 0.9) return `${score}: estimated, not proven; the search sees a likely win for ${mark}`;
      if (entry.score < -0.9) return `${score}: estimated, not proven; the search sees a likely win for ${other(mark)}`;
      return `${score}: estimated, not proven`;
    }
  }
}

export const valueText = (score, outcome) => (outcome && outcome !== 'unknown' ? `${outcome}, score ${formatScore({ score })}` : `estimate ${formatScore({ score })}`);
