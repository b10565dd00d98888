// Overlays: data drawn over the graph without the viewer knowing what it is (a runtime
// profile today; a diff, a user's node data or a memory view the same way). An overlay is an
// object with any of these members; the viewer calls each one that is there:
//
//   id                      short name ('profile'); the test facade reaches it by this name
//   attach(host)            called once with the host API below
//   nodeStyles()            -> null, or { bucket: Uint8Array (a style index per node of the
//                              shown graph), styles: [{fill, stroke, strip}] }: the first
//                              active overlay that returns styles colours the nodes instead
//                              of their categories (collapsed delegate boxes follow their
//                              call node)
//   legend                  an element shown in the stage while the overlay colours nodes
//                           (the category legend is hidden then)
//                              A style may say { hidden: true } (the node is not drawn, not
//                              hit and not found: not in this step) or { ghost: true } (drawn
//                              dashed and faint: where a removed node was); the result may
//                              carry groupHidden (Uint8Array per group: 1 = box not drawn)
//                              and groupMarks ({parts: per group null or [{text, color}], a
//                              badge drawn on the collapsed box; title(g): its words, for the
//                              tooltip): what changed inside each box
//   edgeHidden()            -> null or a Uint8Array (1: do not draw edge e)
//   nodeLabels()            -> null or a Map node -> text drawn instead of the node's label
//   valueLabels()           -> null or a Map value -> text written on the value's edges
//                              instead of its own shape and dtype
//   factsModel()            -> null or the model the panel and tooltip read nodes and values
//                              from instead of the graph's: the same graph, answering some
//                              facts otherwise (a timeline step's op, arguments, attributes
//                              and tensors); its nodes, values and edges are the graph's
//   panes()                 -> null, or [{ title, nodeStyles, edgeHidden, nodeLabels,
//                              valueLabels, facts }]: the stage splits into that many panes
//                              side by side, each drawing the same graph, layout and camera
//                              with its own decoration (a selection, search and camera shared
//                              by all; `facts`: the pane's facts model, for its tooltip)
//   panelSection(node)      -> null or an element the panel shows under the node's title
//   groupPanelSection(g)    -> null or an element the panel shows for a selected group
//   focus()                 -> null or {node}: where a start view (a graph too big to read
//                              whole) begins instead of the graph's top (a diff's first change)
//   onGraph()               the graph on show or the theme changed
//   onSelect(node)          a node was selected (-1: cleared)
//   facade()                -> an object of read-only helpers for tests (docs/viewer.md)
//
// Overlays bind their keys in host.keys (one KeyMap, listed in the help card), put their
// legends into host.stage (over the canvas) and tables into host.dock (under the canvas,
// which shrinks to make room); they never reach into the viewer otherwise.
//
// Host API (what attach() receives):
//   host.model, host.graphIndex, host.theme, host.stage, host.dock, host.keys
//   host.selectedNode (-1: none), host.selectGraph(i), host.selectNode(i, {center}),
//   host.redraw() (colours changed), host.panesChanged() (panes() returns another count),
//   host.refreshPanel() (the facts the panel shows changed: it shows the selection again),
//   host.layout (the layout on show: a new object after each re-layout), host.boxOf(i) (where
//   node i is drawn: its box or the collapsed box holding it), host.toast(text)
import { el } from './dom.js';

// Per page graph, an overlay's entry and where each of its nodes sits in the entry's arrays:
// graph index -> { g, m: Map(node index -> position) } for data given per graph as
// { graph, node: [node indices], ...columns } (the profile and node-data overlays).
export function indexByGraph(graphs) {
  const index = new Map();
  for (const g of graphs) {
    const m = new Map();
    g.node.forEach((n, k) => m.set(n, k));
    index.set(g.graph, { g, m });
  }
  return index;
}

// The legend of an overlay whose colours can be switched off (node data, numerics): a head with
// a title and an on/off toggle that calls onToggle, a body hidden while off, and a warning line.
// `what` names the colours in the toggle's tooltip. The caller fills title and body, appends
// the parts to `box` in the order it shows them and puts the box on the stage.
export function toggleLegend(id, className, what, onToggle) {
  const box = el('div', className);
  box.id = id;
  const head = el('div', 'nd-head');
  const title = el('div', 'heat-title nd-title');
  const toggle = el('button', 'btn toggle nd-toggle');
  toggle.title = `${what} colours on / off (off: category colours)`;
  toggle.addEventListener('click', onToggle);
  head.append(title, toggle);
  const body = el('div', 'nd-body');
  const warn = el('div', 'nd-warn');
  return { box, head, title, toggle, body, warn };
}

export class OverlayHost {
  constructor(host) {
    this.host = host;
    this.overlays = [];
  }

  add(overlay) {
    this.overlays.push(overlay);
    if (overlay.attach) overlay.attach(this.host);
    return overlay;
  }

  get(id) {
    return this.overlays.find((o) => o.id === id) || null;
  }

  // The node colouring of the first overlay that has one, or null (category colours).
  nodeStyles() {
    for (const o of this.overlays) {
      const s = o.nodeStyles ? o.nodeStyles() : null;
      if (s) return s;
    }
    return null;
  }

  // The first overlay's answer to `method` that is not null, or null.
  first(method) {
    for (const o of this.overlays) {
      const r = o[method] ? o[method]() : null;
      if (r) return r;
    }
    return null;
  }
  edgeHidden() {
    return this.first('edgeHidden');
  }
  nodeLabels() {
    return this.first('nodeLabels');
  }
  valueLabels() {
    return this.first('valueLabels');
  }
  factsModel() {
    return this.first('factsModel');
  }
  panes() {
    return this.first('panes');
  }
  focus() {
    return this.first('focus');
  }

  panelSections(node) {
    return this.all('panelSection', node);
  }
  groupPanelSections(g) {
    return this.all('groupPanelSection', g);
  }

  // What every overlay that has member `name` returns for `arg`, nulls left out.
  all(name, arg) {
    const out = [];
    for (const o of this.overlays) {
      const el = o[name] ? o[name](arg) : null;
      if (el) out.push(el);
    }
    return out;
  }

  graphChanged() {
    for (const o of this.overlays) if (o.onGraph) o.onGraph();
  }
  selected(node) {
    for (const o of this.overlays) if (o.onSelect) o.onSelect(node);
  }
}
