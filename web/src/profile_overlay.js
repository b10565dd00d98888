// The profile overlay (`etviz model.pte --etdump run.etdp`): nodes heat-coloured by time with
// a legend and scale (avg / p90 / share of Method::execute, or off = category colours), the
// node's timing in the details panel, and the profile table. Reads the page's etviz-profile
// element (src/render/html/profile_data.cpp); without one the viewer is unchanged.
import { readPageElement } from './data.js';
import { mix } from './theme.js';
import { ProfileTable } from './profile_table.js';
import { overlaySection } from './panel.js';
import { indexByGraph } from './overlay.js';
import { formatTime, formatShare } from './profile_format.js';
import { nodesInside } from './visibility.js';

// A bar as wide as a share of Method::execute (0..1).
function shareBar(share) {
  const bar = document.createElement('div');
  bar.className = 'share-bar';
  const fill = document.createElement('span');
  fill.style.width = `${Math.min(100, share * 100).toFixed(1)}%`;
  bar.appendChild(fill);
  return bar;
}

const MODES = [
  { id: 'avg', label: 'avg', title: 'Average time per occurrence' },
  { id: 'p90', label: 'p90', title: '90th percentile of the occurrences' },
  { id: 'share', label: 'share', title: 'Share of Method::execute (total over all occurrences)' },
  { id: 'off', label: 'off', title: 'Category colours' },
];

// The heat colours (eight steps from cool to hot, per theme) come with the profile data:
// src/analysis/heat_scale.h is their one definition, shared with `etviz export --etdump`.

// Implements the overlay interface (overlay.js).
export class ProfileOverlay {
  static fromPage(doc) {
    const data = readPageElement(doc, 'etviz-profile');
    return data ? new ProfileOverlay(data) : null;
  }

  constructor(data) {
    this.id = 'profile';
    this.data = data;
    this.heat = { light: data.heat.light, dark: data.heat.dark };
    this.mode = 'avg';
    // 'linear', or 'log' when a few hot ops would leave everything else in the first step.
    this.scale = 'linear';
    this.cache = null;
    // Per page graph: node index -> position in that graph's figure arrays.
    this.index = indexByGraph(data.graphs);
  }

  attach(host) {
    this.host = host;
    this.buildLegend();
    this.table = new ProfileTable(this.data, (row) => this.pick(row));
    host.dock.appendChild(this.table.el);
    host.keys.bind('p', 'show / hide the profile table', () =>
      this.table.setOpen(this.table.el.classList.contains('closed')),
    );
  }

  // The figures of node i of the shown graph, or null.
  timing(graph, i) {
    const e = this.index.get(graph);
    if (!e) return null;
    const k = e.m.get(i);
    if (k === undefined) return null;
    const g = e.g;
    return {
      event: g.event[k],
      count: g.count[k],
      avg: g.avg[k],
      p10: g.p10[k],
      p50: g.p50[k],
      p90: g.p90[k],
      min: g.min[k],
      max: g.max[k],
      total: g.total[k],
      share: g.share[k],
      inside: !!g.inside[k],
      row: g.row[k],
    };
  }

  value(g, k) {
    return this.mode === 'share' ? g.share[k] : g[this.mode][k];
  }

  // The node colouring (overlay.js): a heat step per node (the step count = no events).
  nodeStyles() {
    if (this.mode === 'off') return null;
    const host = this.host;
    const model = host.model;
    const dark = host.theme.dark;
    const key = `${host.graphIndex}|${this.mode}|${this.scale}|${dark}`;
    if (this.cache && this.cache.key === key) return this.cache.heat;
    const palette = dark ? this.heat.dark : this.heat.light;
    const styles = palette.map((c) => {
      const stroke = dark ? mix(c, '#ffffff', 0.3) : mix(c, '#000000', 0.3);
      return { fill: c, stroke, strip: stroke };
    });
    styles.push({
      fill: host.theme.collapsedFill,
      stroke: host.theme.collapsedStroke,
      strip: host.theme.collapsedStroke,
    });
    const bucket = new Uint8Array(model.nodeCount).fill(palette.length);
    const e = this.index.get(host.graphIndex);
    const max = this.scaleMax();
    const min = this.scaleMin();
    if (e && max > 0) {
      e.g.node.forEach((n, k) => {
        if (n < bucket.length) bucket[n] = this.step(this.value(e.g, k), min, max);
      });
    }
    const heat = { bucket, styles };
    this.cache = { key, heat };
    return heat;
  }

