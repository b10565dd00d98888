// The timeline overlay: steps through the passes of a trace, the stages of an ETRecord or the
// files of `etviz diff A B -o page.html` over one layout. The page's graph is the union of
// the steps (src/analysis/timeline.h): each step hides what it lacks, relabels what it names
// differently, and colours what changed since the step before (added, changed, removed shown
// as dashed ghosts where they were). The union graph's nodes and values carry the data of the
// last step holding them; each step's own data (a precision pass's float32 before it, float16
// after) is written where it differs, and the step's edge labels and panel show it. Nothing is
// computed here that C++ did not decide: the etviz-timeline element
// (src/render/html/timeline_data.cpp) lists, per step, the view nodes and edges it hides, the
// diff's facts and the step's own node and value data. Several steps can be shown side by side
// in panes that share the camera, selection and search.

import { readPageElement, tensorShort, memoryText } from './data.js';
import { groupMarks, markLine, ChangeWalk } from './change_marks.js';
import { tensorDiffList } from './tensor_diff_list.js';
const DIFF = {
  light: {
    changed: { fill: '#ffe7b0', stroke: '#b7791f', strip: '#d69e2e' },
    added: { fill: '#d3f4da', stroke: '#2f855a', strip: '#38a169' },
    removed: { fill: '#fde2e2', stroke: '#c53030', strip: '#e53e3e', ghost: true },
  },
  dark: {
    changed: { fill: '#5c4713', stroke: '#ecb33d', strip: '#ecb33d' },
    added: { fill: '#1d4a2c', stroke: '#56c97a', strip: '#56c97a' },
    removed: { fill: '#4f2020', stroke: '#f06b6b', strip: '#f06b6b', ghost: true },
  },
};
const KINDS = ['changed', 'added', 'removed'];
const MAX_PANES = 6;

// The model of one step: the union graph's model (its nodes, values, edges and layout)
// answering with the step's own data where the page lists a difference (step.nodeFacts: a
// node's op, name, arguments, attributes...; step.values: per entry of valueFacts, the values
// that differ that way), and with the step's labels. The panel and tooltip read it like any
// model.
// ownInputs: per node whose union inputs include other steps' reads (rewired edges), how many
// are the union's own arguments (those of the step it copies).
function stepModel(base, step, valueFacts, ownInputs) {
  const values = new Map();
  for (const [f, ids] of Object.entries(step.values)) for (const v of ids) values.set(v, valueFacts[f]);
  const nodes = new Map(Object.entries(step.nodeFacts).map(([i, f]) => [Number(i), f]));
  const m = Object.create(base);
  // Node field `key` of the step where it differs, else the union's answer.
  const field = (key, read) => (i) => {
    const f = nodes.get(i);
    return f && f[key] !== undefined ? f[key] : read.call(base, i);
  };
  m.nodeOp = field('op', base.nodeOp);
  m.nodeName = field('name', base.nodeName);
  m.nodeKind = field('kind', base.nodeKind);
  m.nodeModule = field('module', base.nodeModule);
  m.nodeInstr = field('instr', base.nodeInstr);
  m.nodeChain = field('chain', base.nodeChain);
  m.nodeHandles = field('handles', base.nodeHandles);
  m.nodeStack = field('stack', base.nodeStack);
  m.nodeDelegate = field('delegate', base.nodeDelegate);
  m.nodeLabel = (i) => (step.labels[i] !== undefined ? step.labels[i] : base.nodeLabel(i));
  const args = (key, read) => (i) => {
    const f = nodes.get(i);
    return f && f[key] ? f[key].map(([name, value]) => ({ name, value })) : read(i);
  };
  m.inputs = args('inputs', (i) => {
    const all = base.inputs(i);
    return ownInputs[i] !== undefined ? all.slice(0, ownInputs[i]) : all;
  });
  m.outputs = args('outputs', (i) => base.outputs(i));
  m.attributes = (i) => {
    const f = nodes.get(i);
    return f && f.attrs ? f.attrs.map(([k, v]) => [k, v]) : base.attributes(i);
  };
  m.value = (id) => {
    const v = base.value(id);
    const f = values.get(id);
    if (!f) return v;
    const { mem, ...facts } = f;
    Object.assign(v, facts);
    if (mem !== undefined) v.mem = mem ? memoryText(mem[0], mem[1]) : '';
    return v;
  };
  m.valueName = (id) => {
    const f = values.get(id);
    return f && f.name !== undefined ? f.name : base.valueName(id);
  };
  m.valueShort = (id) => {
    if (!values.has(id)) return base.valueShort(id);
    const v = m.value(id);
    return tensorShort(v.shape, v.dtype);
  };
  m.stepValues = values; // the values whose facts differ from the union's
  return m;
}

