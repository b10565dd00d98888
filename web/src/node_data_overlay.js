// The node data overlay (`etviz model.pte --node-data values.json`): Model Explorer's node
// data (per-node values with a gradient, thresholds or their own colours) over the graph:
// nodes in the value's colour with a legend, the value in the details panel, and a sortable
// table of every value under the canvas. Reads the page's etviz-node-data element
// (src/render/html/node_data.cpp); C++ matched the keys and computed every colour, the same
// colours `etviz export --node-data` draws.
import { readPageElement } from './data.js';
import { overlaySection } from './panel.js';
import { indexByGraph, toggleLegend } from './overlay.js';
import { dockTable, markSorted, nextSort } from './dock_table.js';

const COLUMNS = [
  { key: 'name', label: 'node', text: true },
  { key: 'key', label: 'key', text: true, title: 'The key in the node data file (node id or output tensor name)' },
  { key: 'graphName', label: 'graph', text: true },
  { key: 'value', label: 'value' },
];

// A number as the legend and table show it.
function formatValue(v) {
  if (typeof v !== 'number') return '';
  if (Number.isInteger(v) && Math.abs(v) < 1e15) return v.toLocaleString('en-US');
  return Math.abs(v) >= 1e-3 && Math.abs(v) < 1e6 ? String(Number(v.toPrecision(6))) : v.toExponential(4);
}

// Implements the overlay interface (overlay.js).
export class NodeDataOverlay {
  static fromPage(doc) {
    const data = readPageElement(doc, 'etviz-node-data');
    return data ? new NodeDataOverlay(data) : null;
  }

  constructor(data) {
    this.id = 'nodedata';
    this.data = data;
    this.on = true;
    this.cache = null;
    // Per page graph: node index -> position in that graph's arrays.
    this.index = indexByGraph(data.graphs);
    this.sortKey = 'value';
    this.sortDesc = true;
  }

  attach(host) {
    this.host = host;
    this.buildLegend();
    this.buildTable();
    host.keys.bind('n', 'show / hide the node data table', () => this.setOpen(this.ui.el.classList.contains('closed')));
  }

  // The value of node i of page graph `graph`, or null.
  datum(graph, i) {
    const e = this.index.get(graph);
    if (!e) return null;
    const k = e.m.get(i);
    if (k === undefined) return null;
    const g = e.g;
    return {
      value: g.value[k],
      text: this.text(g, k),
      key: g.key[k] ?? g.name[k],
      style: g.style[k],
      set: this.data.sets[g.set[k]],
    };
  }

  // A value as written: the page data leaves out a number's text and a key that is the node's
  // name (src/render/html/node_data.cpp).
  text(g, k) {
    return g.text[k] ?? formatValue(g.value[k]);
  }

