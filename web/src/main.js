// The viewer application: state, input handling and the frame loop.
import { readEmbeddedData, GraphModel, formatBytes } from './data.js';
import { Camera, keepAnchor } from './camera.js';
import { computeVisibility, visibleBoxes, ancestorsToExpand, expandToDepth } from './visibility.js';
import { searchNodes } from './search.js';
import { Renderer, readTheme, FRAME_HEADER } from './render.js';
import { showNode, showEdge, showGroup, showSummary } from './panel.js';
import { createLayoutEngine, layoutBounds } from './layout_wasm.js';
import { junctions } from './routes.js';
import { ProfileOverlay } from './profile_overlay.js';

const $ = (id) => document.getElementById(id);

// Per-graph view state, kept when switching graphs.
class GraphView {
  constructor(model) {
    this.model = model;
    this.expanded = Uint8Array.from(model.initialExpanded);
    this.camera = new Camera();
    this.fitted = false;
    this.setLayout(model.initialLayout);
  }
  setLayout(layout) {
    const m = this.model;
    this.layout = layout;
    this.vis = computeVisibility(m.g.parent, m.n.group, this.expanded);
    this.boxes = visibleBoxes(this.vis, this.expanded);
    this.framesByDepth = Array.from(this.boxes.frames).sort((a, b) => m.groupDepth[a] - m.groupDepth[b]);
    // Edge bounding boxes for culling; edges without a route are hidden inside a group.
    const eb = new Float64Array(4 * m.edgeCount);
    const { ptOff, pts } = layout;
    const j = junctions(layout);
    layout.jx = j.jx;
    layout.jy = j.jy;
    for (let e = 0; e < m.edgeCount; e++) {
      let ax = Infinity, ay = Infinity, bx = -Infinity, by = -Infinity;
      if (!Number.isNaN(j.jx[e])) { ax = bx = j.jx[e]; ay = by = j.jy[e]; }
      for (let k = ptOff[e]; k < ptOff[e + 1]; k++) {
        const x = pts[2 * k], y = pts[2 * k + 1];
        if (x < ax) ax = x; if (x > bx) bx = x; if (y < ay) ay = y; if (y > by) by = y;
      }
      eb[4 * e] = ax; eb[4 * e + 1] = ay; eb[4 * e + 2] = bx; eb[4 * e + 3] = by;
    }
    this.edgeBounds = eb;
    this.bounds = layoutBounds(layout, this.boxes);
    this.qdqRects = this.model.qdq.map((members) => {
      let ax = Infinity, ay = Infinity, bx = -Infinity, by = -Infinity;
      let shown = 0;
      for (const i of members) {
        if (this.vis.nodeRep[i] >= 0) continue;
        shown++;
        ax = Math.min(ax, layout.nx[i]); ay = Math.min(ay, layout.ny[i]);
        bx = Math.max(bx, layout.nx[i] + layout.nw[i]); by = Math.max(by, layout.ny[i] + layout.nh[i]);
      }
      return shown > 1 ? { x: ax - 6, y: ay - 6, w: bx - ax + 12, h: by - ay + 12 } : null;
    }).filter(Boolean);
  }
}

class App {
  constructor(data) {
    this.data = data;
    this.canvas = $('canvas');
    this.renderer = new Renderer(this.canvas);
    this.models = data.graphs.map((_, i) => new GraphModel(data, i));
    this.views = new Array(this.models.length);
    this.catHidden = new Uint8Array(data.cats.length);
    this.showShapes = false;
    this.showQdq = false;
    this.selectedNode = -1;
    this.selectedEdge = -1;
    this.selectedGroup = -1;
    this.matches = null;
    this.matchList = [];
    this.matchCursor = -1;
    this.frameTimes = [];
    this.pending = false;
    this.engine = null;
    this.dpr = window.devicePixelRatio || 1;
  }

  get view() { return this.views[this.current]; }
  get model() { return this.view.model; }

  start() {
    this.initTheme();
    this.buildHeader();
    this.bindInput();
    this.profile = ProfileOverlay.fromPage(document, this);  // null without --etdump
    this.selectGraph(this.defaultGraph());
    new ResizeObserver(() => this.resize()).observe($('stage'));
    this.resize();
  }