// Implements the overlay interface (overlay.js).
export class TimelineOverlay {
  static fromPage(doc) {
    const data = readPageElement(doc, 'etviz-timeline');
    return data && data.steps.length ? new TimelineOverlay(data) : null;
  }

  constructor(data) {
    this.id = 'timeline';
    this.data = data;
    this.steps = data.steps;
    // Two graphs compared: the second, coloured by what changed; a trace: its first pass.
    this.step = this.steps.length === 2 ? 1 : 0;
    this.paneCount = 1;
    this.cache = new Map(); // step|theme -> { nodeStyles, edgeHidden, nodeLabels, valueLabels, facts }
  }

  attach(host) {
    this.host = host;
    this.buildBar();
    this.buildLegend();
    const walk = host.keys.bindings.get('ArrowLeft');
    host.keys.bind(
      ['j', 'k'],
      'next / previous change of the step, top to bottom (opens the boxes that hold it)',
      (ev) => this.active && this.walk.move(ev.key === 'j' ? 1 : -1),
    );
    host.keys.bind(['[', ']'], 'previous / next step (pass, stage or file)', (ev) =>
      this.go(this.step + (ev.key === '[' ? -1 : 1)),
    );
    host.keys.bind(
      ['ArrowLeft', 'ArrowRight'],
      'previous / next step; with a node selected, walk to the neighbour in the same layer',
      (ev) => {
        if (host.selectedNode >= 0 && walk) walk.action(ev);
        else this.go(this.step + (ev.key === 'ArrowLeft' ? -1 : 1));
      },
    );
    host.keys.bind(['1', '2', '3', '4', '5', '6'], 'steps side by side: that many panes (1: one)', (ev) =>
      this.setPanes(Number(ev.key)),
    );
    this.update();
  }

  get active() {
    return this.host.graphIndex === this.data.graph;
  }

  // ---- what each step shows -------------------------------------------------------------
  decoration(k) {
    const host = this.host;
    const model = host.model;
    const key = `${k}|${host.theme.dark}`;
    const hit = this.cache.get(key);
    if (hit && hit.model === model) return hit;
    const cats = host.theme.cats;
    const palette = host.theme.dark ? DIFF.dark : DIFF.light;
    const styles = cats.map((c) => ({ fill: c.fill, stroke: c.stroke, strip: c.strip }));
    const at = {};
    for (const kind of KINDS) {
      at[kind] = styles.length;
      styles.push(palette[kind]);
    }
    const hidden = styles.length;
    styles.push({ fill: 'transparent', stroke: 'transparent', strip: 'transparent', hidden: true });
    const bucket = new Uint8Array(model.nodeCount);
    for (let i = 0; i < model.nodeCount; i++) bucket[i] = model.n.cat[i];
    const s = this.steps[k];
    for (const i of s.absent) bucket[i] = hidden;
    for (const i of s.removed) bucket[i] = at.removed;
    for (const i of s.added) bucket[i] = at.added;
    for (const i of s.changed) bucket[i] = at.changed;
    // Boxes with nothing of this step inside are not drawn either.
    const groupHidden = new Uint8Array(model.groupCount).fill(1);
    for (let i = 0; i < model.nodeCount; i++) {
      if (bucket[i] === hidden) continue;
      for (let g = model.n.group[i]; g >= 0 && groupHidden[g]; g = model.g.parent[g]) groupHidden[g] = 0;
    }
    const edgeHidden = new Uint8Array(model.edgeCount);
    for (const e of s.hiddenEdges) edgeHidden[e] = 1;
    const nodeLabels = new Map(Object.entries(s.labels).map(([i, t]) => [Number(i), t]));
    // The step's own tensors on its edges, where they differ from the union's.
    const facts = stepModel(model, s, this.data.valueFacts, this.data.ownInputs);
    const valueLabels = new Map();
    for (const v of facts.stepValues.keys()) valueLabels.set(v, facts.valueShort(v));
    // What changed inside each box: its badge (render_marks.js), tooltip and panel.
    const marks = groupMarks(model, s, palette);
    const nodeStyles = { bucket, styles, groupHidden, groupMarks: s.base >= 0 ? marks : null };
    const d = { model, nodeStyles, edgeHidden, nodeLabels, valueLabels, facts, marks };
    this.cache.set(key, d);
    return d;
  }

