// The numerics overlay (`etviz PROGRAM --etdump RUN.etdp --debug-buffer RUN.bin --reference
// REF.etdp --reference-debug-buffer REF.bin`): where accuracy is lost. Nodes are coloured by
// the gap between the run's intermediate output and the reference's (MSE on the profile's
// heat scale, logarithmic; identical outputs pale), the first divergent node outlined; the
// panel shows a node's figures, both tensors' statistics and a small histogram of the
// differences; a sortable table of every compared output sits under the canvas. Reads the
// page's etviz-numerics element (src/render/html/numerics_data.cpp): C++ computed every figure
// (analysis/tensor_compare.h) and every heat step. docs/numerics.md.
import { readPageElement } from './data.js';
import { overlaySection } from './panel.js';
import { indexByGraph, toggleLegend } from './overlay.js';
import { dockTable, markSorted, nextSort } from './dock_table.js';

/**
 * @typedef {object} NumericsStats
 * @property {number} count
 * @property {number} nan
 * @property {number} inf
 * @property {number} zeros
 * @property {number|string} min
 * @property {number|string} max
 * @property {number|string} mean
 * @property {number|string} std
 * @property {number|string} absMax
 * @property {number[]} histogram
 */
/**
 * @typedef {object} NumericsRow
 * @property {string} name
 * @property {number} instruction
 * @property {boolean} output
 * @property {string} status
 * @property {boolean} divergent
 * @property {string} tensor
 * @property {string} [op]
 * @property {string} [note]
 * @property {string} [crossed]
 * @property {string} [domain]
 * @property {number|string} [mse]
 * @property {number|string} [l1]
 * @property {number|string} [snr]
 * @property {number|string} [cosine]
 * @property {number|string} [maxAbs]
 * @property {number} [differing]
 * @property {number[]} [nonfinite] NaN, Inf of the reference, then of the run
 * @property {NumericsStats} [runStats]
 * @property {NumericsStats} [referenceStats]
 * @property {{lo: number, hi: number, counts: number[]}} [differences]
 */
/**
 * The etviz-numerics element.
 * @typedef {object} NumericsData
 * @property {string} run
 * @property {string} reference
 * @property {string[]} thresholds
 * @property {string[]} warnings
 * @property {number|null} firstDivergent a rows index
 * @property {{light: string[], dark: string[]}} heat
 * @property {number[]} mseRange smallest positive and largest MSE
 * @property {NumericsRow[]} rows
 * @property {{graph: number, node: number[], row: number[], step: number[]}[]} graphs
 */

const COLUMNS = [
  { key: 'index', label: '#' },
  { key: 'instruction', label: 'instr' },
  { key: 'op', label: 'op', text: true },
  { key: 'tensor', label: 'tensor', text: true },
  { key: 'status', label: 'status', text: true },
  { key: 'mse', label: 'MSE' },
  { key: 'snr', label: 'SNR (dB)' },
  { key: 'cosine', label: 'cosine' },
  { key: 'maxAbs', label: 'max |Δ|' },
];

// A figure as the table and panel show it ("inf" and "nan" come as text).
export function formatFigure(v) {
  if (typeof v !== 'number') return v === undefined ? '' : String(v);
  if (v === 0) return '0';
  return Math.abs(v) >= 1e-3 && Math.abs(v) < 1e6 ? String(Number(v.toPrecision(6))) : v.toExponential(3);
}

// A figure for sorting: text figures ("inf", "nan") and missing ones order by meaning.
function sortable(v) {
  if (typeof v === 'number') return v;
  if (v === 'inf') return Infinity;
  if (v === '-inf') return -Infinity;
  return NaN;
}

function mix(hex, other, t) {
  const p = (h) => [1, 3, 5].map((k) => parseInt(h.slice(k, k + 2), 16));
  const a = p(hex),
    b = p(other);
  return (
    '#' +
    a
      .map((x, k) =>
        Math.round(x + (b[k] - x) * t)
          .toString(16)
          .padStart(2, '0'),
      )
      .join('')
  );
}

