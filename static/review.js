// The review chart: the value after each move from X's view (1 X wins, -1 O wins), drawn as SVG at
// the width it is shown at (one unit a CSS pixel, so its text stays readable on a phone and on a
// 20 x 20 game), with move numbers along the axis and each label told apart by its shape as well
// as its colour: best and good a small dot, inaccuracy a square, mistake a triangle, blunder a
// large cross.

const SVG = 'http://www.w3.org/2000/svg';

export const LABEL_TEXT = { best: 'best', good: 'good', inaccuracy: 'inaccuracy', mistake: 'mistake', blunder: 'blunder' };

function svg(name, attributes, parent) {
  const el = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attributes)) el.setAttribute(k, String(v));
  parent.appendChild(el);
  return el;
}

// The outline of a point's marker at (x, y), by label.
export function markerPath(label, x, y) {
  const f = (n) => n.toFixed(1);
  switch (label) {
    case 'inaccuracy': { const s = 5; return `M${f(x - s)},${f(y - s)}h${2 * s}v${2 * s}h${-2 * s}Z`; }
    case 'mistake': { const s = 7; return `M${f(x)},${f(y - s)}L${f(x + s)},${f(y + s * 0.8)}L${f(x - s)},${f(y + s * 0.8)}Z`; }
    case 'blunder': {
      const a = 7, b = 2.6;
      return `M${f(x - a)},${f(y - a + b)}L${f(x - a + b)},${f(y - a)}L${f(x)},${f(y - b)}L${f(x + a - b)},${f(y - a)}L${f(x + a)},${f(y - a + b)}` +
        `L${f(x + b)},${f(y)}L${f(x + a)},${f(y + a - b)}L${f(x + a - b)},${f(y + a)}L${f(x)},${f(y + b)}L${f(x - a + b)},${f(y + a)}` +
        `L${f(x - a)},${f(y + a - b)}L${f(x - b)},${f(y)}Z`;
    }
    default: { const r = 4; return `M${f(x - r)},${f(y)}a${r},${r} 0 1,0 ${2 * r},0a${r},${r} 0 1,0 ${-2 * r},0Z`; }
  }
}

// Draws `review` into `chart` (an <svg>). `name(cell)` names a cell in text; `selected` is the
// number of the move shown on the board, or null.
export function drawChart(chart, review, name, selected) {
  chart.textContent = '';
  const W = Math.max(280, Math.round(chart.parentElement.clientWidth || 360));
  const H = W < 480 ? 200 : 240;
  chart.setAttribute('viewBox', `0 0 ${W} ${H}`);
  chart.setAttribute('width', String(W));
  chart.setAttribute('height', String(H));
  const left = 58, right = 12, top = 14, bottom = 34;
  const n = review.moves.length;
  const x = (i) => left + (n <= 1 ? (W - left - right) / 2 : (i * (W - left - right)) / (n - 1));
  const y = (v) => top + ((1 - v) / 2) * (H - top - bottom);
  for (const [v, label] of [[1, 'X wins'], [0, 'draw'], [-1, 'O wins']]) {
    svg('line', { class: v === 0 ? 'axis' : 'grid', x1: left, x2: W - right, y1: y(v), y2: y(v) }, chart);
    const t = svg('text', { class: 'axis-label', x: left - 6, y: y(v) + 4, 'text-anchor': 'end' }, chart);
    t.textContent = label;
  }
  // Move numbers along the bottom, at most one label every 30 px.
  const room = n <= 1 ? 1 : (W - left - right) / (n - 1);
  const every = [1, 2, 5, 10, 20, 25, 50, 100].find((s) => s * room >= 30) || 100;
  for (let i = 0; i < n; i++) {
    const number = i + 1;
    if (number !== 1 && number % every !== 0 && number !== n) continue;
    if (number === n && n % every !== 0 && (n - Math.floor(n / every) * every) * room < 24 && n > every) continue;
    svg('line', { class: 'tick', x1: x(i), x2: x(i), y1: H - bottom, y2: H - bottom + 5 }, chart);
    const t = svg('text', { class: 'axis-label move-number', x: x(i), y: H - bottom + 18, 'text-anchor': 'middle' }, chart);
    t.textContent = String(number);
  }
  const caption = svg('text', { class: 'axis-label', x: W - right, y: H - 2, 'text-anchor': 'end' }, chart);
  caption.textContent = 'move';
  if (selected) {
    svg('line', { class: 'cursor', x1: x(selected - 1), x2: x(selected - 1), y1: top, y2: H - bottom }, chart);
  }
  const points = review.moves.map((m, i) => `${x(i).toFixed(1)},${y(m.value_for_x).toFixed(1)}`).join(' ');
  svg('polyline', { class: 'curve', points }, chart);
  // A point whose value is an estimate is drawn dashed: only proven values sit on the "X wins",
  // "draw" and "O wins" lines as results.
  review.moves.forEach((m, i) => {
    const p = svg('path', {
      d: markerPath(m.label, x(i), y(m.value_for_x)),
      class: `point ${m.label}${m.outcome === 'unknown' ? ' estimate' : ''}${selected === m.number ? ' selected' : ''}`,
      tabindex: 0, role: 'button', 'data-number': m.number, 'data-label': m.label,
      'aria-label': `Move ${m.number}: ${m.player} played ${name(m.cell)}, ${m.label}`,
    }, chart);
    const title = svg('title', {}, p);
    title.textContent = `Move ${m.number}: ${m.player} ${name(m.cell)} (${m.label}${m.outcome === 'unknown' ? ', estimated' : ''})`;
  });
}

// The legend under the chart: each label's marker and name.
export function drawLegend(el) {
  el.textContent = '';
  for (const label of ['best', 'inaccuracy', 'mistake', 'blunder']) {
    const item = document.createElement('span');
    item.className = 'legend-item';
    const icon = document.createElementNS(SVG, 'svg');
    icon.setAttribute('viewBox', '0 0 18 18');
    icon.setAttribute('width', '18');
    icon.setAttribute('height', '18');
    icon.setAttribute('aria-hidden', 'true');
    svg('path', { d: markerPath(label, 9, 9), class: `point ${label}` }, icon);
    item.appendChild(icon);
    item.appendChild(document.createTextNode(label === 'best' ? 'best or good' : label));
    el.appendChild(item);
  }
}
