// Game records: Piskvork's PSQ files for gomoku, the page's own text record for every board, and
// the one reader behind "Load", which takes any of them, a link or a bare move string.
import {
  NotationError, VARIANTS, boardString, formatMoves, fromQuery, gomokuSizeFor, parseBoardString,
  parseMoves, parseVariant, rulesFor, sizeText, takesRule, variantName, RULES,
} from './notation.js';

// PSQ, as Piskvork writes it: a header `Piskvorky 15x15, 11:11, 0` (width x height), one
// `x,y,time` line a move with x the column and y the row, both from 1 at the top left, then
// trailer lines (the players' engines, `-1`).
export function toPsq(game) {
  const lines = [`Piskvorky ${game.variant.cols}x${game.variant.rows}, 11:11, 0`];
  for (const cell of game.moves) {
    lines.push(`${(cell % game.variant.cols) + 1},${Math.floor(cell / game.variant.cols) + 1},0`);
  }
  lines.push('-1');
  return lines.join('\n') + '\n';
}

// Reads a PSQ leniently: `Piskvorky 20x20, ...` or `Piskvorky 15x15,...`, move lines with two or
// three numbers, and the first line that is not a move ends the moves.
export function fromPsq(text) {
  const lines = String(text).replace(/^\uFEFF/, '').split(/\r?\n/);
  const head = /^\s*Piskvorky\s+(\d+)\s*x\s*(\d+)/i.exec(lines[0] || '');
  if (!head) throw new NotationError('a PSQ record starts with a line such as "Piskvorky 15x15, 11:11, 0"');
  const cols = Number(head[1]), rows = Number(head[2]);
  const name = `${rows}x${cols}x5`;
  if (!VARIANTS.includes(name)) throw new NotationError(`the record is for a ${cols} \u00d7 ${rows} board; the page plays gomoku on 15 \u00d7 15 and 20 \u00d7 20`);
  const variant = parseVariant(name);
  const moves = [];
  const seen = new Map();
  for (let n = 1; n < lines.length; n++) {
    const m = /^\s*(-?\d+)\s*,\s*(-?\d+)\s*(?:,\s*-?\d+\s*)?$/.exec(lines[n]);
    if (!m) break;
    const x = Number(m[1]), y = Number(m[2]);
    if (x < 1 || x > cols || y < 1 || y > rows) {
      throw new NotationError(`line ${n + 1}: ${x},${y} is off the ${cols} \u00d7 ${rows} board (x and y count from 1)`);
    }
    const cell = (y - 1) * cols + (x - 1);
    if (seen.has(cell)) throw new NotationError(`line ${n + 1}: ${x},${y} was already played on line ${seen.get(cell)}`);
    seen.set(cell, n + 1);
    moves.push(cell);
  }
  return { variant, rule: 'freestyle', side: 'both', setup: null, moves, format: 'PSQ' };
}

// The page's text record, for every board:
//   minimax-move game
//   board 6x7x4g
//   rule freestyle
//   setup X.O......          (only for a set-up position)
//   moves 4453               (the board's notation, as in links)
export function toRecord(game) {
  const lines = ['minimax-move game', `board ${variantName(game.variant)}`, `rule ${game.rule}`];
  if (game.setup && game.setup.some(Boolean)) lines.push(`setup ${boardString(game.setup)}`);
  lines.push(`moves ${formatMoves(game.moves, game.variant)}`);
  return lines.join('\n') + '\n';
}

export function fromRecord(text) {
  const lines = String(text).split(/\r?\n/).map((l) => l.trim());
  if (lines[0] !== 'minimax-move game') throw new NotationError('a game record starts with the line "minimax-move game"');
  const fields = new Map();
  lines.slice(1).forEach((line, n) => {
    if (line === '') return;
    const m = /^(\w+)\s*(.*)$/.exec(line);
    const key = m[1].toLowerCase();
    if (!['board', 'rule', 'setup', 'moves'].includes(key)) throw new NotationError(`line ${n + 2}: "${m[1]}" is not board, rule, setup or moves`);
    if (fields.has(key)) throw new NotationError(`line ${n + 2}: ${key} is given twice`);
    fields.set(key, m[2]);
  });
  if (!fields.has('board')) throw new NotationError('the record has no "board" line (such as "board 3x3x3")');
  const variant = parseVariant(fields.get('board'));
  const rule = (fields.get('rule') || 'freestyle').toLowerCase();
  if (!RULES.includes(rule) || (!rulesFor(variant).includes(rule))) {
    throw new NotationError(`the rule "${rule}" is not played on ${variantName(variant)}` + (takesRule(variant) ? ` (${rulesFor(variant).join(', ')})` : ''));
  }
  const setup = fields.has('setup') ? parseBoardString(fields.get('setup'), variant) : null;
  const moves = parseMoves(fields.get('moves') || '', variant, setup);
  return { variant, rule, side: 'both', setup, moves, format: 'record' };
}

// Whatever was pasted or opened: a link, a PSQ, a text record, or a bare move string (Connect Four
// digits; coordinates on the current board without gravity when they fit it, else on gomoku).
export function parseAny(text, current) {
  const src = String(text).trim();
  if (src === '') throw new NotationError('nothing to load: paste a link, a move string, a PSQ or a game record');
  if (/^Piskvorky\b/i.test(src)) return fromPsq(src);
  if (/^minimax-move game\b/.test(src)) return fromRecord(src);
  if (/^(https?:\/\/|\?|\/\?)/i.test(src)) {
    const url = new URL(src, 'http://localhost/');
    const game = fromQuery(url.search, url.hash);
    if (!game) throw new NotationError('the link names no game (no pos=, moves=, game= or setup=)');
    return { ...game, format: 'link' };
  }
  if (/^[\d\s,]+$/.test(src)) {
    const variant = parseVariant('6x7x4g');
    return { variant, rule: 'freestyle', side: current.side, setup: null, moves: parseMoves(src, variant), format: 'Connect Four moves' };
  }
  if (/^[a-zA-Z]\d/.test(src)) {
    const g = current.variant;
    if (!g.gravity) {
      try {
        return { variant: g, rule: current.rule, side: current.side, setup: null, moves: parseMoves(src, g), format: `moves on ${sizeText(g)}` };
      } catch (err) {
        if (!/is off the/.test(err.message) || (g.k === 5 && g.rows >= 15)) throw err;
      }
    }
    const variant = parseVariant(gomokuSizeFor(src));
    const rule = rulesFor(variant).includes(current.rule) ? current.rule : 'freestyle';
    return { variant, rule, side: current.side, setup: null, moves: parseMoves(src, variant), format: `gomoku moves on ${sizeText(variant)}` };
  }
  throw new NotationError(`"${src.slice(0, 20)}" is not a link, a move string (h8i9j10, or 4453 for Connect Four), a PSQ or a game record`);
}