// Implements the overlay interface (overlay.js).
export class NumericsOverlay {
  static fromPage(doc) {
    const data = readPageElement(doc, 'etviz-numerics');
    return data ? new NumericsOverlay(data) : null;
  }

  /** @param {NumericsData} data */
  constructor(data) {
    this.id = 'numerics';
    this.data = data;
    this.on = true;
    this.cache = null;
    this.index = indexByGraph(data.graphs);
    // Row -> [page graph, node] where the row's node is drawn.
    this.nodeOfRow = new Map();
    for (const g of data.graphs) g.row.forEach((r, k) => this.nodeOfRow.set(r, [g.graph, g.node[k]]));
    this.sortKey = 'index';
    this.sortDesc = false;
  }

  attach(host) {
    this.host = host;
    this.buildLegend();
    this.buildTable();
    host.keys.bind('d', 'show / hide the numerics table', () => this.setOpen(this.ui.el.classList.contains('closed')));
  }

  // The row node i of the shown graph shows, or -1.
  rowOf(i) {
    const e = this.index.get(this.host.graphIndex);
    if (!e) return -1;
    const k = e.m.get(i);
    return k === undefined ? -1 : e.g.row[k];
  }

  // The first divergent row's node in the shown graph, or -1.
  firstDivergentNode() {
    const f = this.data.firstDivergent;
    if (f === null) return -1;
    const at = this.nodeOfRow.get(f);
    return at && at[0] === this.host.graphIndex ? at[1] : -1;
  }

  // The node colouring (overlay.js): styles 0..7 the heat steps, then identical, then no
  // compared output, then the first divergent node (its step's fill, a strong outline).
  nodeStyles() {
    if (!this.on) return null;
    const host = this.host;
    const dark = host.theme.dark;
    const key = `${host.graphIndex}|${dark}`;
    if (this.cache && this.cache.key === key) return this.cache.styled;
    const palette = dark ? this.data.heat.dark : this.data.heat.light;
    const styles = palette.map((c) => {
      const stroke = dark ? mix(c, '#ffffff', 0.3) : mix(c, '#000000', 0.3);
      return { fill: c, stroke, strip: stroke };
    });
    const same = styles.length;
    styles.push({
      fill: dark ? '#2f3a33' : '#eef6ef',
      stroke: dark ? '#5f7a66' : '#8fb79a',
      strip: dark ? '#5f7a66' : '#8fb79a',
    });
    const none = styles.length;
    styles.push({
      fill: host.theme.collapsedFill,
      stroke: host.theme.collapsedStroke,
      strip: host.theme.collapsedStroke,
    });
    const first = styles.length;
    const bucket = new Uint8Array(host.model.nodeCount).fill(none);
    const e = this.index.get(host.graphIndex);
    let firstStep = palette.length - 1;
    if (e)
      e.g.node.forEach((n, k) => {
        if (n >= bucket.length) return;
        const step = e.g.step[k];
        const row = this.data.rows[e.g.row[k]];
        bucket[n] = step >= 0 ? step : row.status === 'compared' ? same : none;
        if (e.g.row[k] === this.data.firstDivergent && step >= 0) firstStep = step;
      });
    const fd = this.firstDivergentNode();
    const outline = dark ? '#ff6b6b' : '#c00000';
    styles.push({ fill: palette[firstStep], stroke: outline, strip: outline });
    if (fd >= 0 && fd < bucket.length) bucket[fd] = first;
    const styled = { bucket, styles };
    this.cache = { key, styled };
    return styled;
  }

  setOn(on) {
    this.on = on;
    this.cache = null;
    this.updateLegend();
    this.host.redraw();
  }

  buildLegend() {
    const { box, head, title, toggle, body, warn } = toggleLegend(
      'numerics-legend',
      'legend heat-legend nd-legend',
      'Numerics',
      () => this.setOn(!this.on),
    );
    const first = document.createElement('div');
    first.className = 'heat-none numerics-first';
    const jump = document.createElement('button');
    jump.className = 'btn numerics-jump';
    jump.textContent = 'show';
    jump.title = 'Select the first divergent node';
    jump.addEventListener('click', () => {
      const f = this.data.firstDivergent;
      if (f !== null) this.pickRow(f);
    });
    box.append(head, body, first, warn);
    this.legend = { box, title, toggle, body, first, jump, warn };
    this.host.stage.appendChild(box);
  }