  nodeStyles() {
    return this.active ? this.decoration(this.step).nodeStyles : null;
  }
  edgeHidden() {
    return this.active ? this.decoration(this.step).edgeHidden : null;
  }
  nodeLabels() {
    return this.active ? this.decoration(this.step).nodeLabels : null;
  }
  valueLabels() {
    return this.active ? this.decoration(this.step).valueLabels : null;
  }
  factsModel() {
    return this.active ? this.decoration(this.step).facts : null;
  }

  // The steps on show side by side: a window of paneCount steps ending at the current one.
  paneSteps() {
    const n = Math.min(this.paneCount, this.steps.length);
    const start = Math.max(0, Math.min(this.step - n + 1, this.steps.length - n));
    return Array.from({ length: n }, (_, j) => start + j);
  }

  panes() {
    if (!this.active || this.paneCount < 2) return null;
    return this.paneSteps().map((k) => ({
      step: k,
      current: k === this.step,
      title: this.stepTitle(k),
      ...this.decoration(k),
    }));
  }

  // 'same' | 'changed' | 'added' | 'removed' | 'absent' for view node i in step k.
  status(i, k = this.step) {
    const s = this.steps[k];
    if (s.changed.includes(i)) return 'changed';
    if (s.added.includes(i)) return 'added';
    if (s.removed.includes(i)) return 'removed';
    if (s.absent.includes(i)) return 'absent';
    return 'same';
  }

  // A step's name without the index a trace's graph names already carry ("2: 2_Fuse" -> "2_Fuse").
  shortName(k) {
    const name = this.steps[k].name;
    const prefix = `${k + 1}: `;
    return name.startsWith(prefix) ? name.slice(prefix.length) : name;
  }

  stepTitle(k) {
    return `${k + 1}/${this.steps.length} ${this.shortName(k)}`;
  }

  // ---- stepping ---------------------------------------------------------------------------
  go(k) {
    const next = Math.max(0, Math.min(this.steps.length - 1, k));
    if (next === this.step) return;
    this.step = next;
    this.update();
    this.host.redraw();
  }

  setPanes(n) {
    this.paneCount = Math.max(1, Math.min(MAX_PANES, n, this.steps.length));
    this.update();
    this.host.panesChanged();
  }

  update() {
    const s = this.steps[this.step];
    const b = this.bar;
    b.select.value = String(this.step);
    b.prev.disabled = this.step === 0;
    b.next.disabled = this.step === this.steps.length - 1;
    for (const btn of /** @type {HTMLCollectionOf<HTMLElement>} */ (b.panes.children))
      btn.classList.toggle('on', Number(btn.dataset.panes) === this.paneCount);
    this.banner.hidden = !s.error;
    this.banner.textContent = s.error
      ? `${this.shortName(this.step)} failed: ${s.error}` +
        (s.nodes ? '' : ' (no graph after it; the step before is shown as dashed outlines)')
      : '';
    const base = s.base >= 0 ? this.steps[s.base] : null;
    const L = this.legend;
    L.title.textContent =
      s.error && !s.nodes
        ? 'Failed: no graph after this pass'
        : base
          ? `Changes since ${this.shortName(s.base)}`
          : 'First step: nothing to compare with';
    L.title.title = L.title.textContent;
    for (const kind of [...KINDS, 'same']) {
      const n = base ? s.counts[kind] : 0;
      L.rows[kind].count.textContent = n.toLocaleString('en-US');
      L.rows[kind].item.classList.toggle('off', !n);
    }
    L.nodes.textContent = `${s.nodes.toLocaleString('en-US')} nodes in this step`;
    this.cursor = -1;
    this.walk.reset();
    this.host.refreshPanel(); // the panel shows this step's data
  }