  defaultGraph() {
    // The graph with the most nodes is the interesting one (forward, not a constant getter).
    let best = 0;
    this.models.forEach((m, i) => { if (m.irNodes > this.models[best].irNodes) best = i; });
    const forward = this.models.findIndex((m) => m.name === 'forward');
    return forward >= 0 && this.models[forward].irNodes > 0 ? forward : best;
  }

  // ---- header, legend, theme ------------------------------------------------------------
  buildHeader() {
    const d = this.data;
    $('file-name').textContent = d.file.name;
    const sel = $('graph-select');
    sel.replaceChildren();
    this.models.forEach((m, i) => {
      const o = document.createElement('option');
      o.value = String(i);
      o.textContent = `${m.name || `graph ${i}`} (${m.irNodes})`;
      sel.appendChild(o);
    });
    sel.disabled = this.models.length < 2;
    sel.addEventListener('change', () => this.selectGraph(Number(sel.value)));
  }

  updateMeta() {
    const d = this.data;
    const m = this.model;
    const parts = [d.file.format.replace(/_/g, ' '), formatBytes(d.file.size), `${this.models.length} graph${this.models.length === 1 ? '' : 's'}`,
      `${m.irNodes.toLocaleString('en-US')} nodes`, `${m.edgeCount.toLocaleString('en-US')} edges`];
    if (m.nodeCount > m.irNodes) parts.push(`+${(m.nodeCount - m.irNodes).toLocaleString('en-US')} in subgraphs`);
    if (d.delegates.length) parts.push(`${d.delegates.length} delegate${d.delegates.length === 1 ? '' : 's'}`);
    $('file-meta').textContent = parts.join(' · ');
    $('file-meta').dataset.nodes = String(m.irNodes);
  }

  buildLegend() {
    const m = this.model;
    const counts = new Array(this.data.cats.length).fill(0);
    for (let i = 0; i < m.nodeCount; i++) counts[m.n.cat[i]]++;
    const legend = $('legend');
    legend.replaceChildren();
    this.data.cats.forEach((c, k) => {
      if (!counts[k]) return;
      const item = document.createElement('div');
      item.className = 'item' + (this.catHidden[k] ? ' off' : '');
      item.title = `${c.rule}\nClick to fade or show`;
      item.dataset.category = c.id;
      const sw = document.createElement('span');
      sw.className = 'sw';
      sw.style.background = c.color;
      const label = document.createElement('span');
      label.textContent = c.label;
      const count = document.createElement('span');
      count.className = 'count';
      count.textContent = counts[k].toLocaleString('en-US');
      item.append(sw, label, count);
      item.addEventListener('click', () => {
        this.catHidden[k] ^= 1;
        item.classList.toggle('off', !!this.catHidden[k]);
        this.invalidateOverview();
      });
      legend.appendChild(item);
    });
  }

  initTheme() {
    let saved = null;
    try { saved = localStorage.getItem('etviz-theme'); } catch (e) { /* file:// may forbid storage */ }
    const system = window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
    this.setTheme(saved || system, false);
  }
  setTheme(name, remember = true) {
    document.documentElement.dataset.theme = name;
    if (remember) try { localStorage.setItem('etviz-theme', name); } catch (e) { /* ignore */ }
    this.theme = readTheme(document.documentElement, this.data.cats);
    if (this.profile) this.profile.onGraph();
    this.invalidateOverview();
  }

  // ---- graphs and layout -----------------------------------------------------------------
  selectGraph(i) {
    this.current = i;
    if (!this.views[i]) this.views[i] = new GraphView(this.models[i]);
    $('graph-select').value = String(i);
    this.selectedNode = this.selectedEdge = this.selectedGroup = -1;
    this.matches = null;
    this.updateMeta();
    this.buildLegend();
    if (this.profile) this.profile.onGraph();
    showSummary($('panel'), this.data, this.model);
    this.invalidateOverview();
    if (!this.view.fitted && this.width) { this.initialView(); this.view.fitted = true; }
    if ($('search').value) this.runSearch();
    this.warmLayoutCache();
    this.requestRender();
  }