  updateLegend() {
    const L = this.legend;
    if (!L) return;
    L.toggle.textContent = this.on ? 'on' : 'off';
    L.toggle.classList.toggle('on', this.on);
    L.box.dataset.on = String(this.on);
    L.title.textContent = `Numerics · ${this.data.run} vs ${this.data.reference}`;
    L.body.hidden = !this.on;
    const palette = this.host.theme.dark ? this.data.heat.dark : this.data.heat.light;
    const bar = document.createElement('div');
    bar.className = 'nd-bar heat-bar';
    bar.style.background = `linear-gradient(to right, ${palette
      .flatMap((c, k) => [
        `${c} ${((k / palette.length) * 100).toFixed(1)}%`,
        `${c} ${(((k + 1) / palette.length) * 100).toFixed(1)}%`,
      ])
      .join(', ')})`;
    const ticks = document.createElement('div');
    ticks.className = 'heat-ticks';
    const [lo, hi] = this.data.mseRange;
    for (const v of [lo, Math.sqrt(lo * hi), hi]) {
      const s = document.createElement('span');
      s.textContent = formatFigure(v);
      ticks.appendChild(s);
    }
    const label = document.createElement('div');
    label.className = 'heat-none';
    label.textContent = `MSE, log scale · divergent when ${this.data.thresholds.join(' or ')}`;
    L.body.replaceChildren(label, bar, ticks);
    const f = this.data.firstDivergent;
    L.first.textContent =
      f === null
        ? 'No divergent output'
        : `First divergent: #${f} ${this.data.rows[f].op || this.data.rows[f].name} (${this.data.rows[f].crossed || ''}) `;
    if (f !== null && this.nodeOfRow.has(f)) L.first.appendChild(L.jump);
    L.warn.hidden = !this.data.warnings.length;
    L.warn.textContent = this.data.warnings.length ? `⚠ ${this.data.warnings.length} warnings` : '';
    L.warn.title = this.data.warnings.join('\n');
  }

  buildTable() {
    const compared = this.data.rows.filter((r) => r.status === 'compared').length;
    const divergent = this.data.rows.filter((r) => r.divergent).length;
    const { el, toggle, table, tbody } = dockTable({
      id: 'numerics-drawer',
      className: 'profile-drawer nd-drawer',
      tableClass: 'profile-table numerics-table',
      toggleTitle: 'Show or hide the numerics table (d)',
      title: `${this.data.run} vs ${this.data.reference} · ${compared.toLocaleString('en-US')} compared, ${divergent.toLocaleString('en-US')} divergent`,
      warnings: this.data.warnings,
      columns: COLUMNS,
      onToggle: () => this.setOpen(el.classList.contains('closed')),
      onSort: (key) => this.sortBy(key),
    });
    this.host.dock.appendChild(el);
    this.ui = { el, toggle, table, tbody };
    this.rows = this.data.rows.map((r, index) => ({ ...r, index, op: r.op || r.name }));
    this.setOpen(false);
  }

  setOpen(open) {
    this.ui.el.classList.toggle('closed', !open);
    this.ui.toggle.textContent = open ? '▾ Numerics' : '▸ Numerics';
    if (open) this.renderTable();
  }

  sortBy(key) {
    ({ key: this.sortKey, desc: this.sortDesc } = nextSort(COLUMNS, this.sortKey, this.sortDesc, key));
    this.renderTable();
  }

