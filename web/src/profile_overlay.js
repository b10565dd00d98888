// The profile overlay (`etviz model.pte --etdump run.etdp`): nodes heat-coloured by time with
// a legend and scale (avg / p90 / share of Method::execute, or off = category colours), the
// node's timing in the details panel, and the profile table. Reads the page's etviz-profile
// element (src/render/html/profile_data.cpp); without one the viewer is unchanged.
import { mix } from './render.js';
import { ProfileTable } from './profile_table.js';
import { formatTime, formatShare } from './profile_format.js';

const MODES = [
  { id: 'avg', label: 'avg', title: 'Average time per occurrence' },
  { id: 'p90', label: 'p90', title: '90th percentile of the occurrences' },
  { id: 'share', label: 'share', title: 'Share of Method::execute (total over all occurrences)' },
  { id: 'off', label: 'off', title: 'Category colours' },
];

// Eight steps from cool to hot. Light theme: pale to saturated with dark text on every step
// (contrast >= 4.5 against the theme's text); dark theme: deep to strong, light text.
const HEAT_LIGHT = ['#fff6d5', '#ffe8a8', '#fed283', '#fdb86d', '#fb9d5e', '#f78456', '#f07055', '#ea5f55'];
const HEAT_DARK = ['#3b3622', '#4d3f20', '#61461f', '#754b1f', '#894d20', '#9a4723', '#aa3e27', '#b5332c'];
export const HEAT_STEPS = HEAT_LIGHT.length;

export function readProfileData(doc) {
  const node = doc.getElementById('etviz-profile');
  if (!node) return null;
  return JSON.parse(node.textContent);
}

export class ProfileOverlay {
  static fromPage(doc, app) {
    const data = readProfileData(doc);
    return data ? new ProfileOverlay(data, app) : null;
  }

  constructor(data, app) {
    this.data = data;
    this.app = app;
    this.mode = 'avg';
    this.cache = null;
    // Per page graph: node index -> position in that graph's figure arrays.
    this.index = new Map();
    for (const g of data.graphs) {
      const m = new Map();
      g.node.forEach((n, k) => m.set(n, k));
      this.index.set(g.graph, { g, m });
    }
    this.buildLegend();
    this.table = new ProfileTable(data, (row) => this.pick(row));
    document.getElementById('stage').appendChild(this.table.el);
    window.addEventListener('keydown', (ev) => {
      const tag = (ev.target && ev.target.tagName) || '';
      if (tag === 'INPUT' || tag === 'SELECT' || ev.ctrlKey || ev.metaKey || ev.altKey) return;
      if (ev.key === 'p') this.table.setOpen(this.table.el.classList.contains('closed'));
    });
  }

  // The figures of node i of the shown graph, or null.
  timing(graph, i) {
    const e = this.index.get(graph);
    if (!e) return null;
    const k = e.m.get(i);
    if (k === undefined) return null;
    const g = e.g;
    return {
      event: g.event[k], count: g.count[k], avg: g.avg[k], p10: g.p10[k], p50: g.p50[k],
      p90: g.p90[k], min: g.min[k], max: g.max[k], total: g.total[k], share: g.share[k],
      inside: !!g.inside[k], row: g.row[k],
    };
  }

  value(g, k) { return this.mode === 'share' ? g.share[k] : g[this.mode][k]; }

