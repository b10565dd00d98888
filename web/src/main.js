// The viewer application: wires the page's pieces together and runs the frame loop.
//   state.js       what the user chose (graph, selection, matches, toggles): one change event
//   graph_view.js  per-graph expand state, camera, layout and hit testing
//   keys.js        the one key map (overlays add keys; the help card lists them)
//   minimap.js     the overview in the corner
//   overlay.js     the interface overlays (profile_overlay.js, ...) implement
//   test_facade.js window.etvizTest, the documented API tests and benchmarks use
import { readEmbeddedFiles, GraphModel, formatBytes } from './data.js';
import { keepAnchor, readableWindow } from './camera.js';
import { ancestorsToExpand, expandToLevel, hierarchyLevels, shownLevel } from './visibility.js';
import { searchNodes, RESULT_LIST_LIMIT } from './search.js';
import { Renderer, readTheme } from './render.js';
import { showNode, showEdge, showGroup, showSummary } from './panel.js';
import { createLayoutEngine } from './layout_wasm.js';
import { ViewerState } from './state.js';
import { KeyMap, renderHelp } from './keys.js';
import { Minimap } from './minimap.js';
import { OverlayHost } from './overlay.js';
import { GraphView } from './graph_view.js';
import { ProfileOverlay } from './profile_overlay.js';
import { TimelineOverlay } from './timeline_overlay.js';
import { MemoryOverlay } from './memory_overlay.js';
import { SizeOverlay } from './size_overlay.js';
import { NodeDataOverlay } from './node_data_overlay.js';
import { installTestFacade } from './test_facade.js';
import { viewToSvg, viewToPng, download, pictureName } from './export_view.js';
import { startApp } from './app.js';

const $ = (id) => document.getElementById(id);

class App {
  // `files`: the page data of each file the page holds (usually one).
  constructor(files) {
    this.files = files;
    this.canvas = $('canvas');
    this.renderer = new Renderer(this.canvas);
    // Every graph of every file, in file order; the graph selector lists the current file's.
    this.models = files.flatMap((data, f) => data.graphs.map((_, i) => new GraphModel(data, i, f)));
    this.views = new Array(this.models.length);
    this.state = new ViewerState(files[0].cats.length);
    this.keys = new KeyMap();
    this.matchList = [];
    this.matchCursor = -1;
    this.frameTimes = [];
    this.pending = false;
    this.engine = null;
    this.dpr = window.devicePixelRatio || 1;
    this.minimap = new Minimap($('minimap'), this);
    this.overlays = new OverlayHost(this.overlayHostApi());
  }

  get view() { return this.views[this.state.graph]; }
  get model() { return this.view.model; }
  // The page data of the file on show (header, panel, delegates).
  get data() { return this.model.data; }
  get cats() { return this.files[0].cats; }

  // What overlays may use (overlay.js).
  overlayHostApi() {
    const app = this;
    return {
      get model() { return app.model; },
      get graphIndex() { return app.state.graph; },
      get theme() { return app.theme; },
      get selectedNode() { return app.state.node; },
      stage: $('stage'),
      dock: $('dock'),
      keys: this.keys,
      selectGraph: (i) => app.selectGraph(i),
      selectNode: (i, options) => app.selectNode(i, options),
      redraw: () => { app.syncLegends(); app.invalidateOverview(); },
      refreshPanel: () => app.refreshPanel(),
      panesChanged: () => {
        app.invalidateOverview();
        app.resize();
        // Each pane is narrower (or wider) now: show the whole graph in it.
        app.fit();
      },
    };
  }

  start() {
    this.initTheme();
    $('btn-shapes').classList.toggle('on', this.state.showShapes);
    this.buildHeader();
    this.bindInput();
    this.bindKeys();
    const profile = ProfileOverlay.fromPage(document);  // null without --etdump
    if (profile) this.overlays.add(profile);
    const timeline = TimelineOverlay.fromPage(document);  // null unless the page steps
    if (timeline) this.overlays.add(timeline);
    const memory = MemoryOverlay.fromPage(document);  // null when no method plans memory
    if (memory) this.overlays.add(memory);
    const size = SizeOverlay.fromPage(document);  // where the file's bytes go
    if (size) this.overlays.add(size);
    const nodeData = NodeDataOverlay.fromPage(document);  // null without --node-data
    if (nodeData) this.overlays.add(nodeData);
    this.state.on((what) => this.onStateChange(what));
    renderHelp($('help-keys'), this.keys, [
      ['wheel, pinch', 'zoom (0.02× – 8×)'], ['drag', 'pan'],
      ['click a group', 'expand / collapse it'], ['legend entry', 'fade that category'],
    ]);
    this.selectGraph(this.defaultGraph());
    new ResizeObserver(() => this.resize()).observe($('stage'));
    this.resize();
    this.openLink();
  }

