// Positions and games as text: cell coordinates, move strings and the page's address (URL).
// Pure functions with no DOM, so the same code reads a pasted string, a link and a record file.
//
// Notation, the same on every board without gravity: a cell is its column's letter from the left
// (a, b, ...) and its row's number from the BOTTOM (1, 2, ...), as on a goban and as the API's
// `coordinate` and gomocalc/Yixin write it; a game is its moves written one after the other:
// `h8i9j10`, or `b2 a1 c3` on 3 × 3 (spaces and commas between moves are allowed). Connect Four
// writes a game as the public solver does (connect4.gamesolver.org's `pos`): one digit a move, the
// column counted from 1 (`4453`).

export const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

// The boards the page plays, as the size selector names them: rows x cols x k, `g` for gravity.
export const VARIANTS = ['3x3x3', '4x4x4', '5x5x4', '7x7x5', '15x15x5', '20x20x5', '6x7x4g'];
export const RULES = ['freestyle', 'standard', 'renju', 'caro'];

/// A notation problem: what is wrong, in words a user can act on.
export class NotationError extends Error {
  constructor(message) {
    super(message);
    this.name = 'NotationError';
  }
}

export function parseVariant(name) {
  const m = /^(\d+)x(\d+)x(\d+)(g?)$/.exec(String(name).trim().toLowerCase());
  if (!m || !VARIANTS.includes(m[0])) {
    throw new NotationError(`unknown board "${name}": the page plays ${VARIANTS.join(', ')} (rows x columns x k, g for Connect Four)`);
  }
  return { rows: Number(m[1]), cols: Number(m[2]), k: Number(m[3]), gravity: m[4] === 'g' };
}

export const variantName = (g) => `${g.rows}x${g.cols}x${g.k}${g.gravity ? 'g' : ''}`;
export const takesRule = (g) => g.k === 5 && !g.gravity;
// Rules are offered where players use them: renju only on 15 x 15 (its standard board).
export const rulesFor = (g) => (!takesRule(g) ? ['freestyle'] : g.rows === 15 && g.cols === 15 ? RULES : RULES.filter((r) => r !== 'renju'));
export const sizeText = (g) => `${g.rows} \u00d7 ${g.cols}`;

export const coordinate = (index, g) => LETTERS[index % g.cols] + String(g.rows - Math.floor(index / g.cols));

// The cell a mark dropped in `column` lands on, or null when the column is full.
export function landing(cells, column, g) {
  for (let r = g.rows - 1; r >= 0; r--) {
    if (cells[r * g.cols + column] == null) return r * g.cols + column;
  }
  return null;
}

// A game as text in the board's notation.
export function formatMoves(moves, g) {
  if (g.gravity) return moves.map((i) => String((i % g.cols) + 1)).join('');
  return moves.map((i) => coordinate(i, g)).join('');
}

// The cells of `text`, a game in the board's notation, played from `start` (the cells before the
// first move, null when empty). Throws a NotationError naming the first thing that is wrong.
export function parseMoves(text, g, start = null) {
  const cells = start ? start.slice() : new Array(g.rows * g.cols).fill(null);
  const moves = [];
  const src = String(text).trim();
  if (g.gravity) {
    const digits = src.replace(/[\s,]/g, '');
    [...digits].forEach((ch, n) => {
      const column = Number(ch) - 1;
      if (!/^[0-9]$/.test(ch) || column < 0 || column >= g.cols) {
        throw new NotationError(`move ${n + 1}: "${ch}" is not a column from 1 to ${g.cols}`);
      }
      const cell = landing(cells, column, g);
      if (cell === null) throw new NotationError(`move ${n + 1}: column ${column + 1} is already full`);
      cells[cell] = 'X';
      moves.push(cell);
    });
    return moves;
  }
  const token = /\s*,?\s*([a-zA-Z])(\d+)/y;
  let at = 0;
  const played = new Map();
  while (at < src.length) {
    token.lastIndex = at;
    const m = token.exec(src);
    if (!m) {
      const rest = src.slice(at).trim().replace(/^,\s*/, '');
      if (rest === '') break;
      throw new NotationError(`"${rest.slice(0, 12)}" (character ${src.length - rest.length + 1}) is not a coordinate such as ${coordinate(Math.floor((g.rows * g.cols) / 2), g)}`);
    }
    at = token.lastIndex;
    const n = moves.length + 1;
    const col = LETTERS.indexOf(m[1].toLowerCase());
    const row = Number(m[2]);
    const name = m[1].toLowerCase() + m[2];
    if (col >= g.cols || row < 1 || row > g.rows) {
      throw new NotationError(`move ${n}: ${name} is off the ${sizeText(g)} board (columns a to ${LETTERS[g.cols - 1]}, rows 1 to ${g.rows})`);
    }
    const cell = (g.rows - row) * g.cols + col;
    if (played.has(cell)) throw new NotationError(`move ${n}: ${name} was already played at move ${played.get(cell)}`);
    if (cells[cell] != null) throw new NotationError(`move ${n}: ${name} is already taken in the set-up position`);
    played.set(cell, n);
    moves.push(cell);
  }
  return moves;
}