  // The renderer's per-node styles: { bucket: step per node (HEAT_STEPS = no events), styles }.
  heat() {
    if (this.mode === 'off') return null;
    const app = this.app;
    const model = app.model;
    const dark = app.theme.dark;
    const key = `${app.current}|${this.mode}|${dark}`;
    if (this.cache && this.cache.key === key) return this.cache.heat;
    const palette = dark ? HEAT_DARK : HEAT_LIGHT;
    const styles = palette.map((c) => {
      const stroke = dark ? mix(c, '#ffffff', 0.3) : mix(c, '#000000', 0.3);
      return { fill: c, stroke, strip: stroke };
    });
    styles.push({ fill: app.theme.collapsedFill, stroke: app.theme.collapsedStroke, strip: app.theme.collapsedStroke });
    const bucket = new Uint8Array(model.nodeCount).fill(HEAT_STEPS);
    const e = this.index.get(app.current);
    const max = this.scaleMax();
    if (e && max > 0) {
      e.g.node.forEach((n, k) => {
        if (n < bucket.length) bucket[n] = Math.min(HEAT_STEPS - 1, Math.floor((this.value(e.g, k) / max) * HEAT_STEPS));
      });
    }
    const heat = { bucket, styles };
    this.cache = { key, heat };
    return heat;
  }

  scaleMax() {
    const e = this.index.get(this.app.current);
    if (!e) return 0;
    let max = 0;
    e.g.node.forEach((_, k) => { max = Math.max(max, this.value(e.g, k)); });
    return max;
  }

  // The node with the largest figure in the current mode (avg when off), or -1.
  hottest() {
    const e = this.index.get(this.app.current);
    if (!e) return -1;
    const mode = this.mode === 'off' ? 'avg' : this.mode;
    let best = -1, bestV = -1;
    e.g.node.forEach((n, k) => {
      const v = mode === 'share' ? e.g.share[k] : e.g[mode][k];
      if (v > bestV) { bestV = v; best = n; }
    });
    return best;
  }

  format(v) {
    return this.mode === 'share' ? formatShare(v) : formatTime(v, this.data.unit);
  }

  setMode(mode) {
    this.mode = mode;
    this.cache = null;
    document.getElementById('legend').classList.toggle('heat-hidden', mode !== 'off');
    this.updateLegend();
    this.app.invalidateOverview();
  }

  buildLegend() {
    const box = document.createElement('div');
    box.id = 'heat-legend';
    box.className = 'legend heat-legend';
    const title = document.createElement('div');
    title.className = 'heat-title';
    const modes = document.createElement('div');
    modes.className = 'heat-modes';
    for (const m of MODES) {
      const b = document.createElement('button');
      b.className = 'btn toggle';
      b.dataset.mode = m.id;
      b.textContent = m.label;
      b.title = m.title;
      b.addEventListener('click', () => this.setMode(m.id));
      modes.appendChild(b);
    }
    const bar = document.createElement('div');
    bar.className = 'heat-bar';
    const ticks = document.createElement('div');
    ticks.className = 'heat-ticks';
    const none = document.createElement('div');
    none.className = 'heat-none';
    box.append(title, modes, bar, ticks, none);
    this.legend = { box, title, modes, bar, ticks, none };
    document.getElementById('stage').appendChild(box);
    document.getElementById('legend').classList.add('heat-hidden');
  }

  updateLegend() {
    const L = this.legend;
    if (!L) return;
    const on = this.mode !== 'off';
    L.box.dataset.mode = this.mode;
    for (const b of L.modes.children) b.classList.toggle('on', b.dataset.mode === this.mode);
    const e = this.index.get(this.app.current);
    const unit = this.data.unit === 'us' ? 'µs' : this.data.unit;
    const what = { avg: `avg per occurrence (${unit})`, p90: `p90 (${unit})`, share: 'share of Method::execute', off: 'off: category colours' }[this.mode];
    L.title.textContent = `Time · ${what}`;
    L.bar.hidden = L.ticks.hidden = L.none.hidden = !on || !e;
    if (!e) {
      L.title.textContent = `Time · no events for this graph (the profile ran ${this.data.method || 'another method'})`;
      return;
    }
    if (!on) return;
    const dark = this.app.theme.dark;
    const palette = dark ? HEAT_DARK : HEAT_LIGHT;
    L.bar.replaceChildren(...palette.map((c) => {
      const s = document.createElement('span');
      s.style.background = c;
      return s;
    }));
    const max = this.scaleMax();
    const labels = [0, max / 2, max].map((v) => {
      const s = document.createElement('span');
      s.textContent = this.format(v);
      return s;
    });
    labels[2].className = 'heat-max';
    L.ticks.replaceChildren(...labels);
    L.box.dataset.max = String(max);
    const sw = document.createElement('span');
    sw.className = 'sw';
    sw.style.background = this.app.theme.collapsedFill;
    sw.style.border = `1px solid ${this.app.theme.collapsedStroke}`;
    const text = document.createElement('span');
    const timed = e.g.node.length;
    text.textContent = `no events (${(this.app.model.nodeCount - timed).toLocaleString('en-US')} nodes) · ${timed} timed`;
    L.none.replaceChildren(sw, text);
  }

