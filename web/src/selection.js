// The selection and the details panel: selecting a node (opening the boxes that hide it), an
// edge or a group, the edges that light up with it, and the panel that describes it (with
// the overlays' sections), or the file's summary when nothing is selected.
//
// Gives the host (main.js): highlight ({edges, detached}: what frames draw lit);
// selectNode(i, {center}), selectEdge(e), selectGroup(g), clearSelection(), showSummary(),
// refreshPanel(), factsModel().
// Uses of the host: view, model, data, state, overlays, engine, relayout(), zoomToNode(i),
// toggleGroup(g), rememberSelection(i), copyNodeLink(i), searchFor(query).
import { $ } from './dom.js';
import { ancestorsToExpand } from './visibility.js';
import { showNode, showEdge, showGroup, showSummary } from './panel.js';

export class Selection {
  /** @param {import('./main.js').App} host */
  constructor(host) {
    this.host = host;
    // Edges drawn lit (one byte per edge), and the detached edges of the selected node, which
    // are drawn only while it is selected.
    this.highlight = { edges: null, detached: [] };
  }

  selectNode(i, { center = false } = {}) {
    const h = this.host;
    const v = h.view;
    const m = v.model;
    if (i < 0 || i >= m.nodeCount) return;
    const hier = v.hierarchy;
    const hidden = ancestorsToExpand(hier.parent, hier.nodeGroup, v.expanded, i);
    if (hidden.length && h.engine) {
      for (const g of hidden) v.expanded[g] = 1;
      h.relayout();
      center = true;
    }
    const hl = new Uint8Array(m.edgeCount);
    const detached = [];
    for (const e of m.inEdges.of(i)) {
      hl[e] = 1;
      if (m.e.detached[e]) detached.push(e);
    }
    for (const e of m.outEdges.of(i)) {
      hl[e] = 1;
      if (m.e.detached[e]) detached.push(e);
    }
    this.highlight = { edges: hl, detached };
    h.state.select({ node: i });
    this.showNodePanel(i);
    h.rememberSelection(i);
    h.overlays.selected(i);
    if (center) h.zoomToNode(i);
  }
  // The model the panel and tooltip read: an overlay's (a timeline step's own facts) or the
  // graph's.
  factsModel() {
    return this.host.overlays.factsModel() || this.host.model;
  }
  showNodePanel(i) {
    const h = this.host;
    const panel = $('panel');
    showNode(
      panel,
      this.factsModel(),
      h.data,
      i,
      (n) => this.selectNode(n, { center: true }),
      () => h.copyNodeLink(i),
    );
    for (const section of h.overlays.panelSections(i).reverse()) panel.insertBefore(section, panel.children[1] || null);
  }
  // The selection's panel again, after the facts it shows changed (another timeline step).
  refreshPanel() {
    const s = this.host.state;
    if (s.node >= 0) this.showNodePanel(s.node);
    else if (s.edge >= 0) this.showEdgePanel(s.edge);
    else if (s.group >= 0) this.showGroupPanel(s.group);
  }
  selectEdge(e) {
    const m = this.host.model;
    const hl = new Uint8Array(m.edgeCount);
    const v = m.e.val[e];
    for (let k = 0; k < m.edgeCount; k++) if (k === e || (v >= 0 && m.e.val[k] === v)) hl[k] = 1;
    this.highlight = { edges: hl, detached: [] };
    this.host.state.select({ edge: e });
    this.showEdgePanel(e);
  }
  showEdgePanel(e) {
    showEdge($('panel'), this.factsModel(), e, (n) => this.selectNode(n, { center: true }));
  }
  selectGroup(g) {
    this.highlight = { edges: null, detached: this.highlight.detached };
    this.host.state.select({ group: g });
    this.showGroupPanel(g);
  }
  showGroupPanel(g) {
    const h = this.host;
    const panel = $('panel');
    showGroup(
      panel,
      this.factsModel(),
      h.data,
      g,
      !!h.view.expanded[g],
      (x) => {
        h.toggleGroup(x);
        this.selectGroup(x);
      },
      (q) => h.searchFor(q),
    );
    for (const section of h.overlays.groupPanelSections(g).reverse())
      panel.insertBefore(section, panel.children[3] || null);
  }
  clearSelection() {
    const h = this.host;
    if (h.state.node >= 0) h.rememberSelection(-1);
    this.highlight = { edges: null, detached: this.highlight.detached };
    h.state.select({});
    h.overlays.selected(-1);
    this.showSummary();
  }
  // Nothing selected: the file and graph summary.
  showSummary() {
    showSummary($('panel'), this.host.data, this.host.model, (q) => this.host.searchFor(q));
  }
}