  relayout() {
    const v = this.view;
    const t0 = performance.now();
    const layout = this.engine.run(v.model, v.expanded);
    v.setLayout(layout);
    this.lastLayoutMs = performance.now() - t0;
    this.invalidateOverview();
  }

  // Expands or collapses group g, keeping the pointer over the same spot of the group.
  toggleGroup(g, screen) {
    const v = this.view;
    if (!this.engine) {
      this.toast(this.engineError || 'Expand/collapse needs the WebAssembly layout engine, which this etviz build does not include; the precomputed layout is shown.');
      return false;
    }
    const t0 = performance.now();
    const L = v.layout;
    const sx = screen ? screen[0] : this.width / 2;
    const sy = screen ? screen[1] : this.height / 2;
    const [wx, wy] = v.camera.toWorld(sx, sy);
    const dx = wx - L.gx[g], dy = wy - L.gy[g];
    v.expanded[g] ^= 1;
    this.relayout();
    const N = v.layout;
    const ax = N.gx[g] + Math.min(Math.max(dx, 0), N.gw[g]);
    const ay = N.gy[g] + Math.min(Math.max(dy, 0), N.gh[g]);
    keepAnchor(v.camera, [wx, wy], [ax, ay]);
    this.selectedGroup = g;
    this.lastToggleMs = performance.now() - t0;
    this.requestRender();
    return true;
  }

  setAllExpanded(level) {
    const v = this.view;
    if (!this.engine) { this.toggleGroup(-1); return; }
    v.expanded = expandToDepth(v.model.groupDepth, level);
    this.relayout();
    this.fit();
  }

  // The engine caches each level's layout and, separately, its layering and order between
  // runs; one run of the current state, while the user is still looking, makes the first
  // expand or collapse an incremental one (a toggled group's parent keeps its order and only
  // gets new coordinates). About 0.3 s at 100k nodes; skipped beyond 300k, where that run
  // would hold up the page for seconds.
  warmLayoutCache() {
    const v = this.view;
    if (!this.engine || !v.model.groupCount || v.model.nodeCount > 300000) return;
    const run = () => {
      const t = performance.now();
      this.engine.run(v.model, v.expanded);
      this.warmupMs = performance.now() - t;
    };
    if (window.requestIdleCallback) requestIdleCallback(run, { timeout: 2000 }); else setTimeout(run, 50);
  }
  invalidateOverview() {
    this.renderer.overview = null;
    this.minimapImage = null;
    this.requestRender();
  }

  // ---- camera ----------------------------------------------------------------------------
  resize() {
    const stage = $('stage');
    this.width = stage.clientWidth;
    this.height = stage.clientHeight;
    this.dpr = window.devicePixelRatio || 1;
    this.canvas.width = Math.round(this.width * this.dpr);
    this.canvas.height = Math.round(this.height * this.dpr);
    if (this.view && !this.view.fitted) { this.initialView(); this.view.fitted = true; }
    this.requestRender();
  }
  // Small graphs fit the window; tall ones start readable at the top (f fits everything).
  // The legend covers the top-left corner; fitted views leave it room.
  legendWidth() {
    const el = [$('legend'), $('heat-legend')].find((e) => e && e.offsetWidth);
    return el ? el.offsetWidth + 12 : 0;
  }
  initialView() {
    const b = this.view.bounds;
    const cam = this.view.camera;
    const lw = this.legendWidth();
    cam.fit(b, this.width - lw, this.height, 32, 1.4);
    cam.x += lw;
    if (cam.scale >= 0.45) return;
    cam.scale = Math.max(cam.scale, Math.min(1, (this.width - 64) / Math.max(b.w, 1)), 0.45);
    // Centre on the median box, not the bounding box: one wide row (parameters laid out at the
    // top) would otherwise leave the view on empty space.
    const L = this.view.layout;
    const xs = Array.from(this.view.boxes.nodes, (i) => L.nx[i] + L.nw[i] / 2).sort((p, q) => p - q);
    const mid = xs.length ? xs[xs.length >> 1] : b.x + b.w / 2;
    cam.x = lw + (this.width - lw) / 2 - mid * cam.scale;
    cam.y = 32 - b.y * cam.scale;
    if (b.w * cam.scale <= this.width - lw) cam.x = lw + (this.width - lw) / 2 - (b.x + b.w / 2) * cam.scale;
  }
  fit() {
    const b = this.view.bounds;
    const lw = this.legendWidth();
    this.view.camera.fit(b, this.width - lw, this.height, 32, 1.4);
    this.view.camera.x += lw;
    this.requestRender();
  }
  zoomToNode(i) {
    const L = this.view.layout;
    const cam = this.view.camera;
    if (cam.scale < 0.9) cam.scale = 1.1;
    cam.centerOn(L.nx[i] + L.nw[i] / 2, L.ny[i] + L.nh[i] / 2, this.width, this.height);
    this.requestRender();
  }

