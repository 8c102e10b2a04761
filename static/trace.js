// "How did it decide?": the search tree of POST /v1/trace for the position on the board, or for
// a textbook tree the learner types, walked step by step in visiting order (entering a node with
// its α and β, leaving it with its value and cutoff), with the chosen path, the line of play and
// the node counts of the three algorithms. No inline script: loaded by index.html, CSP-safe.
(() => {
  'use strict';

  const $ = (id) => document.getElementById(id);
  const el = {
    section: $('trace'),
    algorithm: $('trace-algorithm'),
    scoring: $('trace-scoring'),
    ordering: $('trace-ordering'),
    depth: $('trace-depth'),
    position: $('trace-position'),
    treeText: $('trace-tree'),
    treeRun: $('trace-tree-run'),
    quiz: $('trace-quiz'),
    status: $('trace-status'),
    result: $('trace-result'),
    counts: $('trace-counts'),
    explanation: $('trace-explanation'),
    line: $('trace-line'),
    back: $('trace-back'),
    forward: $('trace-forward'),
    start: $('trace-start'),
    end: $('trace-end'),
    step: $('trace-step'),
    now: $('trace-now'),
    quizForm: $('trace-quiz-form'),
    quizAlpha: $('trace-quiz-alpha'),
    quizBeta: $('trace-quiz-beta'),
    quizResult: $('trace-quiz-result'),
    view: $('trace-tree-view'),
  };
  if (!el.section) return;

  const ALGORITHMS = [
    ['minimax', 'Plain minimax'],
    ['alphabeta', 'Alpha-beta'],
    ['alphabeta_table', 'Alpha-beta with a table'],
  ];

  // The trace on show: the answer, its input, the steps, where we are, which nodes are open.
  const view = { answer: null, input: null, steps: [], at: 0, open: new Set(), chosen: new Set(), request: null };

  const bound = (v, sign) => (v === null ? (sign < 0 ? '−∞' : '+∞') : number(v));
  const number = (v) => (Number.isInteger(v) ? String(v).replace('-', '−') : v.toFixed(2).replace('-', '−'));
  const grouped = (n) => (n === null ? 'over the limit' : n.toLocaleString('en-US'));

  // Who made the move into a node: the side to move at its parent.
  function mover(node) {
    const max = view.answer.player;
    if (!max) return node.player === 'max' ? 'MIN' : 'MAX';
    const other = max === 'X' ? 'O' : 'X';
    return node.player === 'max' ? other : max;
  }

  function describe(node) {
    if (node.label) return node.label;
    if (node.move === null) return 'the root';
    return view.answer.player ? `${mover(node)} ${node.move}` : `child ${node.move}`;
  }

  // The steps in visiting order: enter each node (α, β on entry), leave it (value, cutoff).
  function buildSteps(root) {
    const steps = [];
    const walk = (node, path) => {
      steps.push({ kind: 'enter', node, path });
      node.children.forEach((child, i) => walk(child, path.concat(i)));
      steps.push({ kind: 'leave', node, path });
    };
    walk(root, []);
    return steps;
  }

  function chosenPath(root) {
    const ids = new Set();
    let node = root;
    while (node) {
      ids.add(node.order);
      node = node.children.find((c) => c.move === node.best && node.best !== null);
    }
    return ids;
  }

  // ---------------------------------------------------------------- requests

  async function run(input) {
    if (view.request) view.request.abort();
    const controller = new AbortController();
    view.request = controller;
    const body = { ...input, algorithm: el.algorithm.value };
    if (input.board) {
      body.scoring = el.scoring.value;
      body.ordering = el.ordering.checked;
      const depth = Number(el.depth.value);
      if (el.depth.value !== '' && depth >= 1) body.max_depth = depth;
    }
    el.status.textContent = 'Tracing…';
    el.section.dataset.state = 'loading';
    try {
      const res = await fetch('v1/trace', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: controller.signal,
      });
      const data = await res.json().catch(() => null);
      if (!res.ok || !data) {
        el.status.textContent = data && data.detail ? `Cannot trace: ${data.detail}` : `Cannot trace (HTTP ${res.status}).`;
        el.section.dataset.state = 'error';
        return;
      }
      show(input, data);
    } catch (e) {
      if (e.name !== 'AbortError') {
        el.status.textContent = 'Cannot reach the server.';
        el.section.dataset.state = 'error';
      }
    } finally {
      if (view.request === controller) view.request = null;
    }
  }

  function tracePosition() {
    const get = window.minimaxPosition;
    const p = get && get();
    if (!p) return;
    if (p.over) {
      el.status.textContent = 'The game is over: start a new game, or trace a textbook tree.';
      return;
    }
    const board = p.cells.map((c) => c || '.').join('');
    const input = { board, rows: p.rows, cols: p.cols, k: p.k };
    if (p.gravity) input.gravity = true;
    run(input);
  }

  // "[[1,2],[3]]", "((3 12 8)(2 4 6))", or "2: -1 4 2 6" (branching factor: leaves).
  function readTree(text) {
    const t = text.trim();
    const leaves = /^(\d+)\s*:\s*(.+)$/.exec(t);
    if (leaves) return { branching: Number(leaves[1]), leaves: leaves[2].split(/[\s,]+/).filter(Boolean).map(Number) };
    if (t.startsWith('[')) {
      try {
        return { tree: JSON.parse(t) };
      } catch (_) {
        return null;
      }
    }
    return { tree: t };
  }

  function traceTree() {
    const input = readTree(el.treeText.value);
    if (!input) {
      el.status.textContent = 'That tree is not valid JSON: write nested arrays such as [[3, 12], [2, 4]].';
      el.section.dataset.state = 'error';
      return;
    }
    run(input);
  }

  // ---------------------------------------------------------------- showing a trace

  function show(input, answer) {
    view.input = input;
    view.answer = answer;
    view.steps = buildSteps(answer.root);
    view.at = 0;
    view.chosen = chosenPath(answer.root);
    view.open = new Set([answer.root.order]);
    if (answer.listed <= 40) {
      for (const s of view.steps) view.open.add(s.node.order);
    }
    el.result.hidden = false;
    el.section.dataset.state = 'ready';
    el.status.textContent = `Traced ${answer.nodes.toLocaleString('en-US')} nodes under ${label(answer.algorithm)}; value ${number(answer.value)}.`;
    el.explanation.textContent = answer.explanation;
    renderCounts();
    renderLine();
    renderTree();
    goTo(0);
  }

  const label = (algorithm) => ALGORITHMS.find(([a]) => a === algorithm)[1].toLowerCase();

  function renderCounts() {
    const a = view.answer;
    const minimax = a.counts.minimax;
    el.counts.replaceChildren();
    const head = document.createElement('tr');
    for (const h of ['Algorithm', 'Nodes', 'Saved']) {
      const th = document.createElement('th');
      th.scope = 'col';
      th.textContent = h;
      head.append(th);
    }
    el.counts.append(head);
    for (const [key, name] of ALGORITHMS) {
      const tr = document.createElement('tr');
      tr.dataset.algorithm = key;
      if (key === a.algorithm) tr.className = 'traced';
      const th = document.createElement('th');
      th.scope = 'row';
      th.textContent = name;
      const n = document.createElement('td');
      n.textContent = grouped(a.counts[key]);
      const saved = document.createElement('td');
      const count = a.counts[key];
      saved.textContent = minimax && count !== null ? `${Math.round((100 * (minimax - count)) / minimax)}%` : '–';
      tr.append(th, n, saved);
      el.counts.append(tr);
    }
  }

  // The line of play: on the board, the moves numbered in order; for a tree, the path's letters.
  function renderLine() {
    const a = view.answer;
    el.line.replaceChildren();
    if (!view.input.board) {
      const names = [a.root.label];
      let node = a.root;
      for (const m of a.line) {
        node = node && node.children.find((c) => c.move === m);
        names.push(node ? node.label : `child ${m}`);
      }
      el.line.textContent = `Chosen path: ${names.join(' → ')}`;
      el.line.className = 'trace-line text';
      return;
    }
    const { rows = 3, cols = 3, board } = view.input;
    el.line.className = 'trace-line';
    el.line.style.setProperty('--cols', cols);
    el.line.setAttribute('aria-label', `Line of play: ${a.line.join(', ') || 'none'}`);
    let mark = a.player;
    const order = new Map();
    a.line.forEach((m, i) => {
      order.set(m, { n: i + 1, mark });
      mark = mark === 'X' ? 'O' : 'X';
    });
    for (let i = 0; i < rows * cols; i++) {
      const cell = document.createElement('span');
      const c = board[i];
      if (c === 'X' || c === 'O') {
        cell.textContent = c;
        cell.className = 'placed';
      } else if (order.has(i)) {
        const o = order.get(i);
        cell.textContent = `${o.mark}${o.n}`;
        cell.className = o.n === 1 ? 'line first' : 'line';
      }
      el.line.append(cell);
    }
  }

  function nodeRow(node, pruned) {
    const row = document.createElement('div');
    row.className = 'trace-row';
    const name = document.createElement('span');
    name.className = 'trace-name';
    name.textContent = `${describe(node)} (${node.player.toUpperCase()})`;
    const bounds = document.createElement('span');
    bounds.className = 'trace-bounds';
    bounds.textContent = `α ${bound(node.alpha, -1)} β ${bound(node.beta, 1)}`;
    const value = document.createElement('span');
    value.className = 'trace-value';
    row.append(name, bounds, value);
    if (pruned) row.append(pruned);
    return row;
  }

  // The tree as nested lists, one item per listed node, pruned moves greyed with the reason.
  function renderTree() {
    el.view.replaceChildren(item(view.answer.root, 1));
  }

  function item(node, level) {
    const li = document.createElement('li');
    li.setAttribute('role', 'treeitem');
    li.setAttribute('aria-level', String(level));
    li.dataset.order = String(node.order);
    if (view.chosen.has(node.order)) li.dataset.chosen = 'true';
    const hasChildren = node.children.length > 0;
    const row = nodeRow(node);
    if (hasChildren) {
      const toggle = document.createElement('button');
      toggle.type = 'button';
      toggle.className = 'trace-toggle';
      toggle.setAttribute('aria-label', `Show or hide the children of ${describe(node)}`);
      toggle.addEventListener('click', () => {
        if (view.open.has(node.order)) view.open.delete(node.order);
        else view.open.add(node.order);
        syncOpen();
      });
      row.prepend(toggle);
    }
    li.append(row);
    if (hasChildren || node.cutoff || node.summarised) {
      const ul = document.createElement('ul');
      ul.setAttribute('role', 'group');
      for (const child of node.children) ul.append(item(child, level + 1));
      if (node.cutoff) {
        for (const m of node.cutoff.pruned) {
          const p = document.createElement('li');
          p.className = 'pruned';
          p.dataset.parent = String(node.order);
          const who = view.answer.player ? `${node.player === 'max' ? view.answer.player : view.answer.player === 'X' ? 'O' : 'X'} ${m}` : `child ${m}`;
          const c = node.cutoff;
          p.textContent = `${who}: pruned, cut off by ${c.by === 'alpha' ? 'α' : 'β'} (α ${number(c.alpha)} ≥ β ${number(c.beta)})`;
          ul.append(p);
        }
      }
      if (node.summarised) {
        const s = document.createElement('li');
        s.className = 'summary';
        s.textContent = `${(node.nodes - 1).toLocaleString('en-US')} nodes below, searched but not listed`;
        ul.append(s);
      }
      li.append(ul);
    }
    return li;
  }

  function syncOpen() {
    for (const li of el.view.querySelectorAll('li[role="treeitem"]')) {
      const order = Number(li.dataset.order);
      const ul = li.querySelector(':scope > ul');
      if (!ul) continue;
      const open = view.open.has(order);
      ul.hidden = !open;
      const toggle = li.querySelector(':scope > .trace-row > .trace-toggle');
      if (toggle) {
        toggle.setAttribute('aria-expanded', String(open));
        toggle.textContent = open ? '▾' : '▸';
      }
      li.setAttribute('aria-expanded', String(open));
    }
  }

  // ---------------------------------------------------------------- stepping

  function goTo(at) {
    const steps = view.steps;
    view.at = Math.max(0, Math.min(at, steps.length - 1));
    const step = steps[view.at];
    // Every node entered so far is visited; every node left so far shows its value.
    const entered = new Set();
    const left = new Set();
    for (let i = 0; i <= view.at; i++) {
      (steps[i].kind === 'enter' ? entered : left).add(steps[i].node.order);
    }
    // Open the way to the current node.
    let node = view.answer.root;
    view.open.add(node.order);
    for (const i of step.path) {
      node = node.children[i];
      view.open.add(node.order);
    }
    const finished = view.at === steps.length - 1;
    for (const li of el.view.querySelectorAll('li[role="treeitem"]')) {
      const order = Number(li.dataset.order);
      const n = findNode(order);
      li.classList.toggle('visited', entered.has(order));
      li.classList.toggle('current', order === step.node.order);
      li.classList.toggle('chosen', finished && view.chosen.has(order));
      const value = li.querySelector(':scope > .trace-row > .trace-value');
      value.textContent = left.has(order) ? `= ${number(n.value)}${n.cutoff ? ' cut' : ''}${n.table ? ' table' : ''}` : '';
      if (order === step.node.order) li.setAttribute('aria-current', 'step');
      else li.removeAttribute('aria-current');
    }
    for (const p of el.view.querySelectorAll('li.pruned')) {
      p.classList.toggle('shown', left.has(Number(p.dataset.parent)));
    }
    syncOpen();
    el.step.textContent = `Step ${view.at + 1} of ${steps.length}`;
    el.back.disabled = view.at === 0;
    el.start.disabled = view.at === 0;
    el.forward.disabled = finished;
    el.end.disabled = finished;
    el.now.textContent = narrate(step);
    quizFor(step);
    const current = el.view.querySelector('li.current > .trace-row');
    if (current && current.scrollIntoView) current.scrollIntoView({ block: 'nearest' });
  }

  function findNode(order) {
    const stack = [view.answer.root];
    while (stack.length) {
      const n = stack.pop();
      if (n.order === order) return n;
      stack.push(...n.children);
    }
    return null;
  }

  function narrate(step) {
    const n = step.node;
    const who = n.player === 'max' ? 'MAX' : 'MIN';
    if (step.kind === 'enter') {
      return `Enter ${describe(n)}, ${who} to move, with α = ${bound(n.alpha, -1)} and β = ${bound(n.beta, 1)}.`;
    }
    let text = `Leave ${describe(n)} with value ${number(n.value)}`;
    if (n.leaf === 'given') text += ' (a leaf)';
    else if (n.leaf === 'horizon') text += ' (the static evaluation at the depth limit)';
    else if (n.leaf) text += ` (the game ends: ${n.leaf === 'draw' ? 'a draw' : n.leaf === 'win' ? 'MAX wins' : 'MIN wins'})`;
    else if (n.table && n.table.settled) text += ` (from the table: ${n.table.bound} value)`;
    else if (n.best !== null) {
      const child = n.children.find((c) => c.move === n.best);
      if (child) text += `, given by ${describe(child)}`;
    }
    if (n.cutoff) {
      const c = n.cutoff;
      text += `. Cut off by ${c.by === 'alpha' ? 'α' : 'β'}: α ${number(c.alpha)} ≥ β ${number(c.beta)}, so ${c.pruned.length} move${c.pruned.length === 1 ? '' : 's'} left unsearched`;
    }
    if (n.summarised) text += `. Its ${(n.nodes - 1).toLocaleString('en-US')} descendants are not listed`;
    return `${text}.`;
  }

  // ---------------------------------------------------------------- the learner's α and β

  const parseBound = (text) => {
    const t = text.trim().replace('−', '-').toLowerCase();
    if (['-inf', '-∞', '-infinity'].includes(t)) return null;
    if (['inf', '+inf', '∞', '+∞', 'infinity'].includes(t)) return null;
    if (t === '' || Number.isNaN(Number(t))) return undefined;
    return Number(t);
  };

  function quizFor(step) {
    const asking = el.quiz.checked && step.kind === 'enter' && view.answer.algorithm !== 'minimax';
    el.quizForm.hidden = !asking;
    el.quizResult.textContent = '';
    el.quizAlpha.value = '';
    el.quizBeta.value = '';
  }

  function checkQuiz(event) {
    event.preventDefault();
    const n = view.steps[view.at].node;
    const alpha = parseBound(el.quizAlpha.value);
    const beta = parseBound(el.quizBeta.value);
    if (alpha === undefined || beta === undefined) {
      el.quizResult.textContent = 'Enter a number, or −∞ / +∞ (also -inf / inf).';
      return;
    }
    const ok = alpha === n.alpha && beta === n.beta;
    el.quizResult.dataset.ok = String(ok);
    el.quizResult.textContent = ok
      ? 'Right.'
      : `Not quite: α = ${bound(n.alpha, -1)}, β = ${bound(n.beta, 1)} on entry to ${describe(n)}.`;
  }

  // ---------------------------------------------------------------- wiring

  el.position.addEventListener('click', tracePosition);
  el.treeRun.addEventListener('click', traceTree);
  el.back.addEventListener('click', () => goTo(view.at - 1));
  el.forward.addEventListener('click', () => goTo(view.at + 1));
  el.start.addEventListener('click', () => goTo(0));
  el.end.addEventListener('click', () => goTo(view.steps.length - 1));
  el.quizForm.addEventListener('submit', checkQuiz);
  el.quiz.addEventListener('change', () => view.answer && quizFor(view.steps[view.at]));
  for (const control of [el.algorithm, el.scoring, el.ordering]) {
    control.addEventListener('change', () => {
      if (view.input) run(view.input);
    });
  }
  el.result.addEventListener('keydown', (e) => {
    if (!view.answer || e.target.tagName === 'INPUT') return;
    if (e.key === 'ArrowRight') goTo(view.at + 1);
    else if (e.key === 'ArrowLeft') goTo(view.at - 1);
    else if (e.key === 'Home') goTo(0);
    else if (e.key === 'End') goTo(view.steps.length - 1);
    else return;
    e.preventDefault();
  });
})();
