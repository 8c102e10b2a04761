// Analysis mode's state: variations played from an earlier position of the game, and a position
// set up by hand. DOM-free: the controller (app.js) calls these and renders, and the server
// (POST /v1/status) judges a set-up position.
import { game, atEnd } from './state.js';

// The line changes at move `game.view`: from an earlier position of the game a variation starts
// (the game is kept, and leaving the variation returns to it); inside a variation its tail is
// replaced. Returns whether the line changed (not at its end).
export function branch() {
  if (atEnd()) return false;
  if (!game.main) {
    game.main = { moves: game.moves.slice(), result: game.result, review: game.review };
    game.variationFrom = game.view;
  } else {
    game.variationFrom = Math.min(game.variationFrom, game.view);
  }
  game.moves = game.moves.slice(0, game.view);
  game.result = null;
  return true;
}

// Back to the game a variation left: its moves and result, at the move the variation began.
// Returns that move number, or null when no variation is being played.
export function leaveVariation() {
  if (!game.main) return null;
  const at = game.variationFrom;
  game.moves = game.main.moves;
  game.result = game.main.result;
  game.main = null;
  game.variationFrom = null;
  return at;
}

// The position being set up, while editing (null otherwise).
let setup = null;

export const setupCells = () => setup;

export function startSetup(cells) {
  setup = cells.slice();
  game.phase = 'edit';
}

export function endSetup() {
  setup = null;
  game.phase = 'viewing';
}

// A click on a cell while setting up: empty, then X, then O, then empty again.
export function cycleCell(index) {
  const order = [null, 'X', 'O'];
  setup[index] = order[(order.indexOf(setup[index]) + 1) % 3];
}

export function clearSetup() {
  setup = setup.map(() => null);
}