  // The node colouring (overlay.js): the value's style, or the last style (no value).
  nodeStyles() {
    if (!this.on) return null;
    const host = this.host;
    const key = `${host.graphIndex}|${host.theme.dark}`;
    if (this.cache && this.cache.key === key) return this.cache.styled;
    const T = host.theme;
    const styles = this.data.styles.map((s) => ({ fill: s.fill, stroke: s.stroke, strip: s.stroke, text: s.text }));
    const none = styles.length;
    styles.push({ fill: T.collapsedFill, stroke: T.collapsedStroke, strip: T.collapsedStroke });
    const bucket = new Uint8Array(host.model.nodeCount).fill(none);
    const e = this.index.get(host.graphIndex);
    if (e)
      e.g.node.forEach((n, k) => {
        if (n < bucket.length && e.g.style[k] >= 0) bucket[n] = e.g.style[k];
      });
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

  // The value sets with a value in the shown graph (a method and its payloads may each have
  // their own: Model Explorer's node data per graph id), in file order.
  shownSets() {
    const e = this.index.get(this.host.graphIndex);
    if (!e) return [];
    return [...new Set(e.g.set)].sort((a, b) => a - b).map((k) => this.data.sets[k]);
  }

  // One set's scale: a gradient bar with the range's ends and middle, or swatches.
  setLegend(set) {
    const items = set.legend;
    if (set.scale === 'gradient' || set.scale === 'default') {
      const bar = document.createElement('div');
      bar.className = 'nd-bar';
      const stops =
        set.scale === 'gradient'
          ? items.map((it) => `${it.colour} ${(it.at * 100).toFixed(1)}%`)
          : items.flatMap((it, k) => [
              `${it.colour} ${((k / items.length) * 100).toFixed(1)}%`,
              `${it.colour} ${(((k + 1) / items.length) * 100).toFixed(1)}%`,
            ]);
      bar.style.background = `linear-gradient(to right, ${stops.join(', ')})`;
      const ticks = document.createElement('div');
      ticks.className = 'heat-ticks';
      for (const v of [set.min, (set.min + set.max) / 2, set.max]) {
        const s = document.createElement('span');
        s.textContent = formatValue(v);
        ticks.appendChild(s);
      }
      return [bar, ticks];
    }
    return items.map((it) => {
      const row = document.createElement('div');
      row.className = 'item nd-item';
      const sw = document.createElement('span');
      sw.className = 'sw';
      sw.style.background = it.colour;
      const label = document.createElement('span');
      label.textContent = it.label;
      row.append(sw, label);
      return row;
    });
  }

  buildLegend() {
    const { box, head, title, toggle, body, warn } = toggleLegend(
      'node-data-legend',
      'legend nd-legend',
      'Node data',
      () => this.setOn(!this.on),
    );
    const none = document.createElement('div');
    none.className = 'heat-none';
    box.append(head, body, none, warn);
    this.legend = { box, title, toggle, body, none, warn };
    this.host.stage.appendChild(box);
  }

  updateLegend() {
    const L = this.legend;
    if (!L) return;
    const sets = this.shownSets();
    L.toggle.textContent = this.on ? 'on' : 'off';
    L.toggle.classList.toggle('on', this.on);
    L.box.dataset.on = String(this.on);
    L.title.textContent =
      `Node data · ${this.data.file}` + (sets.length === 1 && sets[0].graphId ? ` · ${sets[0].graphId}` : '');
    L.body.hidden = L.none.hidden = !this.on || !sets.length;
    const unmatched = this.data.sets.reduce((n, s) => n + s.unmatchedCount, 0);
    L.warn.hidden = !unmatched;
    L.warn.textContent = unmatched
      ? `⚠ ${unmatched.toLocaleString('en-US')} key${unmatched === 1 ? '' : 's'} name no node`
      : '';
    L.warn.title = this.data.warnings.join('\n');
    L.box.dataset.scale = sets.map((s) => s.scale).join(' ');
    if (!sets.length) {
      L.title.textContent += ' · no value for this graph';
      return;
    }
    if (!this.on) return;
    // Several sets (per graph id): each under its graph id.
    L.body.replaceChildren(
      ...sets.flatMap((set) => {
        const parts = this.setLegend(set);
        if (sets.length === 1) return parts;
        const head = document.createElement('div');
        head.className = 'nd-set';
        head.textContent = set.graphId || 'every graph';
        return [head, ...parts];
      }),
    );
    const sw = document.createElement('span');
    sw.className = 'sw';
    sw.style.background = this.host.theme.collapsedFill;
    sw.style.border = `1px solid ${this.host.theme.collapsedStroke}`;
    const text = document.createElement('span');
    const e = this.index.get(this.host.graphIndex);
    const valued = e ? e.g.node.length : 0;
    text.textContent = `no value (${(this.host.model.nodeCount - valued).toLocaleString('en-US')} nodes) · ${valued.toLocaleString('en-US')} with values`;
    L.none.replaceChildren(sw, text);
  }

  buildTable() {
    const count = this.data.graphs.reduce((n, g) => n + g.node.length, 0);
    const { el, toggle, table, tbody } = dockTable({
      id: 'node-data-drawer',
      className: 'profile-drawer nd-drawer',
      tableClass: 'profile-table nd-table',
      toggleTitle: 'Show or hide the node data table (n)',
      title: `${this.data.file} · ${count.toLocaleString('en-US')} nodes with values`,
      warnings: this.data.warnings,
      columns: COLUMNS,
      onToggle: () => this.setOpen(el.classList.contains('closed')),
      onSort: (key) => this.sortBy(key),
    });
    this.host.dock.appendChild(el);
    this.ui = { el, toggle, table, tbody };
    // One row per valued node of every page graph.
    this.rows = [];
    for (const g of this.data.graphs) {
      const graphName = g.graphName;
      g.node.forEach((n, k) =>
        this.rows.push({
          graph: g.graph,
          node: n,
          name: g.name[k],
          key: g.key[k] ?? g.name[k],
          graphName,
          value: g.value[k],
          text: this.text(g, k),
          style: g.style[k],
        }),
      );
    }
    this.setOpen(false);
  }

  setOpen(open) {
    this.ui.el.classList.toggle('closed', !open);
    this.ui.toggle.textContent = open ? '▾ Node data' : '▸ Node data';
    if (open) this.renderTable();
  }

  sortBy(key) {
    ({ key: this.sortKey, desc: this.sortDesc } = nextSort(COLUMNS, this.sortKey, this.sortDesc, key));
    this.renderTable();
  }

  // Rows sorted by the chosen column; values that are text sort after numbers.
  sortedRows() {
    const key = this.sortKey;
    const dir = this.sortDesc ? -1 : 1;
    const order = this.rows.map((_, k) => k);
    order.sort((a, b) => {
      const x = this.rows[a],
        y = this.rows[b];
      let c;
      if (key === 'value') {
        const xn = typeof x.value === 'number',
          yn = typeof y.value === 'number';
        c = xn && yn ? x.value - y.value : xn !== yn ? (xn ? 1 : -1) * dir : x.text.localeCompare(y.text);
      } else c = String(x[key]).localeCompare(String(y[key]));
      return c * dir || a - b;
    });
    return order;
  }

  renderTable() {
    const { table, tbody } = this.ui;
    markSorted(table, this.sortKey, this.sortDesc);
    // The first 2000 rows in order: a table longer than that is read by sorting, not scrolling.
    const order = this.sortedRows().slice(0, 2000);
    const out = [];
    for (const k of order) {
      const r = this.rows[k];
      const tr = document.createElement('tr');
      tr.className = 'joined';
      tr.dataset.row = String(k);
      const cells = [r.name, r.key, r.graphName, typeof r.value === 'number' ? formatValue(r.value) : r.text];
      cells.forEach((text, c) => {
        const td = document.createElement('td');
        if (c === 3) {
          td.className = 'num';
          if (r.style >= 0) {
            const sw = document.createElement('span');
            sw.className = 'nd-sw';
            sw.style.background = this.data.styles[r.style].fill;
            td.appendChild(sw);
          }
        }
        td.appendChild(document.createTextNode(text));
        tr.appendChild(td);
      });
      tr.addEventListener('click', () => this.pick(r));
      out.push(tr);
    }
    tbody.replaceChildren(...out);
    this.highlight(this.host.selectedNode);
  }

  highlight(i) {
    for (const tr of this.ui.tbody.rows) {
      const r = this.rows[Number(tr.dataset.row)];
      tr.classList.toggle('active', r.graph === this.host.graphIndex && r.node === i);
    }
  }

  pick(r) {
    if (r.graph !== this.host.graphIndex) this.host.selectGraph(r.graph);
    this.host.selectNode(r.node, { center: true });
  }

  onGraph() {
    this.cache = null;
    this.updateLegend();
  }

  onSelect(i) {
    this.highlight(i);
  }

  // The node's value for the details panel.
  panelSection(i) {
    const d = this.datum(this.host.graphIndex, i);
    if (!d && !this.index.has(this.host.graphIndex)) return null;
    const { sec, kv } = overlaySection(`Node data · ${this.data.file}`, 'node-data-value');
    if (!d) {
      kv('value', 'no value for this node');
      return sec;
    }
    sec.dataset.value = d.text;
    const v = kv('value', typeof d.value === 'number' ? formatValue(d.value) : d.text, 'nd-value');
    if (d.style >= 0) {
      const sw = document.createElement('span');
      sw.className = 'nd-sw';
      sw.style.background = this.data.styles[d.style].fill;
      v.prepend(sw);
    }
    kv('key', d.key, 'mono');
    if (d.set.graphId) kv('graph id', d.set.graphId, 'mono');
    const scale = {
      gradient: "the file's gradient",
      thresholds: "the file's thresholds",
      default: 'min → max (no gradient or thresholds given)',
      labels: 'one colour per value',
      own: "the value's own colour",
    }[d.set.scale];
    kv('colour', d.style >= 0 ? `by ${scale}` : 'none (above every threshold)');
    if (d.set.numeric) kv('range', `${formatValue(d.set.min)} … ${formatValue(d.set.max)}`);
    return sec;
  }

  // Read-only helpers for tests (docs/viewer.md, "Test facade").
  facade() {
    return {
      on: () => this.on,
      setOn: (on) => this.setOn(on),
      // The value of node i of the shown graph ({value, text, key, style}), or null.
      datum: (i) => {
        const d = this.datum(this.host.graphIndex, i);
        return d ? { value: d.value, text: d.text, key: d.key, style: d.style } : null;
      },
      // The style index of node i (styles().length - 1: no value), or null when off.
      bucket: (i) => {
        const s = this.nodeStyles();
        return s ? s.bucket[i] : null;
      },
      styles: () => {
        const s = this.nodeStyles();
        return s ? s.styles.map((x) => ({ ...x })) : null;
      },
      valued: () => {
        const e = this.index.get(this.host.graphIndex);
        return e ? e.g.node.slice() : [];
      },
      setOpen: (open) => this.setOpen(open),
      sortBy: (key) => this.sortBy(key),
      // The table's rows in their shown order: [{node, value, text}].
      tableRows: () =>
        [...this.ui.tbody.rows].map((tr) => {
          const r = this.rows[Number(tr.dataset.row)];
          return { node: r.node, graph: r.graph, value: r.value, text: r.text };
        }),
    };
  }
}