  // ---- selection -------------------------------------------------------------------------
  selectNode(i, { center = false } = {}) {
    const v = this.view;
    const m = v.model;
    if (i < 0 || i >= m.nodeCount) return;
    const hidden = ancestorsToExpand(m.g.parent, m.n.group, v.expanded, i);
    if (hidden.length && this.engine) {
      for (const g of hidden) v.expanded[g] = 1;
      this.relayout();
      center = true;
    }
    this.selectedNode = i;
    this.selectedEdge = -1;
    this.selectedGroup = -1;
    const hl = new Uint8Array(m.edgeCount);
    const detached = [];
    for (const e of m.inEdges.of(i)) { hl[e] = 1; if (m.e.detached[e]) detached.push(e); }
    for (const e of m.outEdges.of(i)) { hl[e] = 1; if (m.e.detached[e]) detached.push(e); }
    this.edgeHighlight = hl;
    this.detachedHighlight = detached;
    showNode($('panel'), m, this.data, i, (n) => this.selectNode(n, { center: true }));
    if (this.profile) this.profile.showTiming($('panel'), i);
    if (center) this.zoomToNode(i);
    this.requestRender();
  }
  selectEdge(e) {
    const m = this.model;
    this.selectedEdge = e;
    this.selectedNode = -1;
    this.selectedGroup = -1;
    const hl = new Uint8Array(m.edgeCount);
    const v = m.e.val[e];
    for (let k = 0; k < m.edgeCount; k++) if (k === e || (v >= 0 && m.e.val[k] === v)) hl[k] = 1;
    this.edgeHighlight = hl;
    this.detachedHighlight = [];
    showEdge($('panel'), m, e, (n) => this.selectNode(n, { center: true }));
    this.requestRender();
  }
  selectGroup(g) {
    this.selectedGroup = g;
    this.selectedNode = -1;
    this.edgeHighlight = null;
    showGroup($('panel'), this.model, this.data, g, !!this.view.expanded[g], (x) => { this.toggleGroup(x); this.selectGroup(x); });
    this.requestRender();
  }
  clearSelection() {
    this.selectedNode = this.selectedEdge = this.selectedGroup = -1;
    this.edgeHighlight = null;
    showSummary($('panel'), this.data, this.model);
    this.requestRender();
  }