  // ---- pictures and links ----------------------------------------------------------------
  saveSvg() {
    download(new Blob([viewToSvg(this)], { type: 'image/svg+xml' }), pictureName(this, 'svg'));
  }
  async savePng() {
    const png = await viewToPng(this, 2);
    if (png.scale < 1) this.toast(`The graph is large: the PNG is drawn at ${Math.round(png.scale * 100)}% (${png.width} × ${png.height} px); SVG keeps every detail.`);
    download(png.blob, pictureName(this, 'png'));
  }
  // The page's address with the selected node in its fragment: #graph=forward&node=aten_add_3
  // (&flat=1 when module boxes are hidden). Opening it selects that node again (openLink), in
  // the same reading.
  nodeLink(i) {
    const params = new URLSearchParams({ graph: this.model.name, node: this.model.nodeName(i) });
    if (this.state.flatten) params.set('flat', '1');
    return `${location.href.split('#')[0]}#${params}`;
  }
  rememberSelection(i) {
    try {
      history.replaceState(null, '', i >= 0 ? this.nodeLink(i) : location.href.split('#')[0]);
    } catch { /* a sandboxed frame: no address to keep */ }
  }
  copyNodeLink(i) {
    const link = this.nodeLink(i);
    const done = () => this.toast('Link to this node copied.');
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(link).then(done, () => this.toast(`Link: ${link}`));
    } else {
      this.toast(`Link: ${link}`);
    }
  }
  openLink() {
    const hash = location.hash.replace(/^#/, '');
    if (!hash) return;
    const params = new URLSearchParams(hash);
    const graph = params.get('graph'), node = params.get('node');
    // Flat needs the layout engine, which loads after the page shows: applied then (main()),
    // and the node selected again, so it is centred in the flat drawing.
    this.linkFlat = params.get('flat') === '1';
    if (graph !== null) {
      const g = this.models.findIndex((m) => m.name === graph);
      if (g < 0) { this.toast(`The link names graph '${graph}', which this page does not hold.`); return; }
      if (g !== this.state.graph) this.selectGraph(g);
    }
    if (node === null) return;
    const m = this.model;
    for (let i = 0; i < m.nodeCount; i++) if (m.nodeName(i) === node) { this.selectNode(i, { center: true }); return; }
    this.toast(`The link names node '${node}', which graph '${m.name}' does not hold.`);
  }

  defaultGraph(file = 0) {
    // The graph with the most nodes is the interesting one (forward, not a constant getter).
    const of = this.models.map((m, i) => i).filter((i) => this.models[i].file === file);
    let best = of[0];
    for (const i of of) if (this.models[i].irNodes > this.models[best].irNodes) best = i;
    const forward = of.find((i) => this.models[i].name === 'forward');
    return forward !== undefined && this.models[forward].irNodes > 0 ? forward : best;
  }

  // One place reacts to what changed.
  onStateChange(what) {
    if (what === 'graph') {
      this.updateFileHeader();
      $('graph-select').value = String(this.state.graph);
      this.updateMeta();
      this.buildLegend();
      this.overlays.graphChanged();
      this.syncLegends();
      showSummary($('panel'), this.data, this.model, (q) => this.searchFor(q));
      this.showGraphError();
      this.syncDepthControl();
      this.invalidateOverview();
    } else if (what === 'categories' || what === 'display') {
      this.invalidateOverview();
    }
    this.requestRender();
  }

  // ---- header, legend, theme ------------------------------------------------------------
  buildHeader() {
    const files = $('file-select');
    files.replaceChildren();
    this.files.forEach((d, f) => {
      const o = document.createElement('option');
      o.value = String(f);
      o.textContent = d.file.name;
      o.title = d.file.name;
      files.appendChild(o);
    });
    files.hidden = this.files.length < 2;
    files.addEventListener('change', () => this.selectGraph(this.defaultGraph(Number(files.value))));
    $('graph-select').addEventListener('change', () => this.selectGraph(Number($('graph-select').value)));
  }

  // The header for the file on show: its name, and its graphs in the graph selector.
  updateFileHeader() {
    const d = this.data;
    const f = this.model.file;
    if (this.headerFile === f) return;
    this.headerFile = f;
    $('file-name').textContent = d.file.name;
    $('file-name').title = d.file.name;
    $('file-select').value = String(f);
    const sel = $('graph-select');
    sel.replaceChildren();
    this.models.forEach((m, i) => {
      if (m.file !== f) return;
      const o = document.createElement('option');
      o.value = String(i);
      o.textContent = `${m.name || `graph ${i}`} (${m.irNodes})`;
      o.title = o.textContent;
      sel.appendChild(o);
    });
    sel.disabled = sel.options.length < 2;
  }

  updateMeta() {
    const d = this.data;
    const m = this.model;
    // The graph's own nodes and edges; inlined subgraphs (delegate payloads, bodies) apart.
    let rootEdges = 0;
    const root = m.nodeCount ? m.n.graph[0] : -1;
    for (let e = 0; e < m.edgeCount; e++) if (m.n.graph[m.e.src[e]] === root && m.n.graph[m.e.dst[e]] === root) rootEdges++;
    const graphs = d.graphs.length;
    const parts = [d.file.format.replace(/_/g, ' '), formatBytes(d.file.size), `${graphs} graph${graphs === 1 ? '' : 's'}`,
      `${m.irNodes.toLocaleString('en-US')} nodes`, `${rootEdges.toLocaleString('en-US')} edges`];
    if (m.nodeCount > m.irNodes)
      parts.push(`+${(m.nodeCount - m.irNodes).toLocaleString('en-US')} nodes, +${(m.edgeCount - rootEdges).toLocaleString('en-US')} edges in subgraphs`);
    if (d.delegates.length) parts.push(`${d.delegates.length} delegate${d.delegates.length === 1 ? '' : 's'}`);
    // A damaged file (part of it cut off) says so first: the details are in the panel's notes.
    const damaged = d.diagnostics.some(([severity]) => severity === 'error');
    if (damaged) parts.unshift('✖ damaged: part of the file is missing (notes in the panel)');
    $('file-meta').classList.toggle('damaged', damaged);
    $('file-meta').textContent = parts.join(' · ');
    $('file-meta').title = parts.join(' · ');
    $('file-meta').dataset.nodes = String(m.irNodes);
  }

  buildLegend() {
    const m = this.model;
    const counts = new Array(this.cats.length).fill(0);
    for (let i = 0; i < m.nodeCount; i++) counts[m.n.cat[i]]++;
    const legend = $('legend');
    legend.replaceChildren();
    const title = document.createElement('div');
    title.className = 'legend-title';
    title.textContent = 'Categories';
    title.title = 'Click to fold or unfold the legend';
    title.addEventListener('click', () => { legend.classList.toggle('folded'); this.resizeChrome(); });
    legend.appendChild(title);
    // Narrow stages start with the legend folded: it would cover a third of the canvas.
    if (this.legendFoldedOnce === undefined) {
      this.legendFoldedOnce = true;
      legend.classList.toggle('folded', $('stage').clientWidth < 760);
    }
    this.cats.forEach((c, k) => {
      if (!counts[k]) return;
      const item = document.createElement('div');
      item.className = 'item' + (this.state.catHidden[k] ? ' off' : '');
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
        this.state.toggleCategory(k);
        item.classList.toggle('off', !!this.state.catHidden[k]);
      });
      legend.appendChild(item);
    });
  }

  // The category legend shows unless an overlay colours the nodes with its own.
  syncLegends() {
    const styled = !!this.overlays.nodeStyles();
    $('legend').classList.toggle('heat-hidden', styled);
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
    this.theme = readTheme(document.documentElement, this.cats);
    if (this.views[this.state.graph]) this.overlays.graphChanged();
    this.invalidateOverview();
  }

  // ---- graphs and layout -----------------------------------------------------------------
  selectGraph(i) {
    if (!this.views[i]) this.views[i] = new GraphView(this.models[i]);
    // Flatten is a way of reading, kept across graphs: a graph first shown (or last shown)
    // the other way is laid out again; its own expand state and depth stay its own.
    const v = this.views[i];
    if (this.engine && v.flat !== this.state.flatten) {
      v.flat = this.state.flatten;
      this.layoutView(v);
      if (v.fitted) this.placeCamera(v);
    }
    this.state.setGraph(i);
    if (!this.view.fitted && this.width) { this.initialView(); this.view.fitted = true; }
    if ($('search').value) this.runSearch();
    this.warmLayoutCache();
    this.requestRender();
  }

  relayout() { this.layoutView(this.view); }
  layoutView(v) {
    const t0 = performance.now();
    v.setLayout(this.engine.run(v.model, v.expanded, v.hierarchy));
    this.lastLayoutMs = performance.now() - t0;
    this.syncDepthControl();
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
    this.lastToggleMs = performance.now() - t0;
    this.requestRender();
    return true;
  }

  // Shows the hierarchy down to `level` (0: collapsed to the top level; Infinity: everything);
  // `folds` opens (true) or closes (false) the leaf folds (QDQ clusters, many inputs or
  // constants) too, else they stay as they are (visibility.js, expandToLevel).
  setDepth(level, folds) {
    const v = this.view;
    if (!this.engine) { this.toggleGroup(-1); this.syncDepthControl(); return; }
    const t0 = performance.now();
    v.expanded = expandToLevel(v.hierarchy, v.model.groupKinds, v.expanded, level, folds);
    this.relayout();
    this.fit();
    this.lastToggleMs = performance.now() - t0;
  }
  setAllExpanded(level) { this.setDepth(level, level > 0); }
  // One level deeper (+1) or shallower (-1) than the graph shows now.
  stepDepth(step) {
    const v = this.view;
    const h = v.hierarchy;
    const levels = hierarchyLevels(h, v.model.groupKinds);
    const level = Math.max(0, Math.min(levels, shownLevel(h, v.model.groupKinds, v.expanded) + step));
    this.setDepth(level);
  }

  // Flatten: module boxes dissolved, the nodes laid out as if there were no module groups
  // (delegate payloads, control-flow bodies, QDQ clusters, partitions and user groups stay).
  toggleFlatten(force) {
    const on = force !== undefined ? !!force : !this.state.flatten;
    if (!this.engine) {
      this.toast(this.engineError || 'Flatten needs the WebAssembly layout engine, which this etviz build does not include; the precomputed layout is shown.');
      $('btn-flatten').classList.toggle('on', this.state.flatten);
      return;
    }
    const t0 = performance.now();
    const v = this.view;
    this.state.flatten = on;
    $('btn-flatten').classList.toggle('on', on);
    $('btn-flatten').setAttribute('aria-pressed', String(on));
    v.flat = on;
    this.relayout();
    this.placeCamera(v);
    this.lastToggleMs = performance.now() - t0;
    if (this.state.node >= 0) this.rememberSelection(this.state.node);  // the link says flat or not
    this.state.setDisplay('flatten', on);
  }
  // After the whole drawing changed: back to the selected node, else the readable first view.
  placeCamera(v) {
    if (v !== this.view) { v.fitted = false; return; }
    if (this.state.node >= 0 && v.isVisible(this.state.node)) this.zoomToNode(this.state.node);
    else this.initialView();
  }

  // The depth slider follows the graph on show: its levels, and the level its state shows.
  syncDepthControl() {
    const slider = $('depth');
    if (!slider || !this.views[this.state.graph]) return;
    const v = this.view;
    const h = v.hierarchy;
    const levels = hierarchyLevels(h, v.model.groupKinds);
    const level = shownLevel(h, v.model.groupKinds, v.expanded);
    slider.max = String(Math.max(levels, 1));
    slider.value = String(level);
    slider.disabled = levels === 0 || !this.engine;
    const text = levels === 0 ? 'no levels' : level >= levels ? `all ${levels}` : `${level} of ${levels}`;
    $('depth-value').textContent = levels === 0 ? '–' : level >= levels ? 'all' : String(level);
    slider.setAttribute('aria-valuetext', text);
    slider.title = `Hierarchy shown down to depth ${text} (, shallower, . deeper)`;
  }

  // The engine caches each level's layout and, separately, its layering and order between
  // runs; one run of the current state, while the user is still looking, makes the first
  // expand or collapse an incremental one (a toggled group's parent keeps its order and only
  // gets new coordinates). About 0.3 s at 100k nodes; skipped beyond 300k, where that run
  // would hold up the page for seconds.
  warmLayoutCache() {
    const v = this.view;
    if (!this.engine || !v.model.groupCount || v.model.nodeCount > 300000) return;
    const idle = (fn) => (window.requestIdleCallback ? requestIdleCallback(fn, { timeout: 2000 }) : setTimeout(fn, 50));
    const run = () => {
      const t = performance.now();
      this.engine.run(v.model, v.expanded, v.hierarchy);
      this.warmupMs = performance.now() - t;
      // The other reading too (flat or not), in a later idle period, so the first Flatten
      // is incremental as well (at 100k nodes: 0.40 s to the next frame instead of 0.49 s).
      if (v.flattens) idle(() => this.engine.run(v.model, v.expanded, v.hierarchyFor(!v.flat)));
    };
    idle(run);
  }
  invalidateOverview() {
    this.renderer.overview = null;
    this.minimap.invalidate();
    this.requestRender();
  }

  // ---- camera ----------------------------------------------------------------------------
  resize() {
    const stage = $('stage');
    // Panes side by side (overlay.js) split the stage; each is `width` wide.
    const panes = this.views[this.state.graph] ? this.overlays.panes() : null;
    this.paneCount = panes ? panes.length : 1;
    this.width = Math.floor(stage.clientWidth / this.paneCount);
    this.height = stage.clientHeight;
    this.dpr = window.devicePixelRatio || 1;
    this.canvas.width = Math.round(stage.clientWidth * this.dpr);
    this.canvas.height = Math.round(this.height * this.dpr);
    if (this.views[this.state.graph] && !this.view.fitted) { this.initialView(); this.view.fitted = true; }
    this.requestRender();
  }
  // Small graphs fit the window; tall ones start readable at the top (f fits everything).
  // The legend covers the top-left corner; fitted views leave it room.
  floatingLegend() { return [$('legend'), $('heat-legend')].find((e) => e && e.offsetWidth); }
  legendWidth() {
    const el = this.floatingLegend();
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
    cam.y = 32 - b.y * cam.scale;
    const avail = this.width - lw;
    if (b.w * cam.scale <= avail) cam.x = lw + avail / 2 - (b.x + b.w / 2) * cam.scale;
    else {
      // Wider than the view: the boxes of the rows it shows decide. Centred when they fit;
      // otherwise the window with no box cut at its left edge and the most boxes wholly
      // inside, nearest the median box (one wide row of parameters at the top must not
      // pull the view onto empty space).
      const L = this.view.layout;
      const bottom = b.y + (this.height - 32) / cam.scale;
      const shown = [], xs = [];
      let lo = Infinity, hi = -Infinity;
      const add = (x, y, w) => {
        xs.push(x + w / 2);
        if (y > bottom) return;
        shown.push({ x, w });
        lo = Math.min(lo, x);
        hi = Math.max(hi, x + w);
      };
      for (const i of this.view.boxes.nodes) add(L.nx[i], L.ny[i], L.nw[i]);
      for (const g of this.view.boxes.collapsed) add(L.gx[g], L.gy[g], L.gw[g]);
      xs.sort((p, q) => p - q);
      const median = xs.length ? xs[xs.length >> 1] : b.x + b.w / 2;
      const pad = 16 / cam.scale;
      if (shown.length && hi - lo <= avail / cam.scale - 2 * pad) cam.x = lw + avail / 2 - ((lo + hi) / 2) * cam.scale;
      else cam.x = lw - readableWindow(shown, avail / cam.scale, median, pad) * cam.scale;
    }
    this.clearLegend();
  }
  // A view that starts at the drawing's top puts no label under the legend's corner: it moves
  // right (when nothing is cut off on the left that the move would bring under the legend) or
  // down (nothing lies above the top), whichever is the shorter move.
  clearLegend() {
    const el = this.floatingLegend();
    if (!el) return;
    const c = this.canvas.getBoundingClientRect(), r = el.getBoundingClientRect();
    const w = r.right - c.left + 8, h = r.bottom - c.top + 8;
    const under = this.view.labelsUnder(w, h);
    if (!under) return;
    const cam = this.view.camera;
    const b = this.view.bounds;
    const right = w - under.left, down = h - under.top;
    if (right < down && cam.x + b.x * cam.scale >= 0) cam.x += right;
    else cam.y += down;
  }
  fit() {
    const b = this.view.bounds;
    const lw = this.legendWidth();
    this.view.camera.fit(b, this.width - lw, this.height, 32, 1.4);
    this.view.camera.x += lw;
    this.requestRender();
  }
  zoomBy(factor) {
    this.view.camera.zoomAt(this.width / 2, this.height / 2, factor);
    this.requestRender();
  }
  zoomToNode(i) {
    const L = this.view.layout;
    const cam = this.view.camera;
    if (cam.scale < 0.9) cam.scale = 1.1;
    cam.centerOn(L.nx[i] + L.nw[i] / 2, L.ny[i] + L.nh[i] / 2, this.width, this.height);
    this.requestRender();
  }
  zoomToGroup(g) {
    const L = this.view.layout;
    const cam = this.view.camera;
    if (cam.scale < 0.8) cam.scale = 1;
    cam.centerOn(L.gx[g] + L.gw[g] / 2, L.gy[g] + L.gh[g] / 2, this.width, this.height);
    this.requestRender();
  }

  // ---- selection -------------------------------------------------------------------------
  selectNode(i, { center = false } = {}) {
    const v = this.view;
    const m = v.model;
    if (i < 0 || i >= m.nodeCount) return;
    const h = v.hierarchy;
    const hidden = ancestorsToExpand(h.parent, h.nodeGroup, v.expanded, i);
    if (hidden.length && this.engine) {
      for (const g of hidden) v.expanded[g] = 1;
      this.relayout();
      center = true;
    }
    const hl = new Uint8Array(m.edgeCount);
    const detached = [];
    for (const e of m.inEdges.of(i)) { hl[e] = 1; if (m.e.detached[e]) detached.push(e); }
    for (const e of m.outEdges.of(i)) { hl[e] = 1; if (m.e.detached[e]) detached.push(e); }
    this.edgeHighlight = hl;
    this.detachedHighlight = detached;
    this.state.select({ node: i });
    this.showNodePanel(i);
    this.rememberSelection(i);
    this.overlays.selected(i);
    if (center) this.zoomToNode(i);
  }
  // The model the panel and tooltip read: an overlay's (a timeline step's own facts) or the
  // graph's.
  factsModel() { return this.overlays.factsModel() || this.model; }
  showNodePanel(i) {
    const panel = $('panel');
    showNode(panel, this.factsModel(), this.data, i, (n) => this.selectNode(n, { center: true }), () => this.copyNodeLink(i));
    for (const section of this.overlays.panelSections(i).reverse()) panel.insertBefore(section, panel.children[1] || null);
  }
  // The selection's panel again, after the facts it shows changed (another timeline step).
  refreshPanel() {
    const s = this.state;
    if (s.node >= 0) this.showNodePanel(s.node);
    else if (s.edge >= 0) this.showEdgePanel(s.edge);
    else if (s.group >= 0) this.showGroupPanel(s.group);
  }
  selectEdge(e) {
    const m = this.model;
    const hl = new Uint8Array(m.edgeCount);
    const v = m.e.val[e];
    for (let k = 0; k < m.edgeCount; k++) if (k === e || (v >= 0 && m.e.val[k] === v)) hl[k] = 1;
    this.edgeHighlight = hl;
    this.detachedHighlight = [];
    this.state.select({ edge: e });
    this.showEdgePanel(e);
  }
  showEdgePanel(e) {
    showEdge($('panel'), this.factsModel(), e, (n) => this.selectNode(n, { center: true }));
  }
  selectGroup(g) {
    this.edgeHighlight = null;
    this.state.select({ group: g });
    this.showGroupPanel(g);
  }
  showGroupPanel(g) {
    const panel = $('panel');
    showGroup(panel, this.factsModel(), this.data, g, !!this.view.expanded[g], (x) => { this.toggleGroup(x); this.selectGroup(x); },
      (q) => this.searchFor(q));
    for (const section of this.overlays.groupPanelSections(g).reverse()) panel.insertBefore(section, panel.children[3] || null);
  }
  clearSelection() {
    if (this.state.node >= 0) this.rememberSelection(-1);
    this.edgeHighlight = null;
    this.state.select({});
    this.overlays.selected(-1);
    showSummary($('panel'), this.data, this.model, (q) => this.searchFor(q));
  }

  // ---- search ----------------------------------------------------------------------------
  runSearch() {
    const q = $('search').value;
    const box = $('search-results');
    const r = searchNodes(this.model, q);
    if (r.all && this.overlays.nodeStyles()) {
      // Only what the graph on show holds (a step of a timeline hides the rest).
      r.all = r.all.filter((i) => !this.isHidden(i));
      r.results = r.results.filter((i) => !this.isHidden(i));
      r.total = r.all.length;
    }
    this.matchList = r.all || [];
    this.matchCursor = -1;
    this.state.setMatches(r.all);
    box.replaceChildren();
    if (!q.trim()) { box.hidden = true; return; }
    const summary = document.createElement('div');
    summary.className = 'summary';
    summary.textContent = r.error || `${r.total.toLocaleString('en-US')} match${r.total === 1 ? '' : 'es'}${r.total > r.results.length ? ` (first ${r.results.length} listed, all outlined)` : ''} · Enter jumps · op: name: module: class: shape: dtype:`;
    box.appendChild(summary);
    const m = this.model;
    for (const i of r.results.slice(0, RESULT_LIST_LIMIT)) {
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
      // Picking a result closes the list (the matches stay outlined; focus the box to reopen it).
      item.addEventListener('mousedown', (ev) => { ev.preventDefault(); box.hidden = true; this.selectNode(i, { center: true }); });
      box.appendChild(item);
    }
    box.hidden = false;
  }
  nextMatch(step = 1) {
    if (!this.matchList.length) return;
    this.matchCursor = (this.matchCursor + step + this.matchList.length) % this.matchList.length;
    const i = this.matchList[this.matchCursor];
    this.selectNode(i, { center: true });
    const box = $('search-results');
    for (const el of box.querySelectorAll('.res')) el.classList.toggle('active', Number(el.dataset.node) === i);
  }
  // Runs a search as if typed, and jumps to the first match.
  searchFor(q) {
    $('search').value = q;
    this.runSearch();
    $('search-results').hidden = true;
    this.nextMatch();
  }
  clearSearch() {
    $('search').value = '';
    this.runSearch();
  }

  // ---- keyboard walking ------------------------------------------------------------------
  walk(dir) {
    const v = this.view;
    const m = v.model;
    const L = v.layout;
    const i = this.state.node;
    if (i < 0) { if (v.boxes.nodes.length) this.selectNode(v.boxes.nodes[0], { center: true }); return; }
    const cx = L.nx[i] + L.nw[i] / 2;
    let best = -1, bestD = Infinity;
    if (dir === 'up' || dir === 'down') {
      // The nearest visible producer / consumer; when all are inside collapsed boxes, the
      // first one (selecting it opens its boxes).
      const edges = dir === 'up' ? m.inEdges.of(i) : m.outEdges.of(i);
      let hidden = -1;
      for (const e of edges) {
        const n = dir === 'up' ? m.e.src[e] : m.e.dst[e];
        if (!v.isVisible(n)) { if (hidden < 0) hidden = n; continue; }
        const d = Math.abs(L.nx[n] + L.nw[n] / 2 - cx);
        if (d < bestD) { bestD = d; best = n; }
      }
      if (best < 0 && hidden >= 0) { this.selectNode(hidden, { center: true }); return; }
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
      if (!pointers.has(ev.pointerId)) { this.hover(ev.offsetX, ev.offsetY); return; }
      this.hover(-1, -1);
      pointers.set(ev.pointerId, [ev.offsetX, ev.offsetY]);
      const cam = this.view.camera;
      if (pinch && pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
        cam.zoomAt(this.paneAt((a[0] + b[0]) / 2).x, (a[1] + b[1]) / 2, d / (pinch.d || d));
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
    c.addEventListener('pointerleave', () => this.hover(-1, -1));
    c.addEventListener('wheel', (ev) => {
      ev.preventDefault();
      const k = ev.ctrlKey ? 0.01 : 0.0015;
      const delta = ev.deltaMode === 1 ? ev.deltaY * 33 : ev.deltaY;
      this.view.camera.zoomAt(this.paneAt(ev.offsetX).x, ev.offsetY, Math.exp(-delta * k));
      this.requestRender();
    }, { passive: false });

    $('btn-fit').addEventListener('click', () => this.fit());
    $('btn-expand').addEventListener('click', () => this.setAllExpanded(Infinity));
    $('btn-collapse').addEventListener('click', () => this.setAllExpanded(0));
    $('btn-flatten').addEventListener('click', () => this.toggleFlatten());
    $('depth').addEventListener('input', () => this.setDepth(Number($('depth').value)));
    $('btn-shapes').addEventListener('click', () => this.toggleShapes());
    $('btn-qdq').addEventListener('click', () => this.toggleQdq());
    $('btn-theme').addEventListener('click', () => this.setTheme(this.theme.dark ? 'light' : 'dark'));
    $('btn-help').addEventListener('click', () => this.toggleHelp());
    $('btn-save-svg').addEventListener('click', () => this.saveSvg());
    $('btn-save-png').addEventListener('click', () => this.savePng());
    const search = $('search');
    search.addEventListener('input', () => this.runSearch());
    search.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter') { ev.preventDefault(); this.nextMatch(ev.shiftKey ? -1 : 1); }
      if (ev.key === 'Escape') { this.clearSearch(); search.blur(); c.focus(); }
    });
    search.addEventListener('blur', () => setTimeout(() => { $('search-results').hidden = true; }, 150));
    search.addEventListener('focus', () => { if (search.value.trim()) $('search-results').hidden = false; });
    this.onWindowKey = (ev) => this.keys.handle(ev);
    window.addEventListener('keydown', this.onWindowKey);
    this.bindPanel();
  }

  // The details panel: hide or show it (button, i), and resize it by dragging its left edge
  // (double-click resets); the width is remembered when the browser allows storage.
  bindPanel() {
    const panel = $('panel');
    const handle = $('panel-resize');
    let saved = null;
    try { saved = localStorage.getItem('etviz-panel-width'); } catch (e) { /* file:// may forbid storage */ }
    if (saved) document.documentElement.style.setProperty('--panel-width', `${Number(saved)}px`);
    $('btn-panel').addEventListener('click', () => this.togglePanel());
    handle.addEventListener('dblclick', () => {
      document.documentElement.style.removeProperty('--panel-width');
      try { localStorage.removeItem('etviz-panel-width'); } catch (e) { /* ignore */ }
    });
    handle.addEventListener('pointerdown', (ev) => {
      handle.setPointerCapture(ev.pointerId);
      handle.classList.add('dragging');
      const move = (e) => {
        const width = Math.round(Math.min(Math.max(document.body.clientWidth - e.clientX, 220), document.body.clientWidth * 0.7));
        document.documentElement.style.setProperty('--panel-width', `${width}px`);
      };
      const up = () => {
        handle.classList.remove('dragging');
        handle.removeEventListener('pointermove', move);
        handle.removeEventListener('pointerup', up);
        try { localStorage.setItem('etviz-panel-width', String(panel.offsetWidth)); } catch (e) { /* ignore */ }
      };
      handle.addEventListener('pointermove', move);
      handle.addEventListener('pointerup', up);
    });
  }
  togglePanel(force) {
    const show = force !== undefined ? force : $('panel').hidden;
    $('panel').hidden = !show;
    $('panel-resize').hidden = !show;
    $('btn-panel').classList.toggle('on', show);
  }
  // Chrome over the canvas changed size (legend folded): the fitted view leaves it room.
  resizeChrome() { this.requestRender(); }

  bindKeys() {
    const k = this.keys;
    k.bind('f', 'fit the whole graph', () => this.fit());
    k.bind('z', 'zoom to the selected node', () => { if (this.state.node >= 0) this.zoomToNode(this.state.node); });
    k.bind('/', 'search (op, name, module path or /regex/); Enter in search jumps to the next match', () => $('search').focus());
    k.bind(['ArrowUp', 'ArrowDown'], 'walk to a producer / consumer', (ev) => this.walk(ev.key === 'ArrowUp' ? 'up' : 'down'));
    k.bind(['ArrowLeft', 'ArrowRight'], 'walk to the neighbour in the same layer', (ev) => this.walk(ev.key === 'ArrowLeft' ? 'left' : 'right'));
    k.bind(['e', 'c'], 'expand all / collapse all groups', (ev) => this.setAllExpanded(ev.key === 'e' ? Infinity : 0));
    k.bind([',', '.'], 'hierarchy one level shallower / deeper (the depth slider)', (ev) => this.stepDepth(ev.key === '.' ? 1 : -1));
    k.bind('l', 'flatten: hide module boxes / show them again', () => this.toggleFlatten());
    k.bind(['s', 'q'], 'tensor shapes on edges / QDQ cluster outlines', (ev) => (ev.key === 's' ? this.toggleShapes() : this.toggleQdq()));
    k.bind('t', 'light / dark theme', () => this.setTheme(this.theme.dark ? 'light' : 'dark'));
    k.bind('i', 'show / hide the details panel', () => this.togglePanel());
    k.bind(['+', '=', '-'], 'zoom in / out', (ev) => this.zoomBy(ev.key === '-' ? 0.8 : 1.25));
    k.bind('?', 'this list', () => this.toggleHelp());
    k.bind('Escape', 'clear selection and search', () => {
      this.toggleHelp(false);
      this.clearSearch();
      this.clearSelection();
    });
  }

  // The tooltip: the full name of the box under the pointer (canvas labels are cut to fit).
  hover(sx, sy) {
    const tip = $('tooltip');
    if (sx < 0) { tip.hidden = true; this.hovered = null; return; }
    if (this.hoverPending) { this.hoverAt = [sx, sy]; return; }
    this.hoverPending = true;
    this.hoverAt = [sx, sy];
    requestAnimationFrame(() => {
      this.hoverPending = false;
      const [x, y] = this.hoverAt;
      const h = this.hitAt(x, y);
      // The hovered pane's facts (a timeline step's own label, op and name).
      const { pane } = this.paneAt(x);
      const m = (pane && pane.facts) || this.factsModel();
      let text = '';
      if (h.node !== undefined) {
        const label = m.nodeLabel(h.node), op = m.nodeOp(h.node), name = m.nodeName(h.node);
        text = [label, op !== label ? op : '', name !== label ? name : ''].filter(Boolean).join('\n');
      } else if (h.group !== undefined) {
        text = `${m.groupLabel(h.group)}\n${m.groupName(h.group)} · ${m.g.count[h.group].toLocaleString('en-US')} nodes inside`;
      }
      const key = `${h.node}|${h.group}`;
      if (!text) { tip.hidden = true; this.hovered = null; return; }
      if (this.hovered !== key) tip.textContent = text;
      this.hovered = key;
      tip.hidden = false;
      const w = tip.offsetWidth, ht = tip.offsetHeight;
      tip.style.left = `${Math.min(x + 14, $('stage').clientWidth - w - 6)}px`;
      tip.style.top = `${y + 18 + ht > this.height ? y - ht - 10 : y + 18}px`;
    });
  }

  click(sx, sy) {
    const h = this.hitAt(sx, sy);
    sx = this.paneAt(sx).x;
    if (h.node !== undefined) this.selectNode(h.node);
    else if (h.group !== undefined) {
      this.toggleGroup(h.group, [sx, sy]);
      this.selectGroup(h.group);
    } else if (h.edge !== undefined) this.selectEdge(h.edge);
    else this.clearSelection();
  }

  toggleShapes() {
    const on = !this.state.showShapes;
    $('btn-shapes').classList.toggle('on', on);
    this.state.setDisplay('showShapes', on);
  }
  toggleQdq() {
    const on = !this.state.showQdq;
    $('btn-qdq').classList.toggle('on', on);
    if (on && !this.model.qdq.length) this.toast('No QDQ clusters (dequantize → op → quantize) in this graph.');
    this.state.setDisplay('showQdq', on);
  }
  toggleHelp(force) {
    const h = $('help');
    h.hidden = force !== undefined ? !force : !h.hidden;
  }

  // ---- frame loop ------------------------------------------------------------------------
  // What the renderer draws; `pane`: one of the overlay's panes (its decoration and strip).
  frameState(pane = null, k = 0) {
    const v = this.view;
    const s = this.state;
    return {
      viewport: pane ? { x: k * this.width, w: this.width } : null,
      edgeHidden: pane ? pane.edgeHidden : this.overlays.edgeHidden(),
      labels: pane ? pane.nodeLabels : this.overlays.nodeLabels(),
      valueLabels: pane ? pane.valueLabels : this.overlays.valueLabels(),
      dpr: this.dpr, camera: v.camera, theme: this.theme, layout: v.layout, model: v.model,
      boxes: v.boxes, framesByDepth: v.framesByDepth, edgeBounds: v.edgeBounds, bounds: v.bounds,
      catHidden: s.catHidden, showShapes: s.showShapes, showQdq: s.showQdq, qdqRects: v.qdqRects,
      selectedNode: s.node, selectedGroup: s.group, matches: s.matches,
      edgeHighlight: s.node >= 0 || s.edge >= 0 ? this.edgeHighlight : null,
      detachedHighlight: s.node >= 0 ? this.detachedHighlight : null, useOverview: !pane,
      nodeStyles: pane ? pane.nodeStyles : this.overlays.nodeStyles(),
    };
  }
  // The overview bitmap is only drawn zoomed far out; build it when that is the case.
  wantsOverview() {
    const b = this.view.bounds;
    const scale = Math.min(4096 / Math.max(b.w, 1), 4096 / Math.max(b.h, 1), 0.25);
    return this.view.camera.scale * this.dpr <= scale * 1.6;
  }
  // An app page (app.js) replaces the viewer when it opens other files: this one lets go of
  // the window and stops drawing (its elements are gone with the old markup).
  dispose() {
    this.disposed = true;
    window.removeEventListener('keydown', this.onWindowKey);
  }
  requestRender() {
    if (this.pending || this.disposed) return;
    this.pending = true;
    requestAnimationFrame(() => this.frame());
  }
  frame() {
    this.pending = false;
    if (!this.width || !this.views[this.state.graph]) return;
    const t0 = performance.now();
    const panes = this.overlays.panes();
    if ((panes ? panes.length : 1) !== this.paneCount) this.resize();
    let stats;
    if (panes) {
      panes.forEach((p, k) => { const st = this.renderer.draw(this.frameState(p, k)); if (p.current) stats = st; });
    } else {
      const state = this.frameState();
      if (!this.renderer.overview && this.view.boxes.nodes.length > 3000 && this.wantsOverview()) this.renderer.buildOverview(state);
      stats = this.renderer.draw(state);
    }
    this.showPaneTitles(panes);
    this.minimap.draw();
    const dt = performance.now() - t0;
    this.frameTimes.push(dt);
    if (this.frameTimes.length > 2000) this.frameTimes.splice(0, 1000);
    const v = this.view;
    const nodes = v.boxes.nodes.length, collapsed = v.boxes.collapsed.length;
    $('status').textContent = `${Math.round(v.camera.scale * 100)}% · ${(nodes + collapsed).toLocaleString('en-US')} boxes shown` +
      (collapsed ? ` (${nodes.toLocaleString('en-US')} nodes, ${collapsed.toLocaleString('en-US')} collapsed groups)` : '') +
      (v.flat ? ' · flat: module boxes hidden (l)' : '') +
      (this.engine ? '' : ' · re-layout unavailable');
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

  // A graph that records a failure (a live trace whose forward pass raised, a failed pass of a
  // one-pass trace) says so in a banner over the canvas; the timeline overlay has its own.
  showGraphError() {
    let banner = $('graph-error');
    const entry = this.overlays.get('timeline') && this.overlays.get('timeline').active ? null
      : this.model.attrs.find(([k]) => k === 'error');
    if (!entry) { if (banner) banner.hidden = true; return; }
    if (!banner) {
      banner = document.createElement('div');
      banner.id = 'graph-error';
      banner.className = 'timeline-error graph-error';
      banner.setAttribute('role', 'alert');
      $('stage').appendChild(banner);
    }
    banner.textContent = `Failed: ${entry[1]}`;
    banner.hidden = false;
  }

  // A title over each pane (the step it shows; the current one marked).
  showPaneTitles(panes) {
    let box = $('pane-titles');
    if (!panes) { if (box) box.hidden = true; return; }
    if (!box) {
      box = document.createElement('div');
      box.id = 'pane-titles';
      box.className = 'pane-titles';
      $('stage').appendChild(box);
    }
    box.hidden = false;
    const key = panes.map((p) => `${p.title}|${p.current}`).join('\n') + `|${this.width}`;
    if (box.dataset.key === key) return;
    box.dataset.key = key;
    box.replaceChildren();
    panes.forEach((p, k) => {
      const t = document.createElement('div');
      t.className = 'pane-title' + (p.current ? ' current' : '');
      t.style.left = `${k * this.width}px`;
      t.style.width = `${this.width}px`;
      t.textContent = p.title;
      t.title = p.title;
      box.appendChild(t);
    });
  }

  // The pane under canvas x (0 without panes) and the decoration hit testing must respect.
  paneAt(offsetX) {
    const panes = this.overlays.panes();
    if (!panes) return { k: 0, x: offsetX, pane: null };
    const k = Math.max(0, Math.min(panes.length - 1, Math.floor(offsetX / this.width)));
    return { k, x: offsetX - k * this.width, pane: panes[k] };
  }
  hitAt(offsetX, offsetY) {
    const { x, pane } = this.paneAt(offsetX);
    const styles = pane ? pane.nodeStyles : this.overlays.nodeStyles();
    const edgeHidden = pane ? pane.edgeHidden : this.overlays.edgeHidden();
    return this.view.hit(x, offsetY, { styles, edgeHidden });
  }
  // True when the decoration on show hides node i (it is not in the current step).
  isHidden(i) {
    const st = this.overlays.nodeStyles();
    return !!(st && st.styles[st.bucket[i]].hidden);
  }

  toast(text) {
    const t = $('toast');
    t.textContent = text;
    t.hidden = false;
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => { t.hidden = true; }, 4000);
  }
}

async function main() {
  let files;
  try {
    files = await readEmbeddedFiles(document);
  } catch (e) {
    document.body.textContent = `etviz: cannot read this page's graph data: ${e.message}`;
    throw e;
  }
  const app = new App(files);
  installTestFacade(window, app);
  app.start();
  try {
    app.engine = await createLayoutEngine();
    if (app.linkFlat) {
      const node = app.state.node;
      app.toggleFlatten(true);
      if (node >= 0) app.selectNode(node, { center: true });
    }
    app.syncDepthControl();
    app.warmLayoutCache();
  } catch (e) {
    app.engineError = `Expand/collapse re-layout is unavailable: ${e.message}`;
  }
  app.engineSettled = true;
  app.requestRender();
  return app;
}

// An app page (`etviz app`, `view --app`: docs/app.md) opens files itself and starts the viewer
// on each page it makes; any other page shows its embedded data.
if (document.getElementById('etviz-app-module')) startApp(main);
else main();
