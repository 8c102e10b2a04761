(() => {
  'use strict';

  const TIME_LIMIT_MS = 800;          // search budget on boards larger than 3 × 3
  const GRAVITY_TIME_LIMIT_MS = 3000; // Connect Four: long enough to prove most positions
  const REQUEST_TIMEOUT_MS = 20000;   // give up on a request after this long

  const $ = (id) => document.getElementById(id);
  const boardEl = $('board');
  const statusEl = $('status');
  const explanationEl = $('explanation');
  const errorEl = $('error');
  const errorText = $('error-text');
  const noteEl = $('analysis-note');
  const sizeSel = $('size');
  const sideSel = $('side');
  const diffSel = $('difficulty');
  const analysisBox = $('analysis');
  const ruleSel = $('rule');
  const ruleField = ruleSel.closest('.rule-field');
  const zoomBtn = $('zoom');
  const boardTools = zoomBtn.closest('.board-tools');
  const boardScroll = $('board-scroll');
  const topMovesEl = $('top-moves');
  const columnScoresEl = $('column-scores');
  const scoreKindEl = $('column-score-kind');
  const movesToEndBox = $('moves-to-end');
  let hoverColumn = null; // Connect Four: the column under the pointer (showColumn)
  const undoBtn = $('undo');
  const liveEl = $('live');
  const liveText = $('live-text');
  const reviewEl = $('review');
  const reviewChart = $('review-chart');
  const SVG = 'http://www.w3.org/2000/svg';

  const other = (p) => (p === 'X' ? 'O' : 'X');
  const TOP_MOVES = 5;        // the heat map of a big board shows this many of the best moves
  const MIN_TARGET_PX = 24;   // the smallest intersection a finger should have to hit

  // The whole state of the page.
  const game = {
    rows: 3, cols: 3, k: 3,
    gravity: false,       // Connect Four: a mark drops to the lowest free cell of its column
    rule: 'freestyle',    // freestyle | standard | renju | caro (k = 5 without gravity only)
    goban: false,         // a board of 100 cells or more without gravity: stones on intersections
    zoomed: false,        // the goban drawn with larger points inside a scrolling frame
    forbidden: null,      // {key, cells: Map(index -> reason)}: renju points black may not play
    forbiddenRequest: null, // AbortController of the status request in flight
    human: 'X',
    cells: [],            // null, 'X' or 'O'
    history: [],          // snapshots of `cells` taken before each human move
    moves: [],            // the cells played, in order (X always starts on this page)
    review: null,         // the answer of POST /v1/review once the game is over
    reviewRequest: null,  // AbortController of the review request in flight
    phase: 'loading',     // human | ai | over | error
    result: null,         // {winner: 'X' | 'O' | null, line: [...]} once the game is over
    last: null,           // index of the most recent move
    analysis: null,       // {key, moves} for the position on the board, or null
    moveRequest: null,    // AbortController of the AI-move request in flight
    analysisRequest: null, // AbortController of the move-table request in flight
    retry: null,          // what "Try again" does
  };

  function toMove(cells) {
    let x = 0, o = 0;
    for (const c of cells) { if (c === 'X') x++; else if (c === 'O') o++; }
    return x > o ? 'O' : 'X';   // X always starts on this page
  }

  // The board as the API's canonical array: marks, and each empty cell's own index.
  const wireBoard = (cells) => cells.map((c, i) => (c === null ? i : c));
  const positionKey = (cells) => `${game.rows}x${game.cols}x${game.k}${game.gravity ? 'g' : ''}:${game.rule}:` + cells.map((c) => c || '.').join('');

  // Board notation (renju, Gomocup): the column's letter from the left, the row's number from the
  // bottom, so on 15 x 15 cell 112 is h8 and cell 0 is a15. The server sends the same `coordinate`.
  const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
  const coordinate = (i) => LETTERS[i % game.cols] + String(game.rows - Math.floor(i / game.cols));
  // How text names a cell, as the server's sentences do: its coordinate on gomoku boards (five in
  // a row, or a goban), its column counted from 1 in Connect Four, its index elsewhere.
  const named = () => game.goban || (game.k === 5 && !game.gravity);
  const columnName = (i) => `column ${(i % game.cols) + 1}`;
  const cellName = (i) => (game.gravity ? columnName(i) : named() ? coordinate(i) : `${i} (row ${Math.floor(i / game.cols) + 1}, column ${(i % game.cols) + 1})`);
  const shortName = (i) => (game.gravity ? columnName(i) : named() ? coordinate(i) : String(i));
  // Whether the rule selector applies: five in a row without gravity.
  const takesRule = (s) => s.k === 5 && !s.gravity;

  // On a gravity board, the cell where a mark dropped in `column` lands, or null when it is full.
  function landing(cells, column) {
    for (let r = game.rows - 1; r >= 0; r--) {
      if (cells[r * game.cols + column] === null) return r * game.cols + column;
    }
    return null;
  }

  // Whether a run of `length` marks wins under the game's rule; `blocked` says whether both of its
  // ends are the opponent's marks (the edge of the board does not block).
  function runWins(mark, length, blocked) {
    const { k, rule } = game;
    if (length < k) return false;
    switch (rule) {
      case 'standard': return length === k;
      case 'renju': return mark === 'O' || length === k;
      case 'caro': return length > k || !blocked;
      default: return true;
    }
  }

  // The winning line through `index` for the mark there, or null.
  function lineThrough(cells, index) {
    const mark = cells[index];
    if (!mark) return null;
    const { rows, cols } = game;
    const r0 = Math.floor(index / cols), c0 = index % cols;
    for (const [dr, dc] of [[0, 1], [1, 0], [1, 1], [1, -1]]) {
      const line = [index];
      let ends = 0;
      for (const s of [1, -1]) {
        let r = r0 + dr * s, c = c0 + dc * s;
        while (r >= 0 && r < rows && c >= 0 && c < cols && cells[r * cols + c] === mark) {
          line.push(r * cols + c);
          r += dr * s; c += dc * s;
        }
        if (r >= 0 && r < rows && c >= 0 && c < cols && cells[r * cols + c] === other(mark)) ends++;
      }
      if (runWins(mark, line.length, ends === 2)) return line.sort((a, b) => a - b);
    }
    return null;
  }

  function resultAfter(cells, index) {
    const line = lineThrough(cells, index);
    if (line) return { winner: cells[index], line };
    if (cells.every((c) => c !== null)) return { winner: null, line: [] };
    return null;
  }

  // ---------------------------------------------------------------- rendering

  let buttons = [];
  let focusIndex = 0;   // the board's single tab stop (roving tabindex)

  function buildBoard() {
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
  function updateZoom() {
    if (!game.goban) { boardTools.hidden = true; return; }
    boardEl.classList.toggle('zoomed', game.zoomed);
    boardScroll.classList.toggle('zoomed', game.zoomed);
    zoomBtn.setAttribute('aria-pressed', String(game.zoomed));
    zoomBtn.textContent = game.zoomed ? 'Zoom out: whole board' : 'Zoom in: larger points';
    const size = buttons.length ? buttons[0].getBoundingClientRect().width : 0;
    boardTools.hidden = !game.zoomed && size >= MIN_TARGET_PX;
  }

  function toggleZoom() {
    game.zoomed = !game.zoomed;
    updateZoom();
    // Keep the point in focus (or the last move) in view inside the frame.
    const at = buttons[game.last !== null ? game.last : focusIndex];
    if (game.zoomed && at) at.scrollIntoView({ block: 'center', inline: 'center' });
    if (!game.zoomed) boardScroll.scrollTo(0, 0);
  }

  function formatScore(entry) {
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
  function gravityScore(entry) {
    if (!Number.isInteger(entry.score) || !entry.plies || !['win', 'loss', 'draw'].includes(entry.outcome)) return formatScore(entry);
    if (entry.outcome === 'draw') return '0';
    const sign = entry.outcome === 'win' ? '' : '-';
    if (movesToEndBox.checked) return (entry.outcome === 'win' ? '+' : '-') + entry.plies;
    const stones = game.cells.filter(Boolean).length;
    return sign + String(1 + Math.floor((game.rows * game.cols - (stones + entry.plies)) / 2));
  }

  const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const ordinal = (n) => n + (n % 100 >= 11 && n % 100 <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][n % 10] || 'th');
  const pliesText = (n) => plural(n, 'ply').replace(/plys$/, 'plies');

  // The API's `plies` counts moves of both sides from this position, this move included: a "move"
  // here is always one side's move, a "ply" one move of either side.
  function describeScore(entry, mark) {
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

  function render() {
    document.body.dataset.phase = game.phase;
    boardEl.dataset.state = game.result ? (game.result.winner ? 'win' : 'draw') : 'in_play';
    boardEl.setAttribute('aria-busy', game.phase === 'ai' ? 'true' : 'false');
    const playable = game.phase === 'human';
    const winning = new Set(game.result ? game.result.line : []);
    const showScores = analysisBox.checked && playable && game.analysis && game.analysis.key === positionKey(game.cells);
    const table = new Map();
    let best = null;
    if (showScores) {
      for (const m of game.analysis.moves) {
        table.set(m.index, m);
        if (best === null || m.score > best) best = m.score;
      }
    }
    const allEqual = table.size > 0 && [...table.values()].every((m) => m.score === best);
    if (game.goban) {
      renderGoban(playable, showScores, winning);
    } else {
      renderCells(playable, table, best, allEqual, winning);
    }
    renderColumnScores(showScores ? table : null, best, allEqual);
    if (game.gravity && !game.goban) showColumn(hoverColumn);
    updateTabStop();
    undoBtn.disabled = game.history.length === 0 || game.phase === 'ai';
    statusEl.textContent = statusText();
    renderNote(showScores);
    renderTopMoves(showScores);
  }

  function renderCells(playable, table, best, allEqual, winning) {
    const { cols } = game;
    buttons.forEach((b, i) => {
      const mark = game.cells[i];
      const r = Math.floor(i / cols) + 1, c = (i % cols) + 1;
      b.setAttribute('aria-label', named() ? `${coordinate(i)}, ${mark || 'empty'}` : `Row ${r}, column ${c}, ${mark || 'empty'}`);
      // Never the `disabled` attribute: a taken cell stays focusable and is read out, it just
      // does nothing when pressed (see the click handler).
      const closed = game.gravity ? game.cells[i % cols] !== null : !!mark;
      b.setAttribute('aria-disabled', String(closed || !playable));
      b.classList.toggle('win', winning.has(i));
      b.classList.toggle('last', game.last === i && !winning.has(i));
      const entry = mark ? null : table.get(i);
      b.classList.toggle('best', !!entry && entry.score === best && !allEqual);
      if (mark) {
        b.dataset.mark = mark;
        delete b.dataset.score;
        b.removeAttribute('title');
        const note = winning.has(i) ? 'in the winning line' : game.last === i ? 'the last move' : '';
        if (note) b.setAttribute('aria-description', note);
        else b.removeAttribute('aria-description');
        if (b.textContent !== mark) {
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
          const d = describeScore(entry, game.human);
          b.title = d;
          b.setAttribute('aria-description', d);
        } else {
          delete b.dataset.score;
          b.removeAttribute('title');
          b.removeAttribute('aria-description');
        }
      }
    });
  }

  // The best few moves of the analysis as the server ranks them (`top`: searched moves only, best
  // first, ties in the engine's order of preference), each with its heat level from 1 (coolest)
  // to 5 (the best score). A move the search did not reach is never shaded.
  function topMoves() {
    const moves = (game.analysis.top || [])
      .filter((m) => m.searched !== false && game.cells[m.index] === null).slice(0, TOP_MOVES);
    if (moves.length === 0) return [];
    const hi = moves[0].score, lo = moves[moves.length - 1].score;
    return moves.map((m, rank) => ({ ...m, rank: rank + 1, heat: hi === lo ? 5 : 1 + Math.round((4 * (m.score - lo)) / (hi - lo)) }));
  }

  // The principal variation of the analysis: the cells of the expected line, from the human's move.
  function principalVariation() {
    const pv = (game.analysis && game.analysis.pv) || [];
    const seen = new Set();
    return pv.filter((i) => Number.isInteger(i) && game.cells[i] === null && !seen.has(i) && seen.add(i));
  }

  function forbiddenHere() {
    const f = game.forbidden;
    return f && f.key === positionKey(game.cells) ? f.cells : new Map();
  }

  const FOUL_TEXT = { overline: 'overline', double_four: 'double four', double_three: 'double three' };
  const stoneName = (mark) => (mark === 'X' ? 'X (black)' : 'O (white)');

  function renderGoban(playable, showScores, winning) {
    const heat = new Map(showScores ? topMoves().map((m) => [m.index, m]) : []);
    const pv = showScores ? principalVariation() : [];
    const pvAt = new Map(pv.map((i, n) => [i, n + 1]));
    const forbidden = forbiddenHere();
    const side = toMove(game.cells);
    buttons.forEach((b, i) => {
      const mark = game.cells[i];
      const foul = !mark && side === 'X' && game.phase !== 'over' ? forbidden.get(i) : undefined;
      const entry = mark ? null : heat.get(i);
      const step = mark ? undefined : pvAt.get(i);
      const notes = [];
      if (winning.has(i)) notes.push('in the winning line');
      else if (game.last === i) notes.push('the last move');
      if (foul) notes.push(`forbidden to X (black): ${FOUL_TEXT[foul] || foul}`);
      if (entry) notes.push(`best move ${entry.rank} of ${heat.size}, ${describeScore(entry, game.human)}`);
      if (step) notes.push(`move ${step} of the expected line, ${step % 2 ? game.human : other(game.human)} to play`);
      b.setAttribute('aria-label', `${coordinate(i)}, ${mark || 'empty'}`);
      b.setAttribute('aria-disabled', String(!!mark || !!foul || !playable));
      b.classList.toggle('win', winning.has(i));
      b.classList.toggle('last', game.last === i);
      b.classList.toggle('forbidden', !!foul);
      b.classList.toggle('best', !!entry && entry.rank === 1);
      if (entry) { b.dataset.score = String(entry.score); b.dataset.heat = String(entry.heat); } else { delete b.dataset.score; delete b.dataset.heat; }
      if (step) b.dataset.pv = String(step); else delete b.dataset.pv;
      if (foul) b.dataset.forbidden = foul; else delete b.dataset.forbidden;
      if (mark) b.dataset.mark = mark; else delete b.dataset.mark;
      if (notes.length) { b.setAttribute('aria-description', notes.join('; ')); b.title = `${coordinate(i)}: ${notes.join('; ')}`; } else { b.removeAttribute('aria-description'); b.removeAttribute('title'); }
      b.textContent = '';
      const part = (cls, text) => {
        const span = document.createElement('span');
        span.className = cls;
        if (text) span.textContent = text;
        b.appendChild(span);
      };
      if (mark) part(`stone ${mark === 'X' ? 'black' : 'white'}`);
      if (entry) part(`heat heat-${entry.heat}`);
      if (foul) part('foul', '\u00d7');
      if (step) part(`pv ${(step % 2 ? game.human : other(game.human)) === 'X' ? 'black' : 'white'}`, String(step));
    });
  }

  // The list of the best moves and the expected line, in words (coordinates), beside the heat map.
  function renderTopMoves(showScores) {
    const list = $('top-moves-list');
    list.textContent = '';
    topMovesEl.hidden = !(game.goban && showScores);
    if (topMovesEl.hidden) { $('pv-text').textContent = ''; return; }
    for (const m of topMoves()) {
      const li = document.createElement('li');
      li.dataset.index = String(m.index);
      li.textContent = `${coordinate(m.index)}: ${describeScore(m, game.human)}`;
      list.appendChild(li);
    }
    const pv = principalVariation();
    $('pv-text').textContent = pv.length
      ? `Expected line, numbered on the board: ${pv.map((i, n) => `${n + 1}. ${n % 2 ? other(game.human) : game.human} ${coordinate(i)}`).join(', ')}.`
      : '';
  }

  // Connect Four: each column's score above it (the move of dropping a mark there).
  function renderColumnScores(table, best, allEqual) {
    columnScoresEl.hidden = !game.gravity || !table;
    scoreKindEl.hidden = columnScoresEl.hidden;
    if (columnScoresEl.hidden) return;
    $('column-score-caption').textContent = movesToEndBox.checked
      ? 'Moves to the end with best play: +n wins on the nth move from here (this one included), -n loses, 0 draws.'
      : 'Pons\' scores, as connect4.gamesolver.org: positive wins (the sooner, the larger), negative loses, 0 draws.';
    [...columnScoresEl.children].forEach((s, c) => {
      const i = landing(game.cells, c);
      const entry = i === null ? null : table.get(i);
      s.className = entry ? entry.outcome : 'full';
      s.classList.toggle('best', !!entry && entry.score === best && !allEqual);
      s.textContent = entry ? gravityScore(entry) : '\u2013';
      if (entry) s.dataset.score = String(entry.score);
      else delete s.dataset.score;
      const what = entry ? describeScore(entry, game.human) : 'full';
      s.title = `Column ${c + 1}: ${what}`;
      s.setAttribute('aria-label', `Column ${c + 1}: ${what}`);
    });
  }

  function statusText() {
    const ai = other(game.human);
    switch (game.phase) {
      case 'human': return game.goban ? `Your turn: you play ${stoneName(game.human)}.` : `Your turn: you play ${game.human}.`;
      case 'ai': return `The AI (${ai}) is thinking\u2026`;
      case 'checking': return 'Checking the points forbidden to X (black)\u2026';
      case 'error': return `The AI (${ai}) could not move. Try again, undo, or start a new game.`;
      case 'over': {
        const w = game.result && game.result.winner;
        if (!w) return 'Draw: the board is full and nobody completed a line.';
        return w === game.human ? `${w} wins: you beat the AI!` : `${w} wins: the AI beat you.`;
      }
      default: return 'Loading\u2026';
    }
  }

  function renderNote(showScores) {
    if (!analysisBox.checked) { noteEl.hidden = true; noteEl.textContent = ''; return; }
    noteEl.hidden = false;
    if (game.phase !== 'human') {
      noteEl.textContent = 'Move scores appear here on your turn.';
    } else if (!showScores) {
      noteEl.textContent = 'Scoring your moves\u2026';
    } else if (game.goban) {
      noteEl.textContent = `The ${TOP_MOVES} best moves for ${game.human} are shaded on the board, the darker the better, and the expected line of play is numbered from 1` +
        (game.analysis.moves.some((m) => !m.exact) ? ' (estimates from a time-limited search).' : '.');
    } else if (game.analysis.moves.some((m) => !m.exact)) {
      noteEl.textContent = `Scores for ${game.human}'s moves are estimates from a time-limited search (between -1 and 1; higher is better for ${game.human}).`;
    } else {
      const w = game.rows * game.cols + 1;
      noteEl.textContent = `Scores for ${game.human}'s moves with best play: ${w} minus the plies to a win, 0 for a draw, the plies minus ${w} for a loss (a ply is one move by either side, this one included). Green wins, red loses.`;
    }
  }

  // ---------------------------------------------------------------- keyboard

  // Every cell is reachable, taken or not: a screen reader user explores the board with the arrow
  // keys and hears each cell's contents. The board has one tab stop (roving tabindex).
  const isOpen = (b) => b.getAttribute('aria-disabled') !== 'true';

  function updateTabStop() {
    if (!buttons[focusIndex]) focusIndex = 0;
    buttons.forEach((b, i) => { b.tabIndex = i === focusIndex ? 0 : -1; });
  }

  // The open cell nearest to `from` (by rows plus columns), or `from` itself when none is open.
  function nearestOpen(from) {
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

  function moveFocus(to) {
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

  // Enter and Space press the focused button, which arrives here as a click.
  boardEl.addEventListener('click', (e) => {
    const t = e.target.closest('.cell');
    if (t && t.dataset.forbidden && game.phase === 'human') { explainForbidden(Number(t.dataset.index)); return; }
    if (!t || !isOpen(t)) return;
    const index = Number(t.dataset.index);
    // Connect Four: a click anywhere in a column drops a mark there.
    const target = game.gravity ? landing(game.cells, index % game.cols) : index;
    if (target !== null) humanMove(target);
  });

  // Connect Four: the column under the pointer lights up, with a ghost disc where a mark would land.
  function showColumn(column) {
    hoverColumn = column;
    const target = column === null || game.phase !== 'human' ? null : landing(game.cells, column);
    buttons.forEach((b, i) => {
      b.classList.toggle('column-hover', target !== null && i % game.cols === column);
      b.classList.toggle('ghost', i === target);
      if (i === target) b.dataset.ghost = game.human;
      else delete b.dataset.ghost;
    });
  }
  boardEl.addEventListener('pointerover', (e) => {
    const t = e.target.closest('.cell');
    if (game.gravity && t) showColumn(Number(t.dataset.index) % game.cols);
  });
  boardEl.addEventListener('pointerleave', () => { if (game.gravity) showColumn(null); });

  // ---------------------------------------------------------------- the API

  async function apiOnce(body, controller, onProgress) {
    const request = Object.assign({ board: wireBoard(body.cells) }, body);
    delete request.cells;
    const bigBoard = game.rows !== 3 || game.cols !== 3 || game.k !== 3;
    const live = !!onProgress && bigBoard && !game.gravity;
    if (game.gravity) {
      Object.assign(request, { rows: game.rows, cols: game.cols, k: game.k, gravity: true, time_limit_ms: GRAVITY_TIME_LIMIT_MS });
    } else if (bigBoard) {
      Object.assign(request, { rows: game.rows, cols: game.cols, k: game.k, time_limit_ms: TIME_LIMIT_MS });
    }
    if (takesRule(game)) request.rule = game.rule;
    const timer = setTimeout(() => controller.abort(new DOMException('timed out', 'TimeoutError')), REQUEST_TIMEOUT_MS);
    let res;
    try {
      res = await fetch('/v1/move', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: live ? 'text/event-stream' : 'application/json, application/problem+json' },
        body: JSON.stringify(request),
        signal: controller.signal,
        cache: 'no-store',
      });
    } catch (err) {
      const reason = controller.signal.reason;
      const timedOut = (err && err.name === 'TimeoutError') || (reason && reason.name === 'TimeoutError');
      if (!timedOut && err && err.name === 'AbortError') throw err;
      const e = new Error(timedOut
        ? 'The server took too long to answer.'
        : 'Could not reach the server. Check that it is still running.');
      e.network = true;
      throw e;
    } finally {
      clearTimeout(timer);
    }
    let data = null;
    if (res.ok && (res.headers.get('Content-Type') || '').startsWith('text/event-stream')) {
      data = await readEvents(res, onProgress);
    } else {
      try { data = await res.json(); } catch (_) { data = null; }
    }
    if (!res.ok) {
      const e = new Error(problemText(res, data));
      e.problem = data;
      e.status = res.status;
      e.retryAfter = Number(res.headers.get('Retry-After')) || 1;
      throw e;
    }
    if (!data || typeof data.index !== 'number') throw new Error('The server sent an answer this page does not understand.');
    return data;
  }

  // Server-sent events of a live search: each `progress` goes to `onProgress`; the `result` is the
  // answer, an `error` event a problem.
  async function readEvents(res, onProgress) {
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (value) buffer += decoder.decode(value, { stream: true });
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        let name = 'message';
        const data = [];
        for (const line of block.split('\n')) {
          if (line.startsWith('event:')) name = line.slice(6).trim();
          else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
        }
        const parsed = JSON.parse(data.join('\n'));
        if (name === 'progress') onProgress(parsed);
        else if (name === 'result') { reader.cancel().catch(() => {}); return parsed; }
        else if (name === 'error') {
          const e = new Error(problemText({ status: parsed.status, statusText: '', headers: new Headers() }, parsed));
          e.problem = parsed;
          e.status = parsed.status;
          e.retryAfter = 1;
          throw e;
        }
      }
      if (done) throw new Error('The search stream ended without an answer.');
    }
  }

  // One automatic retry when the server is busy (503 with Retry-After), then the error is shown.
  async function api(body, controller, onProgress) {
    for (let attempt = 0; ; attempt++) {
      try {
        return await apiOnce(body, controller, onProgress);
      } catch (err) {
        if (err.status !== 503 || attempt >= 1 || controller.signal.aborted) throw err;
        const wait = Math.min(err.retryAfter, 3) * 1000;
        await new Promise((resolve, reject) => {
          const t = setTimeout(resolve, wait);
          controller.signal.addEventListener('abort', () => { clearTimeout(t); reject(new DOMException('aborted', 'AbortError')); }, { once: true });
        });
      }
    }
  }

  function problemText(res, p) {
    if (!p || typeof p !== 'object') return `The server answered ${res.status} ${res.statusText || ''}`.trim() + '.';
    let text = p.title || `Error ${res.status}`;
    if (p.detail) text += `: ${p.detail}`;
    if (Array.isArray(p.errors) && p.errors.length) {
      text += ' (' + p.errors.map((e) => `${e.pointer || ''} ${e.detail || ''}`.trim()).join('; ') + ')';
    }
    if (p.code) text += ` [${p.code}]`;
    if (res.status === 503) {
      const after = res.headers.get('Retry-After');
      text += after ? ` Try again in ${after} s.` : ' Try again shortly.';
    }
    return text;
  }

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

  // A request's answer is used only while its controller is still the current one: starting a
  // newer request of the same kind, or changing the position, aborts the older one and replaces
  // (or clears) the controller, so a late answer can neither overwrite nor clear a newer one.
  function abortMove() {
    if (game.moveRequest) { game.moveRequest.abort(); game.moveRequest = null; }
  }

  function abortAnalysis() {
    if (game.analysisRequest) { game.analysisRequest.abort(); game.analysisRequest = null; }
  }

  function abortRequests() {
    abortMove();
    abortAnalysis();
    abortForbidden();
  }

  // ---------------------------------------------------------------- play

  // Renju: the points black (X) may not play, from POST /v1/status, for the position on the board
  // while X is to move. Resolves once they are known (or could not be had: the server still
  // refuses a forbidden move, and the page shows its answer).
  const needsForbidden = () => game.rule === 'renju' && game.phase !== 'over' && toMove(game.cells) === 'X';

  function syncForbidden() {
    const key = positionKey(game.cells);
    if (!needsForbidden() || (game.forbidden && game.forbidden.key === key)) return Promise.resolve();
    if (game.forbiddenRequest && game.forbiddenRequest.key === key) return game.forbiddenRequest.done;
    if (game.forbiddenRequest) game.forbiddenRequest.controller.abort();
    const controller = new AbortController();
    const request = { key, controller };
    game.forbiddenRequest = request;
    const body = { board: wireBoard(game.cells), rows: game.rows, cols: game.cols, k: game.k, rule: game.rule, player: 'X' };
    request.done = fetch('/v1/status', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, application/problem+json' },
      body: JSON.stringify(body),
      signal: controller.signal,
      cache: 'no-store',
    }).then(async (res) => {
      const data = await res.json();
      if (game.forbiddenRequest !== request) return;
      game.forbiddenRequest = null;
      // Without an answer the marks stay off; the move itself is still the server's to judge.
      if (!res.ok || !Array.isArray(data.forbidden)) { game.forbidden = { key, cells: new Map() }; return; }
      const reasons = new Map((data.forbidden_detail || []).map((f) => [f.index, f.reason]));
      game.forbidden = { key, cells: new Map(data.forbidden.map((i) => [i, reasons.get(i) || 'forbidden'])) };
      render();
    }).catch(() => {
      if (game.forbiddenRequest !== request) return;
      game.forbiddenRequest = null;
      game.forbidden = { key, cells: new Map() };
    });
    return request.done;
  }

  function abortForbidden() {
    if (game.forbiddenRequest) { game.forbiddenRequest.controller.abort(); game.forbiddenRequest = null; }
  }

  function explainForbidden(index) {
    const foul = forbiddenHere().get(index);
    explanationEl.textContent = `${coordinate(index)} is forbidden to X (black) under renju: ${FOUL_TEXT[foul] || foul}. Choose another point.`;
  }

  function humanMove(index) {
    if (game.phase !== 'human' || game.cells[index] !== null) return;
    if (game.human === 'X' && needsForbidden()) {
      const known = game.forbidden && game.forbidden.key === positionKey(game.cells);
      if (!known) {
        // The move waits for the answer (a moment), so a quick second click cannot slip past it.
        const key = positionKey(game.cells);
        game.phase = 'checking';
        render();
        syncForbidden().then(() => {
          if (game.phase !== 'checking' || positionKey(game.cells) !== key) return;
          game.phase = 'human';
          render();
          humanMove(index);
        });
        return;
      }
      if (game.forbidden.cells.has(index)) { explainForbidden(index); return; }
    }
    const boardHadFocus = boardEl.contains(document.activeElement);
    clearError();
    game.history.push(game.cells.slice());
    game.cells[index] = game.human;
    game.moves.push(index);
    game.last = index;
    focusIndex = index;
    const result = resultAfter(game.cells, index);
    if (result) {
      finish(result);
      const move = game.gravity ? `drops in ${columnName(index)}` : named() ? `plays ${coordinate(index)}` : `takes ${index}`;
      explanationEl.textContent = result.winner
        ? `${game.human} ${move} and completes a line.`
        : `${game.human} ${move}, the last free cell.`;
      return;
    }
    aiMove(boardHadFocus);
  }

  async function aiMove(restoreFocus) {
    abortRequests();
    const controller = new AbortController();
    game.moveRequest = controller;
    game.phase = 'ai';
    render();
    syncForbidden();
    const ai = other(game.human);
    try {
      const answer = await api({
        cells: game.cells,
        player: ai,
        difficulty: diffSel.value,
      }, controller, (p) => { if (game.moveRequest === controller) showProgress(p); });
      if (game.moveRequest !== controller) return;
      game.moveRequest = null;
      if (game.cells[answer.index] !== null) throw new Error(`The server suggested cell ${answer.index}, which is taken.`);
      game.cells[answer.index] = ai;
      game.moves.push(answer.index);
      game.last = answer.index;
      explanationEl.textContent = explain(answer, ai);
      const status = answer.status || {};
      let result = null;
      if (status.state === 'win') result = { winner: status.winner, line: status.line || [] };
      else if (status.state === 'draw') result = { winner: null, line: [] };
      else result = resultAfter(game.cells, answer.index);   // belt and braces
      if (result) { finish(result); return; }
      game.phase = 'human';
      render();
      if (restoreFocus || boardEl.contains(document.activeElement)) moveFocus(nearestOpen(focusIndex));
      syncForbidden();
      refreshAnalysis();
    } catch (err) {
      if (game.moveRequest !== controller) return;
      game.moveRequest = null;
      if (err && err.problem && err.problem.code === 'game_over') {
        const p = err.problem;
        finish({ winner: p.winner || null, line: p.line || [] });
        return;
      }
      game.phase = 'error';
      render();
      showError(err && err.message ? err.message : String(err), () => aiMove(restoreFocus));
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
    game.phase = 'over';
    render();
    reviewGame();
  }

  // ---------------------------------------------------------------- live search and review

  const valueText = (score, outcome) => (outcome && outcome !== 'unknown' ? `${outcome}, score ${formatScore({ score })}` : `estimate ${formatScore({ score })}`);

  function showProgress(p) {
    liveEl.hidden = false;
    liveText.textContent = `Depth ${p.depth}: best ${cellName(p.index)}, ${valueText(p.score, p.outcome)}; ` +
      `${p.nodes.toLocaleString('en')} nodes in ${p.elapsed_ms} ms; line ${p.pv.map(shortName).join(' ')}`;
  }

  function hideLive() {
    liveEl.hidden = true;
    liveText.textContent = '';
  }

  function abortReview() {
    if (game.reviewRequest) { game.reviewRequest.abort(); game.reviewRequest = null; }
  }

  function hideReview() {
    abortReview();
    game.review = null;
    reviewEl.hidden = true;
    reviewChart.textContent = '';
    $('review-detail').hidden = true;
    $('review-sentence').textContent = '';
  }

  async function reviewGame() {
    abortReview();
    if (game.moves.length === 0) return;
    const controller = new AbortController();
    game.reviewRequest = controller;
    const body = { moves: game.moves.slice(), rows: game.rows, cols: game.cols, k: game.k };
    if (game.gravity) body.gravity = true;
    if (takesRule(game)) body.rule = game.rule;
    reviewEl.hidden = false;
    $('review-sentence').textContent = 'Reviewing the game\u2026';
    try {
      const res = await fetch('/v1/review', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, application/problem+json' },
        body: JSON.stringify(body),
        signal: controller.signal,
        cache: 'no-store',
      });
      const data = await res.json();
      if (game.reviewRequest !== controller) return;
      game.reviewRequest = null;
      if (!res.ok) throw new Error(problemText(res, data));
      game.review = data;
      drawReview(data);
    } catch (err) {
      if (game.reviewRequest !== controller) return;
      game.reviewRequest = null;
      $('review-sentence').textContent = 'Could not review the game: ' + (err && err.message ? err.message : String(err));
    }
  }

  function svg(name, attributes, parent) {
    const el = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attributes)) el.setAttribute(k, String(v));
    parent.appendChild(el);
    return el;
  }

  // The chart: the value after each move from X's view (1 X wins, -1 O wins), one point a move.
  function drawReview(review) {
    $('review-sentence').textContent = review.sentence;
    reviewChart.textContent = '';
    const W = 360, H = 140, left = 34, right = 10, top = 10, bottom = 10;
    const n = review.moves.length;
    const x = (i) => left + (n <= 1 ? (W - left - right) / 2 : (i * (W - left - right)) / (n - 1));
    const y = (v) => top + ((1 - v) / 2) * (H - top - bottom);
    svg('line', { class: 'axis', x1: left, x2: W - right, y1: y(0), y2: y(0) }, reviewChart);
    for (const [v, label] of [[1, 'X wins'], [0, 'draw'], [-1, 'O wins']]) {
      const t = svg('text', { class: 'axis-label', x: 2, y: y(v) + 3 }, reviewChart);
      t.textContent = label;
    }
    const points = review.moves.map((m, i) => `${x(i).toFixed(1)},${y(m.value_for_x).toFixed(1)}`).join(' ');
    svg('polyline', { class: 'curve', points }, reviewChart);
    // A point whose value is an estimate is drawn hollow and dashed: only proven values sit on
    // the "X wins", "draw" and "O wins" lines as results.
    review.moves.forEach((m, i) => {
      const c = svg('circle', {
        class: `point ${m.label}${m.outcome === 'unknown' ? ' estimate' : ''}`, cx: x(i).toFixed(1), cy: y(m.value_for_x).toFixed(1), r: m.label === 'blunder' ? 6 : 4,
        tabindex: 0, role: 'button', 'data-number': m.number, 'data-label': m.label,
        'aria-label': `Move ${m.number}: ${m.player} played ${shortName(m.cell)}, ${m.label}`,
      }, reviewChart);
      const title = svg('title', {}, c);
      title.textContent = `Move ${m.number}: ${m.player} ${shortName(m.cell)} (${m.label}${m.outcome === 'unknown' ? ', estimated' : ''})`;
    });
  }

  // A move of the review: the position before it, the move played and the best reply.
  function showReviewMove(number) {
    const m = game.review && game.review.moves[number - 1];
    if (!m) return;
    for (const c of reviewChart.querySelectorAll('.point')) c.classList.toggle('selected', Number(c.dataset.number) === number);
    const cells = new Array(game.rows * game.cols).fill(null);
    game.review.moves.slice(0, number - 1).forEach((p) => { cells[p.cell] = p.player; });
    const best = m.best[0];
    const boardEl2 = $('review-board');
    boardEl2.className = `cols-${game.cols}`;
    boardEl2.textContent = '';
    cells.forEach((mark, i) => {
      const d = document.createElement('div');
      d.className = 'mini';
      if (mark) { d.dataset.mark = mark; d.textContent = mark; }
      if (i === m.cell && m.label !== 'best') d.classList.add('played');
      if (i === best) { d.classList.add('best-reply'); if (!mark) d.textContent = '\u2605'; }
      d.dataset.index = String(i);
      boardEl2.appendChild(d);
    });
    boardEl2.setAttribute('aria-label', `Position before move ${number}; ${m.player} to move`);
    if (game.goban) boardEl2.classList.add('goban-mini');
    const better = m.label === 'best' ? 'the best move' : `best was ${cellName(best)} (${valueText(m.best_score, m.best_outcome)})`;
    $('review-caption').textContent = `Move ${m.number}: ${m.player} played ${cellName(m.cell)}, ${m.label} (${valueText(m.score, m.outcome)}); ${better}.`;
    $('review-detail').hidden = false;
  }

  reviewChart.addEventListener('click', (e) => {
    const point = e.target.closest('.point');
    if (point) showReviewMove(Number(point.dataset.number));
  });
  reviewChart.addEventListener('keydown', (e) => {
    const point = e.target.closest('.point');
    if (!point || (e.key !== 'Enter' && e.key !== ' ')) return;
    e.preventDefault();
    showReviewMove(Number(point.dataset.number));
  });

  // Scores for every legal move of the human, for the analysis view.
  async function refreshAnalysis() {
    if (!analysisBox.checked || game.phase !== 'human') { render(); return; }
    const key = positionKey(game.cells);
    if (game.analysis && game.analysis.key === key) { render(); return; }
    abortAnalysis();
    const controller = new AbortController();
    game.analysisRequest = controller;
    render();
    try {
      const answer = await api({
        cells: game.cells,
        player: game.human,
        difficulty: 'perfect',
        moves: true,
        top: TOP_MOVES,
      }, controller);
      if (game.analysisRequest !== controller) return;
      game.analysisRequest = null;
      game.analysis = { key, moves: answer.moves || [], top: answer.top || [], pv: Array.isArray(answer.pv) ? answer.pv : [answer.index] };
      render();
    } catch (err) {
      if (game.analysisRequest !== controller) return;
      game.analysisRequest = null;
      showError('Could not score the moves: ' + (err && err.message ? err.message : String(err)), () => { clearError(); refreshAnalysis(); });
    }
  }

  function readSettings() {
    const gravity = sizeSel.value.endsWith('g');
    const [rows, cols, k] = sizeSel.value.replace(/g$/, '').split('x').map(Number);
    const rule = takesRule({ k, gravity }) ? ruleSel.value : 'freestyle';
    const goban = rows * cols >= 100 && !gravity;
    return { rows, cols, k, gravity, rule, goban, human: sideSel.value === 'O' ? 'O' : 'X' };
  }

  function newGame() {
    abortRequests();
    clearError();
    const s = readSettings();
    const resized = s.rows !== game.rows || s.cols !== game.cols || s.k !== game.k || s.gravity !== game.gravity || buttons.length === 0;
    Object.assign(game, s);
    ruleField.hidden = !takesRule(s);
    game.cells = new Array(s.rows * s.cols).fill(null);
    game.history = [];
    game.moves = [];
    hideReview();
    hideLive();
    game.result = null;
    game.last = null;
    game.analysis = null;
    game.forbidden = null;
    explanationEl.textContent = '';
    if (resized) buildBoard();
    if (toMove(game.cells) === game.human) {
      game.phase = 'human';
      render();
      syncForbidden();
      refreshAnalysis();
    } else {
      aiMove(false);
    }
  }

  function undo() {
    if (game.history.length === 0 || game.phase === 'ai') return;
    abortRequests();
    clearError();
    game.cells = game.history.pop();
    game.moves = game.moves.slice(0, game.cells.filter((c) => c !== null).length);
    hideReview();
    game.result = null;
    // On a goban the mark stays on the newest stone left on the board.
    game.last = game.goban && game.moves.length ? game.moves[game.moves.length - 1] : null;
    explanationEl.textContent = '';
    game.phase = toMove(game.cells) === game.human ? 'human' : 'ai';
    if (game.phase === 'ai') { aiMove(false); return; }
    render();
    syncForbidden();
    refreshAnalysis();
  }

  $('new-game').addEventListener('click', newGame);
  undoBtn.addEventListener('click', undo);
  $('retry').addEventListener('click', () => {
    const again = game.retry;
    clearError();
    if (again) again();
  });
  sizeSel.addEventListener('change', newGame);
  sideSel.addEventListener('change', newGame);
  ruleSel.addEventListener('change', newGame);
  zoomBtn.addEventListener('click', toggleZoom);
  window.addEventListener('resize', updateZoom);
  movesToEndBox.addEventListener('change', render);
  // For the search-tree view (trace.js): the position on the board, read-only.
  window.minimaxPosition = () => ({
    cells: game.cells.slice(), rows: game.rows, cols: game.cols, k: game.k,
    gravity: game.gravity, over: game.result !== null,
  });
  analysisBox.addEventListener('change', () => {
    if (!analysisBox.checked) { abortAnalysis(); render(); return; }
    refreshAnalysis();
  });

  newGame();
})();