  buildBar() {
    const bar = document.createElement('div');
    bar.id = 'timeline-bar';
    bar.className = 'timeline-bar';
    const prev = document.createElement('button');
    prev.className = 'btn';
    prev.textContent = '◀';
    prev.title = 'Previous step ([ or ←)';
    prev.addEventListener('click', () => this.go(this.step - 1));
    const select = document.createElement('select');
    select.id = 'timeline-step';
    select.title = 'Step: pass, stage or file, with its node count and changes since the step before';
    this.steps.forEach((s, k) => {
      const o = document.createElement('option');
      o.value = String(k);
      const c = s.counts;
      const delta = s.base >= 0 ? ` · +${c.added} −${c.removed} ~${c.changed}` : '';
      o.textContent = `${k + 1}. ${s.error ? '✕ ' : ''}${this.shortName(k)} · ${s.nodes.toLocaleString('en-US')} nodes${delta}`;
      o.title = s.error ? `${o.textContent}\nfailed: ${s.error}` : o.textContent;
      select.appendChild(o);
    });
    select.addEventListener('change', () => this.go(Number(select.value)));
    const next = document.createElement('button');
    next.className = 'btn';
    next.textContent = '▶';
    next.title = 'Next step (] or →)';
    next.addEventListener('click', () => this.go(this.step + 1));
    const panes = document.createElement('div');
    panes.className = 'timeline-panes';
    panes.title = 'Steps side by side (keys 1-6): same camera, selection and search';
    const label = document.createElement('span');
    label.textContent = 'panes';
    panes.appendChild(label);
    for (let n = 1; n <= Math.min(4, this.steps.length); n++) {
      const btn = document.createElement('button');
      btn.className = 'btn toggle';
      btn.dataset.panes = String(n);
      btn.textContent = String(n);
      btn.addEventListener('click', () => this.setPanes(n));
      panes.appendChild(btn);
    }
    bar.append(prev, select, next, panes);
    this.bar = { el: bar, prev, select, next, panes };
    const banner = document.createElement('div');
    banner.id = 'timeline-error';
    banner.className = 'timeline-error';
    banner.setAttribute('role', 'alert');
    banner.hidden = true;
    this.banner = banner;
    this.host.stage.append(bar, banner);
  }

  // The legend: what the colours mean and how many of each; clicking an entry walks through
  // those nodes.
  buildLegend() {
    const box = document.createElement('div');
    box.id = 'timeline-legend';
    box.className = 'legend timeline-legend';
    const title = document.createElement('div');
    title.className = 'legend-title';
    box.appendChild(title);
    const rows = {};
    const names = { changed: 'changed', added: 'added', removed: 'removed (dashed)', same: 'unchanged' };
    for (const kind of [...KINDS, 'same']) {
      const item = document.createElement('div');
      item.className = 'item';
      item.dataset.kind = kind;
      const sw = document.createElement('span');
      sw.className = `sw diff-${kind}`;
      const label = document.createElement('span');
      label.textContent = names[kind];
      const count = document.createElement('span');
      count.className = 'count';
      item.append(sw, label, count);
      if (kind !== 'same') {
        item.title = `Click to walk through the ${kind} nodes`;
        item.addEventListener('click', () => this.walkKind(kind));
      }
      box.appendChild(item);
      rows[kind] = { item, count };
    }
    const nodes = document.createElement('div');
    nodes.className = 'timeline-nodes';
    const walk = document.createElement('div');
    walk.className = 'timeline-walk';
    walk.id = 'timeline-walk';
    box.append(nodes, walk);
    this.legend = { box, title, rows, nodes };
    this.walk = new ChangeWalk(this, walk);
    this.host.stage.appendChild(box);
  }

  walkKind(kind) {
    const list = this.steps[this.step][kind];
    if (!list.length) return;
    this.cursor = (this.cursor + 1) % list.length;
    this.host.selectNode(list[this.cursor], { center: true });
  }

  onSelect(i) {
    if (this.active) this.walk.selected(i);
  }

  onGraph() {
    const on = this.active;
    this.bar.el.hidden = !on;
    this.legend.box.hidden = !on;
    if (!on) this.banner.hidden = true;
    else this.update();
  }

  // The first change of the step in reading order (where a diff's start view goes), or null.
  focus() {
    if (!this.active) return null;
    const node = this.walk.first();
    return node >= 0 ? { node } : null;
  }

  // A selected box: what changed inside it since the step before.
  groupPanelSection(g) {
    if (!this.active || this.steps[this.step].base < 0) return null;
    const box = document.createElement('div');
    box.className = 'section timeline-section';
    const h = document.createElement('h3');
    h.textContent = `Step ${this.stepTitle(this.step)}`;
    box.append(h, markLine(this.decoration(this.step).marks.counts, g));
    return box;
  }