// The compact board string of the API ("X.O......"): the set-up position of a game.
export const boardString = (cells) => cells.map((c) => c || '.').join('');

export function parseBoardString(text, g) {
  const s = String(text).trim();
  if (s.length !== g.rows * g.cols) throw new NotationError(`the set-up position has ${s.length} cells; a ${sizeText(g)} board has ${g.rows * g.cols}`);
  return [...s].map((ch, i) => {
    if (ch === 'X' || ch === 'x') return 'X';
    if (ch === 'O' || ch === 'o') return 'O';
    if ('.-_ '.includes(ch)) return null;
    throw new NotationError(`cell ${i} of the set-up position is "${ch}", not X, O or . (empty)`);
  });
}

// ------------------------------------------------------------------ the address

// A game in the address: `?pos=4453` for Connect Four (the public solver's form);
// `?game=15x15x5&rule=renju&moves=h8i9j10` for the others (`game` defaults to 15 x 15 gomoku for
// coordinates, `rule` to freestyle); `setup=` a set-up position as a board string, `side=` the
// side you play against the AI (X or O; without it you play both sides, as on an analysis board).
// gomocalc-style links with the moves in `moves`, `pos` or after `#`
// open too.
export function toQuery(state) {
  const q = new URLSearchParams();
  const g = state.variant;
  const connectFour = g.gravity && g.rows === 6 && g.cols === 7;
  if (!connectFour) q.set('game', variantName(g));
  if (takesRule(g) && state.rule !== 'freestyle') q.set('rule', state.rule);
  if (state.setup && state.setup.some(Boolean)) q.set('setup', boardString(state.setup));
  if (state.side && state.side !== 'both') q.set('side', state.side);
  const moves = formatMoves(state.moves, g);
  if (connectFour) q.set('pos', moves);
  else if (moves) q.set('moves', moves);
  return q.toString();
}

// Reads a game from an address's query (and hash). Returns null when it names no game; throws a
// NotationError when it names one that is wrong.
export function fromQuery(search, hash = '') {
  const q = new URLSearchParams(search);
  const known = new Set(['game', 'rule', 'setup', 'side', 'pos', 'moves']);
  const unknown = [...q.keys()].filter((key) => !known.has(key));
  if (unknown.length) throw new NotationError(`the link has a parameter the page does not know: ${unknown.join(', ')} (it reads game, rule, moves, pos, setup and side)`);
  let text = q.get('moves') ?? q.get('pos');
  if (q.has('moves') && q.has('pos')) throw new NotationError('the link has both moves= and pos=; give one');
  const fragment = decodeURIComponent(String(hash).replace(/^#\/?/, '')).replace(/^(moves|pos)=/, '').trim();
  if (text === null && fragment && /^[a-zA-Z]\d/.test(fragment)) text = fragment;
  if (!q.has('game') && text === null && !q.has('setup')) return null;
  let variant;
  if (q.has('game')) variant = parseVariant(q.get('game'));
  else if (text !== null && /^[\d\s]*$/.test(text)) variant = parseVariant('6x7x4g');
  else variant = parseVariant(gomokuSizeFor(text || ''));
  const rule = (q.get('rule') || 'freestyle').toLowerCase();
  if (!RULES.includes(rule)) throw new NotationError(`unknown rule "${q.get('rule')}": one of ${RULES.join(', ')}`);
  if (rule !== 'freestyle' && !rulesFor(variant).includes(rule)) {
    throw new NotationError(takesRule(variant) ? `the ${rule} rule is played on 15 \u00d7 15 only` : `a rule applies to five in a row only, not to ${variantName(variant)}`);
  }
  const side = q.get('side') || 'both';
  if (!['X', 'O', 'both'].includes(side)) throw new NotationError(`side "${side}" is not X, O or both`);
  const setup = q.has('setup') ? parseBoardString(q.get('setup'), variant) : null;
  const moves = text ? parseMoves(text, variant, setup) : [];
  return { variant, rule, side, setup, moves };
}

// Gomoku without a size: 15 x 15 unless a coordinate needs 20 x 20.
export function gomokuSizeFor(text) {
  let need = 1;
  for (const m of String(text).matchAll(/([a-zA-Z])(\d+)/g)) {
    need = Math.max(need, LETTERS.indexOf(m[1].toLowerCase()) + 1, Number(m[2]));
  }
  return need > 15 ? '20x20x5' : '15x15x5';
}