  // Rows sorted by the chosen column; rows without the figure (not compared) last.
  sortedRows() {
    const key = this.sortKey;
    const col = COLUMNS.find((c) => c.key === key);
    const dir = this.sortDesc ? -1 : 1;
    const order = this.rows.map((_, k) => k);
    order.sort((a, b) => {
      const x = this.rows[a],
        y = this.rows[b];
      let c;
      if (col && col.text) c = String(x[key] ?? '').localeCompare(String(y[key] ?? '')) * dir;
      else {
        const xv = sortable(x[key]),
          yv = sortable(y[key]);
        const xn = Number.isNaN(xv),
          yn = Number.isNaN(yv);
        c = xn || yn ? (xn === yn ? 0 : xn ? 1 : -1) : (xv === yv ? 0 : xv < yv ? -1 : 1) * dir;
      }
      return c || a - b;
    });
    return order;
  }

  renderTable() {
    const { table, tbody } = this.ui;
    markSorted(table, this.sortKey, this.sortDesc);
    const out = [];
    for (const k of this.sortedRows().slice(0, 2000)) {
      const r = this.rows[k];
      const tr = document.createElement('tr');
      tr.className = this.nodeOfRow.has(k) ? 'joined' : '';
      if (r.divergent) tr.classList.add('divergent');
      if (k === this.data.firstDivergent) tr.classList.add('first-divergent');
      tr.dataset.row = String(k);
      const cells = [
        String(k),
        r.output ? 'output' : String(r.instruction),
        r.op,
        r.tensor,
        r.status === 'compared' ? r.domain || '' : r.status,
        formatFigure(r.mse),
        formatFigure(r.snr),
        formatFigure(r.cosine),
        formatFigure(r.maxAbs),
      ];
      cells.forEach((text, c) => {
        const td = document.createElement('td');
        if (c <= 1 || c >= 5) td.className = 'num';
        td.textContent = text;
        tr.appendChild(td);
      });
      tr.addEventListener('click', () => this.pickRow(k));
      out.push(tr);
    }
    tbody.replaceChildren(...out);
    this.highlight(this.host.selectedNode);
  }

  highlight(i) {
    const row = i >= 0 ? this.rowOf(i) : -1;
    for (const tr of this.ui.tbody.rows) tr.classList.toggle('active', Number(tr.dataset.row) === row);
  }

  pickRow(k) {
    const at = this.nodeOfRow.get(k);
    if (!at) return;
    if (at[0] !== this.host.graphIndex) this.host.selectGraph(at[0]);
    this.host.selectNode(at[1], { center: true });
  }

  onGraph() {
    this.cache = null;
    this.updateLegend();
  }

  onSelect(i) {
    this.highlight(i);
  }

  // Both tensors' statistics side by side.
  statsTable(r) {
    const t = document.createElement('table');
    t.className = 'numerics-stats';
    const head = document.createElement('tr');
    for (const h of ['', 'reference', 'run']) {
      const th = document.createElement('th');
      th.textContent = h;
      head.appendChild(th);
    }
    t.appendChild(head);
    for (const [label, key] of [
      ['min', 'min'],
      ['max', 'max'],
      ['mean', 'mean'],
      ['std', 'std'],
      ['abs max', 'absMax'],
      ['zeros', 'zeros'],
      ['NaN', 'nan'],
      ['Inf', 'inf'],
    ]) {
      const tr = document.createElement('tr');
      for (const text of [label, formatFigure(r.referenceStats?.[key]), formatFigure(r.runStats?.[key])]) {
        const td = document.createElement('td');
        td.textContent = text;
        tr.appendChild(td);
      }
      t.appendChild(tr);
    }
    return t;
  }

