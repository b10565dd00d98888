// Pointing at what changed in a timeline step (docs/viewer.md, "Passes and diffs"): the counts a
// collapsed box carries (`+12 −3 ~5`: the added, removed and changed nodes inside it at any
// depth), and the walk from change to change in reading order (keys j / k). Part of the
// timeline overlay; the step's lists of changed, added and removed view nodes (the
// etviz-timeline element) are the one source of what changed.
//
// Gives: MARK_KINDS, changeKinds(nodeCount, step), groupChangeCounts(parent, nodeGroup, kinds),
// groupMarks(model, step, palette), markLine(counts, g), dataflowRank(model),
// readingOrder(nodes, boxOf, rank), ChangeWalk (uses of the timeline: host, active, step,
// decoration(k); of the host: model, layout, boxOf(i), selectedNode, selectNode(i, {center}),
// toast(text)).

// The order the badge, the step list and the tooltip write the kinds in.
export const MARK_KINDS = ['added', 'removed', 'changed'];
const SIGN = { added: '+', removed: '−', changed: '~' };

// Per node of the shown graph: 0 (unchanged or absent), else 1 + its kind's index in MARK_KINDS.
// A node in several lists counts as status() reads it: changed, then added, then removed.
export function changeKinds(nodeCount, step) {
  const kinds = new Uint8Array(nodeCount);
  for (const i of step.removed) kinds[i] = 2;
  for (const i of step.added) kinds[i] = 1;
  for (const i of step.changed) kinds[i] = 3;
  return kinds;
}

// counts[3 * g + k]: the nodes of kind MARK_KINDS[k] inside group g at any depth.
export function groupChangeCounts(parent, nodeGroup, kinds) {
  const groupCount = parent.length;
  const counts = new Int32Array(3 * groupCount);
  for (let i = 0; i < kinds.length; i++) {
    const k = kinds[i] - 1;
    if (k < 0) continue;
    let steps = 0;
    for (let g = nodeGroup[i]; g >= 0 && g < groupCount && steps++ <= groupCount; g = parent[g]) counts[3 * g + k]++;
  }
  return counts;
}

// What a step marks on the boxes of the model's graph: `kinds` (per node), `counts` (per group,
// as above), `parts[g]` (the badge: [{text: '+12', color}], null when nothing inside changed;
// colours from `palette`, the diff colours the nodes are drawn in) and title(g) (the counts in
// words: '12 added, 3 removed, 5 changed').
export function groupMarks(model, step, palette) {
  const kinds = changeKinds(model.nodeCount, step);
  const counts = groupChangeCounts(model.g.parent, model.n.group, kinds);
  const parts = new Array(model.groupCount).fill(null);
  for (let g = 0; g < model.groupCount; g++) {
    const list = [];
    MARK_KINDS.forEach((kind, k) => {
      const n = counts[3 * g + k];
      if (n) list.push({ text: `${SIGN[kind]}${n.toLocaleString('en-US')}`, color: palette[kind].stroke });
    });
    if (list.length) parts[g] = list;
  }
  const title = (g) =>
    MARK_KINDS.map((kind, k) => [counts[3 * g + k], kind])
      .filter(([n]) => n)
      .map(([n, kind]) => `${n.toLocaleString('en-US')} ${kind}`)
      .join(', ');
  return { kinds, counts, parts, title };
}

// Group g's counts in words, each in its kind's colour: the group panel's line.
export function markLine(counts, g) {
  const line = document.createElement('div');
  line.className = 'timeline-status timeline-marks';
  const parts = MARK_KINDS.map((kind, k) => [counts[3 * g + k], kind]).filter(([c]) => c);
  if (!parts.length) line.textContent = 'nothing inside changed';
  else line.append('inside: ');
  parts.forEach(([c, kind], k) => {
    const span = document.createElement('span');
    span.className = `diff-text-${kind}`;
    span.textContent = `${SIGN[kind]}${c.toLocaleString('en-US')} ${kind}`;
    line.append(...(k ? [' ', span] : [span]));
  });
  return line;
}

// Per node, its depth along the graph's edges (the longest path from a node without inputs):
// inside a collapsed box, where nothing is laid out, this stands for top to bottom. Nodes on a
// cycle (a union of steps may rewire one) keep the depth reached so far.
const ranks = new WeakMap();
export function dataflowRank(model) {
  let rank = ranks.get(model);
  if (rank) return rank;
  const n = model.nodeCount;
  rank = new Int32Array(n);
  const indegree = new Int32Array(n);
  for (let e = 0; e < model.edgeCount; e++) indegree[model.e.dst[e]]++;
  const queue = [];
  for (let i = 0; i < n; i++) if (!indegree[i]) queue.push(i);
  for (let q = 0; q < queue.length; q++) {
    const i = queue[q];
    for (const e of model.outEdges.of(i)) {
      const j = model.e.dst[e];
      if (rank[j] < rank[i] + 1) rank[j] = rank[i] + 1;
      if (--indegree[j] === 0) queue.push(j);
    }
  }
  ranks.set(model, rank);
  return rank;
}