  // The heat step of a value: linear in [0, max], or logarithmic in [min, max] (min: the
  // smallest positive figure), where each step is the same factor. analysis::heat_step() is
  // the same formula for pictures (tests/browser/node_data.test.mjs compares the two).
  step(v, min, max) {
    const steps = this.heat.light.length;
    if (!(v > 0) || !(max > 0)) return 0;
    const t = this.scale === 'log' && min > 0 && max > min ? Math.log(v / min) / Math.log(max / min) : v / max;
    return Math.max(0, Math.min(steps - 1, Math.floor(t * steps)));
  }

  scaleMin() {
    const e = this.index.get(this.host.graphIndex);
    if (!e) return 0;
    let min = Infinity;
    e.g.node.forEach((_, k) => {
      const v = this.value(e.g, k);
      if (v > 0 && v < min) min = v;
    });
    return min === Infinity ? 0 : min;
  }

  setScale(scale) {
    this.scale = scale;
    this.cache = null;
    this.updateLegend();
    this.host.redraw();
  }

  scaleMax() {
    const e = this.index.get(this.host.graphIndex);
    if (!e) return 0;
    let max = 0;
    e.g.node.forEach((_, k) => {
      max = Math.max(max, this.value(e.g, k));
    });
    return max;
  }

  // The node with the largest figure in the current mode (avg when off), or -1.
  hottest() {
    const e = this.index.get(this.host.graphIndex);
    if (!e) return -1;
    const mode = this.mode === 'off' ? 'avg' : this.mode;
    let best = -1,
      bestV = -1;
    e.g.node.forEach((n, k) => {
      const v = mode === 'share' ? e.g.share[k] : e.g[mode][k];
      if (v > bestV) {
        bestV = v;
        best = n;
      }
    });
    return best;
  }

  format(v) {
    return this.mode === 'share' ? formatShare(v) : formatTime(v, this.data.unit);
  }

  setMode(mode) {
    this.mode = mode;
    this.cache = null;
    this.updateLegend();
    this.host.redraw();
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
    const log = document.createElement('button');
    log.className = 'btn toggle heat-log';
    log.textContent = 'log';
    log.title = 'Logarithmic scale: each colour step is the same factor (a few hot ops do not wash out the rest)';
    log.addEventListener('click', () => this.setScale(this.scale === 'log' ? 'linear' : 'log'));
    modes.appendChild(log);
    const bar = document.createElement('div');
    bar.className = 'heat-bar';
    const ticks = document.createElement('div');
    ticks.className = 'heat-ticks';
    const none = document.createElement('div');
    none.className = 'heat-none';
    box.append(title, modes, bar, ticks, none);
    this.legend = { box, title, modes, bar, ticks, none };
    this.host.stage.appendChild(box);
  }

  updateLegend() {
    const L = this.legend;
    if (!L) return;
    const on = this.mode !== 'off';
    L.box.dataset.mode = this.mode;
    for (const b of /** @type {HTMLCollectionOf<HTMLElement>} */ (L.modes.children))
      b.classList.toggle('on', b.dataset.mode ? b.dataset.mode === this.mode : this.scale === 'log');
    L.box.dataset.scale = this.scale;
    const e = this.index.get(this.host.graphIndex);
    const unit = this.data.unit === 'us' ? 'µs' : this.data.unit;
    const what = {
      avg: `avg per occurrence (${unit})`,
      p90: `p90 (${unit})`,
      share: 'share of Method::execute',
      off: 'off: category colours',
    }[this.mode];
    L.title.textContent = `Time · ${what}`;
    L.bar.hidden = L.ticks.hidden = L.none.hidden = !on || !e;
    if (!e) {
      L.title.textContent = `Time · no events for this graph (the profile ran ${this.data.method || 'another method'})`;
      return;
    }
    if (!on) return;
    const dark = this.host.theme.dark;
    const palette = dark ? this.heat.dark : this.heat.light;
    L.bar.replaceChildren(
      ...palette.map((c) => {
        const s = document.createElement('span');
        s.style.background = c;
        return s;
      }),
    );
    const max = this.scaleMax();
    const min = this.scaleMin();
    const ticks = this.scale === 'log' && min > 0 && max > min ? [min, Math.sqrt(min * max), max] : [0, max / 2, max];
    const labels = ticks.map((v) => {
      const s = document.createElement('span');
      s.textContent = this.format(v);
      return s;
    });
    labels[2].className = 'heat-max';
    L.ticks.replaceChildren(...labels);
    L.box.dataset.max = String(max);
    const sw = document.createElement('span');
    sw.className = 'sw';
    sw.style.background = this.host.theme.collapsedFill;
    sw.style.border = `1px solid ${this.host.theme.collapsedStroke}`;
    const text = document.createElement('span');
    const timed = e.g.node.length;
    text.textContent = `no events (${(this.host.model.nodeCount - timed).toLocaleString('en-US')} nodes) · ${timed} timed`;
    L.none.replaceChildren(sw, text);
  }