  // ---- panel ------------------------------------------------------------------------------
  panelSection(i) {
    if (!this.active || i < 0) return null;
    const s = this.steps[this.step];
    const base = s.base >= 0 ? { name: this.shortName(s.base) } : null;
    const st = this.status(i);
    const box = document.createElement('div');
    box.className = 'section timeline-section';
    const h = document.createElement('h3');
    h.textContent = `Step ${this.stepTitle(this.step)}`;
    box.appendChild(h);
    const line = document.createElement('div');
    line.className = `timeline-status diff-text-${st}`;
    const what = {
      same: base ? `unchanged since ${base.name}` : 'in this step',
      changed: `changed since ${base ? base.name : 'the step before'}`,
      added: `added since ${base ? base.name : 'the step before'}`,
      removed: `removed: it was in ${base ? base.name : 'the step before'} (drawn dashed)`,
      absent: 'not in this step',
    }[st];
    line.textContent = what;
    box.appendChild(line);
    const changes = s.changes[String(i)];
    if (changes) {
      const list = document.createElement('ul');
      list.className = 'timeline-changes';
      for (const c of changes) {
        const li = document.createElement('li');
        // "op A -> B", "output 0: float32[1, 4] -> ...": before and after apart.
        const arrow = c.indexOf(' -> ');
        if (arrow > 0) {
          const head = c.slice(0, arrow);
          const sp = head.lastIndexOf(': ') >= 0 ? head.lastIndexOf(': ') + 2 : head.indexOf(' ') + 1;
          const what = document.createElement('span');
          what.className = 'k';
          what.textContent = head.slice(0, sp).replace(/:\s*$/, '').trim();
          const before = document.createElement('span');
          before.className = 'before';
          before.textContent = head.slice(sp);
          const after = document.createElement('span');
          after.className = 'after';
          after.textContent = c.slice(arrow + 4);
          li.append(what, ' ', before, ' → ', after);
        } else {
          li.textContent = c;
        }
        list.appendChild(li);
      }
      box.appendChild(list);
    }
    // Constants whose bytes differ since the step before (this node's weights, or those of the
    // delegate payload it calls), with the figures `etviz diff` states.
    const tensors = s.tensors ? s.tensors[String(i)] : null;
    if (tensors) box.appendChild(tensorDiffList(tensors));
    // The details below are this step's own; a node the step lacks has none, so they are the
    // union node's: those of the last step holding it.
    const source = this.data.source ? this.data.source[i] : -1;
    if (source >= 0 && (st === 'absent' || st === 'removed')) {
      const note = document.createElement('div');
      note.className = 'hint';
      note.textContent = `The details below are as of step ${source + 1} (${this.shortName(source)}), the last step that holds it.`;
      box.appendChild(note);
    }
    // Where the node lives.
    const present = [];
    this.steps.forEach((step, k) => {
      if (!step.absent.includes(i)) present.push(k + 1);
    });
    const runs = [];
    for (const k of present) {
      const last = runs[runs.length - 1];
      if (last && last[1] === k - 1) last[1] = k;
      else runs.push([k, k]);
    }
    const where = document.createElement('div');
    where.className = 'timeline-where';
    where.textContent = present.length
      ? `in step${present.length === 1 ? '' : 's'} ${runs.map(([a, b]) => (a === b ? `${a}` : `${a}–${b}`)).join(', ')} of ${this.steps.length}`
      : 'in no step';
    box.appendChild(where);
    return box;
  }

  facade() {
    return {
      steps: () =>
        this.steps.map((s) => ({
          name: s.name,
          graph: s.graph,
          nodes: s.nodes,
          error: s.error || null,
          base: s.base,
          counts: { ...s.counts },
        })),
      step: () => this.step,
      // Step k's constants whose bytes differ, per view node (the page data's `tensors`).
      tensors: (k) => ({ ...(this.steps[k === undefined ? this.step : k].tensors || {}) }),
      setStep: (k) => this.go(k),
      panes: () => this.paneSteps(),
      setPanes: (n) => this.setPanes(n),
      status: (i, k) => this.status(i, k === undefined ? this.step : k),
      // What step k (default: the current one) says of a value and a node, as its panel shows.
      value: (v, k) => this.decoration(k === undefined ? this.step : k).facts.value(v),
      valueLabel: (v, k) => this.decoration(k === undefined ? this.step : k).facts.valueShort(v),
      node: (i, k) => {
        const m = this.decoration(k === undefined ? this.step : k).facts;
        return {
          op: m.nodeOp(i),
          name: m.nodeName(i),
          label: m.nodeLabel(i),
          inputs: m.inputs(i),
          outputs: m.outputs(i),
          attributes: m.attributes(i),
        };
      },
      ...this.walk.facade(),
      banner: () => (this.banner.hidden ? null : this.banner.textContent),
      legend: () =>
        Object.fromEntries(
          [...KINDS, 'same'].map((k) => [k, Number(this.legend.rows[k].count.textContent.replace(/,/g, ''))]),
        ),
    };
  }
}