// `nodes` in reading order: by the box that stands for each on screen (`boxOf(i)`: the node, or
// the collapsed box holding it), top to bottom, then left to right; nodes sharing a box by
// their depth along the edges, then by id.
export function readingOrder(nodes, boxOf, rank) {
  const keys = new Map();
  for (const i of nodes) {
    const b = boxOf(i);
    keys.set(i, [Math.round(b.y), Math.round(b.x), rank[i], i]);
  }
  return Array.from(nodes).sort((a, b) => {
    const p = keys.get(a),
      q = keys.get(b);
    for (let k = 0; k < 4; k++) if (p[k] !== q[k]) return p[k] - q[k];
    return 0;
  });
}

// j / k: the selection and camera go to the next / previous change of the current step in
// reading order, opening the boxes that hold it; past the last (first) change the walk wraps
// around, with a toast. The order is taken when the walk starts and kept while the walk opens
// boxes (so each change comes once per round); a step, graph or layout changed otherwise starts
// a new one. `status` (an element) says "change 3 of 40".
export class ChangeWalk {
  constructor(timeline, status) {
    this.timeline = timeline;
    this.status = status;
    this.reset();
  }

  // The step or graph changed: a new walk.
  reset() {
    this.order = null;
    this.layoutSeen = null;
    this.cursor = -1;
    this.show();
  }

  // The current step's changes: changed, added and removed view nodes.
  changes() {
    const t = this.timeline;
    const kinds = t.decoration(t.step).marks.kinds;
    const out = [];
    for (let i = 0; i < kinds.length; i++) if (kinds[i]) out.push(i);
    return out;
  }

  // The changes in reading order as the graph is drawn now.
  currentOrder() {
    const host = this.timeline.host;
    return readingOrder(this.changes(), (i) => host.boxOf(i), dataflowRank(host.model));
  }

  // The first change in reading order, or -1 (where a diff's first view starts).
  first() {
    const order = this.currentOrder();
    return order.length ? order[0] : -1;
  }

  move(dir) {
    const host = this.timeline.host;
    if (!this.order || host.layout !== this.layoutSeen) {
      this.order = this.currentOrder();
      this.cursor = -1;
    }
    const order = this.order;
    if (!order.length) {
      host.toast('No changes in this step.');
      this.show();
      return;
    }
    const at = this.anchor(order, dir);
    let next = at + dir;
    if (next >= order.length || next < 0) {
      next = dir > 0 ? 0 : order.length - 1;
      if (at >= 0 && at < order.length)
        host.toast(dir > 0 ? 'Past the last change: back to the first' : 'Before the first change: on to the last');
    }
    this.cursor = next;
    host.selectNode(order[next], { center: true });
    this.layoutSeen = host.layout;
    this.show();
  }

  // A node was selected (by the walk, a click, search...): the status says which change it is.
  selected(i) {
    if (!this.order || this.order[this.cursor] === i) return;
    this.cursor = i >= 0 ? this.order.indexOf(i) : -1;
    this.show();
  }

  // Where the walk stands: the selected change, else (another node selected) the place in the
  // order where the selected node would be, else before the first / after the last.
  anchor(order, dir) {
    const host = this.timeline.host;
    const sel = host.selectedNode;
    if (sel < 0) return dir > 0 ? -1 : order.length;
    if (order[this.cursor] === sel) return this.cursor;
    const k = order.indexOf(sel);
    if (k >= 0) return k;
    const b = host.boxOf(sel);
    const after = order.findIndex((i) => {
      const c = host.boxOf(i);
      return Math.round(c.y) > Math.round(b.y) || (Math.round(c.y) === Math.round(b.y) && c.x > b.x);
    });
    const pos = after < 0 ? order.length : after;
    // Between pos - 1 and pos: the next is pos, the previous pos - 1.
    return dir > 0 ? pos - 1 : pos;
  }

  // The status line: where the walk stands, or the keys and how many changes there are.
  show() {
    const t = this.timeline;
    const total = t.host && t.active ? this.changes().length : 0;
    const n = (x) => x.toLocaleString('en-US');
    this.status.textContent =
      this.cursor >= 0 && this.order
        ? `change ${n(this.cursor + 1)} of ${n(this.order.length)} (j / k)`
        : total
          ? `j / k: walk through the ${n(total)} changed nodes`
          : '';
    this.status.hidden = !this.status.textContent;
  }

  facade() {
    return {
      // Group g's counts in the current step (k: another step): {added, removed, changed}.
      marks: (g, k) => {
        const c = this.timeline.decoration(k === undefined ? this.timeline.step : k).marks.counts;
        return Object.fromEntries(MARK_KINDS.map((kind, j) => [kind, c[3 * g + j]]));
      },
      // The badge text of group g ('' when nothing inside changed) and its words.
      badge: (g) => {
        const m = this.timeline.decoration(this.timeline.step).marks;
        return m.parts[g] ? m.parts[g].map((p) => p.text).join(' ') : '';
      },
      // The walk: its order (null before the first j / k), where it stands, its status text.
      walk: () => ({
        order: this.order ? this.order.slice() : null,
        cursor: this.cursor,
        status: this.status.hidden ? '' : this.status.textContent,
      }),
      firstChange: () => this.first(),
      next: () => this.move(1),
      previous: () => this.move(-1),
    };
  }
}