  // The differences' histogram (run - reference) as bars over [lo, hi].
  histogram(d) {
    const ns = 'http://www.w3.org/2000/svg';
    const svg = document.createElementNS(ns, 'svg');
    const w = 200,
      h = 48;
    svg.setAttribute('viewBox', `0 0 ${w} ${h + 12}`);
    svg.setAttribute('class', 'numerics-hist');
    const max = Math.max(1, ...d.counts);
    const bw = w / d.counts.length;
    d.counts.forEach((c, k) => {
      const bh = c > 0 ? Math.max(1, (c / max) * h) : 0;
      const rect = document.createElementNS(ns, 'rect');
      rect.setAttribute('x', String(k * bw + 0.5));
      rect.setAttribute('y', String(h - bh));
      rect.setAttribute('width', String(Math.max(bw - 1, 1)));
      rect.setAttribute('height', String(bh));
      rect.setAttribute('fill', 'currentColor');
      const title = document.createElementNS(ns, 'title');
      const lo = d.lo + ((d.hi - d.lo) * k) / d.counts.length;
      title.textContent = `${formatFigure(lo)} … ${formatFigure(lo + (d.hi - d.lo) / d.counts.length)}: ${c}`;
      rect.appendChild(title);
      svg.appendChild(rect);
    });
    for (const [x, text, anchor] of [
      [0, formatFigure(d.lo), 'start'],
      [w, formatFigure(d.hi), 'end'],
    ]) {
      const t = document.createElementNS(ns, 'text');
      t.setAttribute('x', String(x));
      t.setAttribute('y', String(h + 11));
      t.setAttribute('text-anchor', String(anchor));
      t.setAttribute('font-size', '9');
      t.setAttribute('fill', 'currentColor');
      t.textContent = String(text);
      svg.appendChild(t);
    }
    return svg;
  }

  // The node's figures, both tensors' statistics and the differences' histogram.
  panelSection(i) {
    if (!this.index.has(this.host.graphIndex)) return null;
    const k = this.rowOf(i);
    const { sec, kv } = overlaySection(`Numerics · vs ${this.data.reference}`, 'numerics-section');
    if (k < 0) {
      kv('output', 'not logged in the run');
      return sec;
    }
    const r = this.data.rows[k];
    sec.dataset.row = String(k);
    kv('row', `#${k}${k === this.data.firstDivergent ? ' · first divergent' : r.divergent ? ' · divergent' : ''}`);
    kv('tensor', r.tensor, 'mono');
    if (r.status !== 'compared') {
      kv('status', `${r.status}${r.note ? ': ' + r.note : ''}`);
      return sec;
    }
    kv('domain', r.domain || '');
    kv('MSE', formatFigure(r.mse), 'numerics-mse');
    kv('L1', formatFigure(r.l1));
    kv('SNR', `${formatFigure(r.snr)} dB`, 'numerics-snr');
    kv('cosine', formatFigure(r.cosine));
    kv('max |Δ|', formatFigure(r.maxAbs));
    kv('differing', (r.differing ?? 0).toLocaleString('en-US'));
    if (r.nonfinite && r.nonfinite.some((x) => x > 0))
      kv('NaN/Inf', `reference ${r.nonfinite[0]}/${r.nonfinite[1]} · run ${r.nonfinite[2]}/${r.nonfinite[3]}`);
    if (r.crossed) kv('crossed', r.crossed);
    if (r.referenceStats || r.runStats) sec.appendChild(this.statsTable(r));
    if (r.differences && r.differences.counts.length) {
      const cap = document.createElement('div');
      cap.className = 'k';
      cap.textContent = 'run − reference';
      sec.append(cap, this.histogram(r.differences));
    }
    return sec;
  }

  // Read-only helpers for tests (docs/viewer.md, "Test facade").
  facade() {
    return {
      on: () => this.on,
      setOn: (on) => this.setOn(on),
      // The rows index node i shows, or -1.
      rowOf: (i) => this.rowOf(i),
      row: (k) => ({ ...this.data.rows[k] }),
      firstDivergent: () => this.data.firstDivergent,
      firstDivergentNode: () => this.firstDivergentNode(),
      bucket: (i) => {
        const s = this.nodeStyles();
        return s ? s.bucket[i] : null;
      },
      styles: () => {
        const s = this.nodeStyles();
        return s ? s.styles.map((x) => ({ ...x })) : null;
      },
      setOpen: (open) => this.setOpen(open),
      sortBy: (key) => this.sortBy(key),
      // The table's rows in their shown order: [{row, mse, snr}].
      tableRows: () =>
        [...this.ui.tbody.rows].map((tr) => {
          const r = this.rows[Number(tr.dataset.row)];
          return { row: r.index, mse: r.mse, snr: r.snr, divergent: r.divergent };
        }),
      pickRow: (k) => this.pickRow(k),
    };
  }
}
