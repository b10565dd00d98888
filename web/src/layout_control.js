// Graphs and layout: which graph is on show (each with its own GraphView: expand state, camera,
// layout), and every change that lays a graph out again (expand or collapse a group, the depth
// slider, flatten) through the WebAssembly layout engine, which loads after the first paint.
//
// Gives the host (main.js): views, view, engine, engineError, engineSettled, timings();
// loadEngine(onLoad), defaultGraph(file), selectGraph(i), relayout(), toggleGroup(g, screen),
// setDepth(level, folds), setAllExpanded(level), stepDepth(step), toggleFlatten(force),
// syncDepthControl(), warmLayoutCache().
// Uses of the host: models, state, width, height, toast(text), placeCamera(view),
// initialView(), cameraIsAuto(view), fit(), rememberSelection(i), invalidateOverview(), requestRender().
import { $ } from './dom.js';
import { keepAnchor } from './camera.js';
import { expandToLevel, hierarchyLevels, shownLevel } from './visibility.js';
import { createLayoutEngine } from './layout_wasm.js';
import { GraphView } from './graph_view.js';

export class LayoutControl {
  /** @param {import('./main.js').App} host */
  constructor(host) {
    this.host = host;
    /** @type {GraphView[]} */
    this.views = new Array(host.models.length);
    this.engine = null;
    this.engineError = null;
    // Resolves once the engine loaded or failed (the test facade's ready()).
    this.engineSettled = new Promise((resolve) => {
      this.settle = resolve;
    });
    this.lastLayoutMs = undefined;
    this.lastToggleMs = undefined;
    this.warmupMs = undefined;
    $('btn-expand').addEventListener('click', () => this.setAllExpanded(Infinity));
    $('btn-collapse').addEventListener('click', () => this.setAllExpanded(0));
    $('btn-flatten').addEventListener('click', () => this.toggleFlatten());
    const depth = /** @type {HTMLInputElement} */ ($('depth'));
    depth.addEventListener('input', () => this.setDepth(Number(depth.value)));
  }

  get view() {
    return this.views[this.host.state.graph];
  }
  timings() {
    return { lastLayoutMs: this.lastLayoutMs, lastToggleMs: this.lastToggleMs, warmupMs: this.warmupMs };
  }

  // Loads the engine; `onLoad()` runs once it is there, before the first warm-up run.
  async loadEngine(onLoad) {
    try {
      this.engine = await createLayoutEngine();
      onLoad();
      this.syncDepthControl();
      this.warmLayoutCache();
    } catch (e) {
      this.engineError = `Expand/collapse re-layout is unavailable: ${e.message}`;
    }
    this.settle();
    this.host.requestRender();
  }

  defaultGraph(file = 0) {
    // The graph with the most nodes is the interesting one (forward, not a constant getter).
    const models = this.host.models;
    const of = models.map((m, i) => i).filter((i) => models[i].file === file);
    let best = of[0];
    for (const i of of) if (models[i].irNodes > models[best].irNodes) best = i;
    const forward = of.find((i) => models[i].name === 'forward');
    return forward !== undefined && models[forward].irNodes > 0 ? forward : best;
  }

  selectGraph(i) {
    const h = this.host;
    if (!this.views[i]) this.views[i] = new GraphView(h.models[i]);
    // Flatten is a way of reading, kept across graphs: a graph first shown (or last shown)
    // the other way is laid out again; its own expand state and depth stay its own.
    const v = this.views[i];
    if (this.engine && v.flat !== h.state.flatten) {
      v.flat = h.state.flatten;
      this.layoutView(v);
      if (v.fitted) h.placeCamera(v);
    }
    h.state.setGraph(i);
    // A graph not yet placed, or placed for another canvas and not moved since, gets its first
    // view (once the canvas has a size: frame.js places it then).
    if ((!this.view.fitted || h.cameraIsAuto(this.view)) && h.width > 1 && h.height > 1) {
      h.initialView();
      this.view.fitted = true;
    }
    this.warmLayoutCache();
    h.requestRender();
  }

  relayout() {
    this.layoutView(this.view);
  }
  layoutView(v) {
    const t0 = performance.now();
    v.setLayout(this.engine.run(v.model, v.expanded, v.hierarchy));
    this.lastLayoutMs = performance.now() - t0;
    this.syncDepthControl();
    this.host.invalidateOverview();
  }

  // Expands or collapses group g, keeping the pointer over the same spot of the group.
  toggleGroup(g, screen) {
    const h = this.host;
    const v = this.view;
    if (!this.engine) {
      h.toast(
        this.engineError ||
          'Expand/collapse needs the WebAssembly layout engine, which this etviz build does not include; the precomputed layout is shown.',
      );
      return false;
    }
    const t0 = performance.now();
    const L = v.layout;
    const sx = screen ? screen[0] : h.width / 2;
    const sy = screen ? screen[1] : h.height / 2;
    const [wx, wy] = v.camera.toWorld(sx, sy);
    const dx = wx - L.gx[g],
      dy = wy - L.gy[g];
    v.expanded[g] ^= 1;
    this.relayout();
    const N = v.layout;
    const ax = N.gx[g] + Math.min(Math.max(dx, 0), N.gw[g]);
    const ay = N.gy[g] + Math.min(Math.max(dy, 0), N.gh[g]);
    keepAnchor(v.camera, [wx, wy], [ax, ay]);
    this.lastToggleMs = performance.now() - t0;
    h.requestRender();
    return true;
  }

  // Shows the hierarchy down to `level` (0: collapsed to the top level; Infinity: everything);
  // `folds` opens (true) or closes (false) the leaf folds (QDQ clusters, many inputs or
  // constants) too, else they stay as they are (visibility.js, expandToLevel).
  setDepth(level, folds) {
    const v = this.view;
    if (!this.engine) {
      this.toggleGroup(-1);
      this.syncDepthControl();
      return;
    }
    const t0 = performance.now();
    v.expanded = expandToLevel(v.hierarchy, v.model.groupKinds, v.expanded, level, folds);
    this.relayout();
    this.host.fit();
    this.lastToggleMs = performance.now() - t0;
  }
  setAllExpanded(level) {
    this.setDepth(level, level > 0);
  }
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
    const h = this.host;
    const on = force !== undefined ? !!force : !h.state.flatten;
    if (!this.engine) {
      h.toast(
        this.engineError ||
          'Flatten needs the WebAssembly layout engine, which this etviz build does not include; the precomputed layout is shown.',
      );
      $('btn-flatten').classList.toggle('on', h.state.flatten);
      return;
    }
    const t0 = performance.now();
    const v = this.view;
    h.state.flatten = on;
    $('btn-flatten').classList.toggle('on', on);
    $('btn-flatten').setAttribute('aria-pressed', String(on));
    v.flat = on;
    this.relayout();
    h.placeCamera(v);
    this.lastToggleMs = performance.now() - t0;
    if (h.state.node >= 0) h.rememberSelection(h.state.node); // the link says flat or not
    h.state.setDisplay('flatten', on);
  }

  // The depth slider follows the graph on show: its levels, and the level its state shows.
  syncDepthControl() {
    const slider = /** @type {HTMLInputElement} */ ($('depth'));
    if (!slider || !this.view) return;
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
}