  // ---- hit testing -----------------------------------------------------------------------
  hit(sx, sy) {
    const v = this.view;
    const L = v.layout;
    const [wx, wy] = v.camera.toWorld(sx, sy);
    const nodes = v.boxes.nodes;
    for (let k = nodes.length - 1; k >= 0; k--) {
      const i = nodes[k];
      if (wx >= L.nx[i] && wx <= L.nx[i] + L.nw[i] && wy >= L.ny[i] && wy <= L.ny[i] + L.nh[i]) return { node: i };
    }
    for (const g of v.boxes.collapsed)
      if (wx >= L.gx[g] && wx <= L.gx[g] + L.gw[g] && wy >= L.gy[g] && wy <= L.gy[g] + L.gh[g]) return { group: g };
    for (let k = v.framesByDepth.length - 1; k >= 0; k--) {
      const g = v.framesByDepth[k];
      if (wx >= L.gx[g] && wx <= L.gx[g] + L.gw[g] && wy >= L.gy[g] && wy <= L.gy[g] + FRAME_HEADER) return { group: g, header: true };
    }
    // Nearest edge segment within 5 screen pixels.
    const tol = 5 / v.camera.scale;
    const m = v.model;
    let best = -1, bestD = tol;
    for (let e = 0; e < m.edgeCount; e++) {
      const eb = v.edgeBounds;
      if (wx < eb[4 * e] - tol || wx > eb[4 * e + 2] + tol || wy < eb[4 * e + 1] - tol || wy > eb[4 * e + 3] + tol) continue;
      const a = L.ptOff[e], b = L.ptOff[e + 1];
      if (!Number.isNaN(L.jx[e]) && b > a) {
        const d = segmentDistance(wx, wy, L.jx[e], L.jy[e], L.pts[2 * a], L.pts[2 * a + 1]);
        if (d < bestD) { bestD = d; best = e; }
      }
      for (let k = a; k + 1 < b; k++) {
        const d = segmentDistance(wx, wy, L.pts[2 * k], L.pts[2 * k + 1], L.pts[2 * k + 2], L.pts[2 * k + 3]);
        if (d < bestD) { bestD = d; best = e; }
      }
    }
    return best >= 0 ? { edge: best } : {};
  }

  // ---- search ----------------------------------------------------------------------------
  runSearch() {
    const q = $('search').value;
    const box = $('search-results');
    const r = searchNodes(this.model, q);
    this.matches = r.all && r.all.length ? r.all : null;
    this.matchList = r.all || [];
    this.matchCursor = -1;
    box.replaceChildren();
    if (!q.trim()) { box.hidden = true; this.requestRender(); return; }
    const summary = document.createElement('div');
    summary.className = 'summary';
    summary.textContent = r.error || `${r.total.toLocaleString('en-US')} match${r.total === 1 ? '' : 'es'}${r.total > r.results.length ? ` (first ${r.results.length} listed)` : ''} · Enter jumps`;
    box.appendChild(summary);
    const m = this.model;
    for (const i of r.results.slice(0, 200)) {
      const item = document.createElement('div');
      item.className = 'res';
      item.dataset.node = String(i);
      const op = document.createElement('span');
      op.className = 'op';
      op.textContent = m.nodeOp(i);
      const nm = document.createElement('span');
      nm.className = 'nm';
      nm.textContent = m.nodeModule(i) || m.nodeName(i);
      item.append(op, nm);
      item.addEventListener('mousedown', (ev) => { ev.preventDefault(); this.selectNode(i, { center: true }); });
      box.appendChild(item);
    }
    box.hidden = false;
    this.requestRender();
  }
  nextMatch(step = 1) {
    if (!this.matchList.length) return;
    this.matchCursor = (this.matchCursor + step + this.matchList.length) % this.matchList.length;
    const i = this.matchList[this.matchCursor];
    this.selectNode(i, { center: true });
    const box = $('search-results');
    for (const el of box.querySelectorAll('.res')) el.classList.toggle('active', Number(el.dataset.node) === i);
  }

  // ---- keyboard walking ------------------------------------------------------------------
  walk(dir) {
    const v = this.view;
    const m = v.model;
    const L = v.layout;
    let i = this.selectedNode;
    if (i < 0) { if (v.boxes.nodes.length) this.selectNode(v.boxes.nodes[0], { center: true }); return; }
    const cx = L.nx[i] + L.nw[i] / 2;
    const visible = (n) => v.vis.nodeRep[n] < 0;
    let best = -1, bestD = Infinity;
    if (dir === 'up' || dir === 'down') {
      const edges = dir === 'up' ? m.inEdges.of(i) : m.outEdges.of(i);
      for (const e of edges) {
        const n = dir === 'up' ? m.e.src[e] : m.e.dst[e];
        if (!visible(n)) continue;
        const d = Math.abs(L.nx[n] + L.nw[n] / 2 - cx);
        if (d < bestD) { bestD = d; best = n; }
      }
    } else {
      const cy = L.ny[i] + L.nh[i] / 2;
      for (const n of v.boxes.nodes) {
        if (n === i || Math.abs(L.ny[n] + L.nh[n] / 2 - cy) > L.nh[i]) continue;
        const d = L.nx[n] + L.nw[n] / 2 - cx;
        if (dir === 'left' ? d < 0 && -d < bestD : d > 0 && d < bestD) { bestD = Math.abs(d); best = n; }
      }
    }
    if (best >= 0) {
      this.selectNode(best);
      const [sx, sy] = v.camera.toScreen(L.nx[best] + L.nw[best] / 2, L.ny[best] + L.nh[best] / 2);
      if (sx < 40 || sy < 40 || sx > this.width - 40 || sy > this.height - 40) this.zoomToNode(best);
    }
  }