  // Called by the app when the shown graph or the theme changes.
  onGraph() {
    this.cache = null;
    this.updateLegend();
  }

  pick(row) {
    const app = this.app;
    if (row.graph !== app.current) app.selectGraph(row.graph);
    app.selectNode(row.nodes[0], { center: true });
  }

  // Adds the node's timing to the details panel, under its title.
  showTiming(panel, i) {
    const t = this.timing(this.app.current, i);
    this.table.highlightNode(this.app.current, i);
    if (!this.index.has(this.app.current)) return;
    const sec = document.createElement('section');
    sec.className = 'panel-section profile-timing';
    const h = document.createElement('h3');
    h.textContent = `Profile · ${this.data.block}`;
    sec.appendChild(h);
    const kv = (k, v, cls) => {
      const r = document.createElement('div');
      r.className = 'kv';
      const a = document.createElement('span');
      a.className = 'k';
      a.textContent = k;
      const b = document.createElement('span');
      b.className = 'v' + (cls ? ` ${cls}` : '');
      b.textContent = v;
      r.append(a, b);
      sec.appendChild(r);
    };
    if (!t) {
      kv('time', 'no events for this node');
    } else {
      sec.dataset.event = t.event;
      const f = (v) => formatTime(v, this.data.unit);
      kv('event', t.event, 'mono');
      if (t.inside) kv('where', 'inside the delegate (backend event matched by its delegate debug id)');
      kv('occurrences', t.count.toLocaleString('en-US'));
      kv('avg', f(t.avg), 'profile-avg');
      const bare = (v) => formatTime(v, this.data.unit, false);
      kv('p10 / p50 / p90', `${bare(t.p10)} / ${bare(t.p50)} / ${f(t.p90)}`);
      kv('min / max', `${bare(t.min)} / ${f(t.max)}`);
      kv('total', f(t.total));
      kv('share', formatShare(t.share), 'profile-share');
      const bar = document.createElement('div');
      bar.className = 'share-bar';
      const fill = document.createElement('span');
      fill.style.width = `${Math.min(100, t.share * 100).toFixed(1)}%`;
      bar.appendChild(fill);
      sec.appendChild(bar);
    }
    // Events a delegate's backend logged inside this call.
    const m = this.app.model;
    if (m.n.deleg[i] >= 0) {
      const inner = this.data.rows.filter((r) => r.did !== undefined && r.instr === m.n.instr[i] && r.chain === m.n.chain[i]);
      if (inner.length) {
        const h4 = document.createElement('h3');
        h4.textContent = `Events inside the delegate (${inner.length})`;
        sec.appendChild(h4);
        for (const r of inner) {
          const b = document.createElement(r.nodes.length ? 'button' : 'div');
          b.className = r.nodes.length ? 'link block' : 'hint';
          b.textContent = `${r.name} [${r.did}] · ${formatTime(r.avg, this.data.unit)} avg · ${formatShare(r.share)}`;
          if (r.nodes.length) b.addEventListener('click', () => this.pick(r));
          sec.appendChild(b);
        }
      }
    }
    panel.insertBefore(sec, panel.children[1] || null);
  }
}