  // The shown graph or the theme changed.
  onGraph() {
    this.cache = null;
    this.updateLegend();
  }

  onSelect(i) {
    if (this.table) this.table.highlightNode(this.host.graphIndex, i);
  }

  pick(row) {
    const host = this.host;
    if (row.graph !== host.graphIndex) host.selectGraph(row.graph);
    host.selectNode(row.nodes[0], { center: true });
  }

  // The node's timing for the details panel.
  panelSection(i) {
    const t = this.timing(this.host.graphIndex, i);
    if (!this.index.has(this.host.graphIndex)) return null;
    const { sec, kv } = overlaySection(`Profile · ${this.data.block}`, 'profile-timing');
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
      sec.appendChild(shareBar(t.share));
    }
    // Events a delegate's backend logged inside this call.
    const m = this.host.model;
    if (m.n.deleg[i] >= 0) {
      const inner = this.data.rows.filter(
        (r) => r.did !== undefined && r.instr === m.n.instr[i] && r.chain === m.n.chain[i],
      );
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
    return sec;
  }

  // What group g of the shown graph cost: the events (rows of the table) that land on a node
  // inside it, each once, and none inside another counted one (a delegate's own events are
  // part of its DELEGATE_CALL, an operator's native calls part of its OPERATOR_CALL), so a
  // folded block, a delegate or a partition says its total time and share of the method.
  groupTiming(g) {
    const host = this.host;
    const gi = host.graphIndex;
    const m = host.model;
    if (!this.index.has(gi)) return null;
    const inside = nodesInside(m.g.parent, m.n.group, g);
    const rows = this.data.rows;
    const hit = new Uint8Array(rows.length);
    rows.forEach((r, k) => {
      if (r.graph === gi && r.nodes.some((n) => inside[n])) hit[k] = 1;
    });
    let total = 0,
      share = 0,
      events = 0;
    rows.forEach((r, k) => {
      if (!hit[k]) return;
      for (let p = r.in, steps = 0; p !== undefined && p >= 0 && steps <= rows.length; p = rows[p].in, steps++)
        if (hit[p]) return;
      total += r.total;
      share += r.share;
      events++;
    });
    return { total, share, events };
  }

  groupPanelSection(g) {
    const t = this.groupTiming(g);
    if (!t) return null;
    const { sec, kv } = overlaySection(`Profile · ${this.data.block}`, 'profile-timing group-timing');
    if (!t.events) {
      kv('time', 'no events for the nodes inside');
      return sec;
    }
    kv('total', formatTime(t.total, this.data.unit), 'profile-total');
    kv('share', formatShare(t.share), 'profile-share');
    kv('events', `${t.events.toLocaleString('en-US')} (each counted once)`);
    sec.appendChild(shareBar(t.share));
    return sec;
  }

  // Read-only helpers for tests (docs/viewer.md, "Test facade").
  facade() {
    return {
      mode: () => this.mode,
      setMode: (m) => this.setMode(m),
      scale: () => this.scale,
      setScale: (x) => this.setScale(x),
      hottest: () => this.hottest(),
      // The figures of node i of the shown graph (event, count, avg, ..., share), or null.
      timing: (i) => this.timing(this.host.graphIndex, i),
      // What group g of the shown graph cost: {total, share, events}, or null.
      groupTiming: (g) => this.groupTiming(g),
      // The heat step of node i of the shown graph (steps: no events), or null when off.
      bucket: (i) => {
        const s = this.nodeStyles();
        return s ? s.bucket[i] : null;
      },
      steps: this.heat.light.length,
      styles: () => {
        const s = this.nodeStyles();
        return s ? s.styles.map((x) => ({ ...x })) : null;
      },
    };
  }
}