  // ---- input -----------------------------------------------------------------------------
  bindInput() {
    const c = this.canvas;
    const pointers = new Map();
    let drag = null;
    let pinch = null;
    c.addEventListener('pointerdown', (ev) => {
      c.setPointerCapture(ev.pointerId);
      pointers.set(ev.pointerId, [ev.offsetX, ev.offsetY]);
      if (pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        pinch = { d: Math.hypot(a[0] - b[0], a[1] - b[1]) };
        drag = null;
      } else {
        drag = { x: ev.offsetX, y: ev.offsetY, moved: false };
      }
    });
    c.addEventListener('pointermove', (ev) => {
      if (!pointers.has(ev.pointerId)) return;
      pointers.set(ev.pointerId, [ev.offsetX, ev.offsetY]);
      const cam = this.view.camera;
      if (pinch && pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
        cam.zoomAt((a[0] + b[0]) / 2, (a[1] + b[1]) / 2, d / (pinch.d || d));
        pinch.d = d;
        this.requestRender();
        return;
      }
      if (!drag) return;
      const dx = ev.offsetX - drag.x, dy = ev.offsetY - drag.y;
      if (!drag.moved && Math.hypot(dx, dy) < 4) return;
      drag.moved = true;
      c.classList.add('dragging');
      cam.panBy(dx, dy);
      drag.x = ev.offsetX;
      drag.y = ev.offsetY;
      this.requestRender();
    });
    const end = (ev) => {
      pointers.delete(ev.pointerId);
      c.classList.remove('dragging');
      if (pointers.size < 2) pinch = null;
      if (drag && !drag.moved && ev.type === 'pointerup') this.click(ev.offsetX, ev.offsetY);
      drag = null;
    };
    c.addEventListener('pointerup', end);
    c.addEventListener('pointercancel', end);
    c.addEventListener('wheel', (ev) => {
      ev.preventDefault();
      const k = ev.ctrlKey ? 0.01 : 0.0015;
      const delta = ev.deltaMode === 1 ? ev.deltaY * 33 : ev.deltaY;
      this.view.camera.zoomAt(ev.offsetX, ev.offsetY, Math.exp(-delta * k));
      this.requestRender();
    }, { passive: false });

    $('btn-fit').addEventListener('click', () => this.fit());
    $('btn-expand').addEventListener('click', () => this.setAllExpanded(Infinity));
    $('btn-collapse').addEventListener('click', () => this.setAllExpanded(0));
    $('btn-shapes').addEventListener('click', () => this.toggleShapes());
    $('btn-qdq').addEventListener('click', () => this.toggleQdq());
    $('btn-theme').addEventListener('click', () => this.setTheme(this.theme.dark ? 'light' : 'dark'));
    $('btn-help').addEventListener('click', () => this.toggleHelp());
    const search = $('search');
    search.addEventListener('input', () => this.runSearch());
    search.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter') { ev.preventDefault(); this.nextMatch(ev.shiftKey ? -1 : 1); }
      if (ev.key === 'Escape') { search.value = ''; this.runSearch(); search.blur(); c.focus(); }
    });
    search.addEventListener('blur', () => setTimeout(() => { $('search-results').hidden = true; }, 150));
    search.addEventListener('focus', () => { if (search.value.trim()) $('search-results').hidden = false; });
    this.bindMinimap();
    window.addEventListener('keydown', (ev) => this.key(ev));
  }

  click(sx, sy) {
    const h = this.hit(sx, sy);
    if (h.node !== undefined) this.selectNode(h.node);
    else if (h.group !== undefined) {
      this.toggleGroup(h.group, [sx, sy]);
      this.selectGroup(h.group);
    } else if (h.edge !== undefined) this.selectEdge(h.edge);
    else this.clearSelection();
  }

  toggleShapes() {
    this.showShapes = !this.showShapes;
    $('btn-shapes').classList.toggle('on', this.showShapes);
    this.requestRender();
  }
  toggleQdq() {
    this.showQdq = !this.showQdq;
    $('btn-qdq').classList.toggle('on', this.showQdq);
    if (this.showQdq && !this.model.qdq.length) this.toast('No QDQ clusters (dequantize → op → quantize) in this graph.');
    this.requestRender();
  }
  toggleHelp(force) {
    const h = $('help');
    h.hidden = force !== undefined ? !force : !h.hidden;
  }

  key(ev) {
    const tag = (ev.target && ev.target.tagName) || '';
    if (tag === 'INPUT' || tag === 'SELECT' || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const k = ev.key;
    const actions = {
      f: () => this.fit(), z: () => this.selectedNode >= 0 && this.zoomToNode(this.selectedNode),
      '/': () => $('search').focus(), '?': () => this.toggleHelp(),
      e: () => this.setAllExpanded(Infinity), c: () => this.setAllExpanded(0),
      s: () => this.toggleShapes(), q: () => this.toggleQdq(),
      t: () => this.setTheme(this.theme.dark ? 'light' : 'dark'),
      ArrowUp: () => this.walk('up'), ArrowDown: () => this.walk('down'),
      ArrowLeft: () => this.walk('left'), ArrowRight: () => this.walk('right'),
      Escape: () => {
        this.toggleHelp(false);
        $('search').value = '';
        this.runSearch();
        this.clearSelection();
      },
      '+': () => { this.view.camera.zoomAt(this.width / 2, this.height / 2, 1.25); this.requestRender(); },
      '=': () => { this.view.camera.zoomAt(this.width / 2, this.height / 2, 1.25); this.requestRender(); },
      '-': () => { this.view.camera.zoomAt(this.width / 2, this.height / 2, 0.8); this.requestRender(); },
    };
    const act = actions[k];
    if (act) { ev.preventDefault(); act(); }
  }

  // ---- minimap ---------------------------------------------------------------------------
  bindMinimap() {
    const mm = $('minimap');
    const move = (ev) => {
      const t = this.minimapTransform;
      if (!t) return;
      const wx = (ev.offsetX - t.ox) / t.s + t.bx;
      const wy = (ev.offsetY - t.oy) / t.s + t.by;
      this.view.camera.centerOn(wx, wy, this.width, this.height);
      this.requestRender();
    };
    let down = false;
    mm.addEventListener('pointerdown', (ev) => { down = true; mm.setPointerCapture(ev.pointerId); move(ev); });
    mm.addEventListener('pointermove', (ev) => { if (down) move(ev); });
    mm.addEventListener('pointerup', () => { down = false; });
  }
  drawMinimap() {
    const mm = $('minimap');
    const v = this.view;
    const W = 200, H = 150;
    const dpr = this.dpr;
    if (mm.width !== W * dpr) { mm.width = W * dpr; mm.height = H * dpr; }
    const ctx = mm.getContext('2d');
    const b = v.bounds;
    const s = Math.min((W - 10) / Math.max(b.w, 1), (H - 10) / Math.max(b.h, 1));
    const ox = (W - b.w * s) / 2, oy = (H - b.h * s) / 2;
    this.minimapTransform = { s, ox, oy, bx: b.x, by: b.y };
    if (!this.minimapImage && !this.minimapPending) {
      // Off the interaction's critical path: after an expand or collapse the frame goes out
      // first and the minimap catches up.
      this.minimapPending = true;
      setTimeout(() => {
        this.minimapPending = false;
        const saved = this.renderer.overview;
        this.minimapImage = this.renderer.buildOverview(this.frameState(), 600).canvas;
        this.renderer.overview = saved;
        this.requestRender();
      }, 0);
    }
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = this.theme.bg;
    ctx.fillRect(0, 0, W, H);
    if (this.minimapImage) ctx.drawImage(this.minimapImage, ox, oy, b.w * s, b.h * s);
    const r = v.camera.viewRect(this.width, this.height);
    // Nothing to navigate when the whole drawing is on screen.
    mm.hidden = r.x0 <= b.x && r.y0 <= b.y && r.x1 >= b.x + b.w && r.y1 >= b.y + b.h;
    ctx.strokeStyle = this.theme.accent;
    ctx.lineWidth = 1.5;
    ctx.fillStyle = this.theme.accent + '18';
    const rx = ox + (r.x0 - b.x) * s, ry = oy + (r.y0 - b.y) * s;
    ctx.fillRect(rx, ry, (r.x1 - r.x0) * s, (r.y1 - r.y0) * s);
    ctx.strokeRect(rx, ry, (r.x1 - r.x0) * s, (r.y1 - r.y0) * s);
  }

  // ---- frame loop ------------------------------------------------------------------------
  frameState() {
    const v = this.view;
    return {
      dpr: this.dpr, camera: v.camera, theme: this.theme, layout: v.layout, model: v.model,
      boxes: v.boxes, framesByDepth: v.framesByDepth, edgeBounds: v.edgeBounds, bounds: v.bounds,
      catHidden: this.catHidden, showShapes: this.showShapes, showQdq: this.showQdq, qdqRects: v.qdqRects,
      selectedNode: this.selectedNode, selectedGroup: this.selectedGroup, matches: this.matches,
      edgeHighlight: this.edgeHighlight, detachedHighlight: this.edgeHighlight ? this.detachedHighlight : null, useOverview: true,
      heat: this.profile ? this.profile.heat() : null,
    };
  }
  // The overview bitmap is only drawn zoomed far out; build it when that is the case.
  wantsOverview() {
    const b = this.view.bounds;
    const scale = Math.min(4096 / Math.max(b.w, 1), 4096 / Math.max(b.h, 1), 0.25);
    return this.view.camera.scale * this.dpr <= scale * 1.6;
  }
  requestRender() {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => this.frame());
  }
  frame() {
    this.pending = false;
    if (!this.width) return;
    const t0 = performance.now();
    const state = this.frameState();
    if (!this.renderer.overview && this.view.boxes.nodes.length > 3000 && this.wantsOverview()) this.renderer.buildOverview(state);
    const stats = this.renderer.draw(state);
    this.drawMinimap();
    const dt = performance.now() - t0;
    this.frameTimes.push(dt);
    if (this.frameTimes.length > 2000) this.frameTimes.splice(0, 1000);
    const v = this.view;
    $('status').textContent = `${Math.round(v.camera.scale * 100)}% · ${v.boxes.nodes.length.toLocaleString('en-US')} boxes shown${v.boxes.collapsed.length ? `, ${v.boxes.collapsed.length} collapsed groups` : ''}${this.engine ? '' : ' · re-layout unavailable'}`;
    if (!this.firstPaint) {
      // The frame is complete once the browser has presented it: the next frame callback.
      requestAnimationFrame(() => {
        this.firstPaint = performance.now();
        document.body.dataset.ready = 'true';
      });
      this.firstPaint = -1;
    }
    this.lastFrameStats = stats;
  }

  toast(text) {
    const t = $('toast');
    t.textContent = text;
    t.hidden = false;
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => { t.hidden = true; }, 4000);
  }
}

function segmentDistance(px, py, ax, ay, bx, by) {
  const dx = bx - ax, dy = by - ay;
  const len2 = dx * dx + dy * dy;
  let t = len2 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0;
  t = Math.max(0, Math.min(1, t));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}

async function main() {
  let data;
  try {
    data = await readEmbeddedData(document);
  } catch (e) {
    document.body.textContent = `etviz: cannot read this page's graph data: ${e.message}`;
    throw e;
  }
  const app = new App(data);
  window.__etviz = app;  // for tests, benchmarks and the curious
  app.start();
  try {
    app.engine = await createLayoutEngine();
    app.warmLayoutCache();
  } catch (e) {
    app.engineError = `Expand/collapse re-layout is unavailable: ${e.message}`;
  }
  app.requestRender();
}

main();
