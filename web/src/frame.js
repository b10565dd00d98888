// The frame loop: the canvas's size and panes, what a frame draws, the status line under the
// graph, and what lies under a canvas point. Nothing draws on the spot: a change calls
// requestRender() and the next animation frame draws once, however many changes came first.
//
// Gives the host (main.js): width, height (of one pane), dpr, paneCount, renderer, minimap,
// frameTimes, lastFrameStats, firstPaint; resize(), requestRender(), invalidateOverview(),
// frame(), frameState(pane, k), paneAt(x), hitAt(x, y), isHidden(i), dispose().
// Uses of the host: canvas, view, state, overlays, theme, engine, highlight, initialView(),
// cameraIsAuto(view), foldLegendToFit().
import { $ } from './dom.js';
import { Renderer } from './render.js';
import { Minimap } from './minimap.js';

export class FrameLoop {
  /** @param {import('./main.js').App} host */
  constructor(host) {
    this.host = host;
    this.renderer = new Renderer(host.canvas);
    this.minimap = new Minimap($('minimap'), host);
    this.width = 0;
    this.height = 0;
    this.paneCount = 1;
    this.dpr = window.devicePixelRatio || 1;
    this.frameTimes = [];
    this.pending = false;
    this.disposed = false;
    this.firstPaint = undefined; // when the first frame was presented (-1: drawn, not yet shown)
    this.lastFrameStats = null;
  }

  // The stage changed size, or the number of panes changed: the canvas follows.
  resize() {
    const h = this.host;
    const stage = $('stage');
    // Panes side by side (overlay.js) split the stage; each is `width` wide.
    const panes = h.view ? h.overlays.panes() : null;
    this.paneCount = panes ? panes.length : 1;
    this.width = Math.floor(stage.clientWidth / this.paneCount);
    this.height = stage.clientHeight;
    this.dpr = window.devicePixelRatio || 1;
    h.canvas.width = Math.round(stage.clientWidth * this.dpr);
    h.canvas.height = Math.round(this.height * this.dpr);
    this.showPaneTitles(panes);
    // The first view waits for a canvas with a size (a notebook's iframe may have none yet)
    // and follows the canvas's size and chrome until the user moves the camera.
    const v = h.view;
    if (v && this.width > 1 && this.height > 1 && (!v.fitted || h.cameraIsAuto(v))) {
      h.foldLegendToFit();
      h.initialView();
      v.fitted = true;
    }
    this.requestRender();
  }

  // What the renderer draws; `pane`: one of the overlay's panes (its decoration and strip).
  frameState(pane = null, k = 0) {
    const h = this.host;
    const v = h.view;
    const s = h.state;
    const hl = h.highlight;
    return {
      viewport: pane ? { x: k * this.width, w: this.width } : null,
      edgeHidden: pane ? pane.edgeHidden : h.overlays.edgeHidden(),
      labels: pane ? pane.nodeLabels : h.overlays.nodeLabels(),
      valueLabels: pane ? pane.valueLabels : h.overlays.valueLabels(),
      dpr: this.dpr,
      camera: v.camera,
      theme: h.theme,
      layout: v.layout,
      model: v.model,
      boxes: v.boxes,
      framesByDepth: v.framesByDepth,
      edgeBounds: v.edgeBounds,
      bounds: v.bounds,
      catHidden: s.catHidden,
      showShapes: s.showShapes,
      showQdq: s.showQdq,
      qdqRects: v.qdqRects,
      selectedNode: s.node,
      selectedGroup: s.group,
      matches: s.matches,
      edgeHighlight: s.node >= 0 || s.edge >= 0 ? hl.edges : null,
      detachedHighlight: s.node >= 0 ? hl.detached : null,
      useOverview: !pane,
      nodeStyles: pane ? pane.nodeStyles : h.overlays.nodeStyles(),
    };
  }
  // The overview bitmap is only drawn zoomed far out; build it when that is the case.
  wantsOverview() {
    const v = this.host.view;
    const b = v.bounds;
    const scale = Math.min(4096 / Math.max(b.w, 1), 4096 / Math.max(b.h, 1), 0.25);
    return v.camera.scale * this.dpr <= scale * 1.6;
  }
  // The drawing changed (layout, theme, colours): the overview bitmap and minimap are redrawn.
  invalidateOverview() {
    this.renderer.overview = null;
    this.minimap.invalidate();
    this.requestRender();
  }
  // An app page (app.js) replaces the viewer when it opens other files: this one stops drawing
  // (its elements are gone with the old markup).
  dispose() {
    this.disposed = true;
  }
  requestRender() {
    if (this.pending || this.disposed) return;
    this.pending = true;
    requestAnimationFrame(() => this.frame());
  }
  frame() {
    this.pending = false;
    const h = this.host;
    if (!this.width || !h.view) return;
    const t0 = performance.now();
    const panes = h.overlays.panes();
    if ((panes ? panes.length : 1) !== this.paneCount) this.resize();
    let stats;
    if (panes) {
      panes.forEach((p, k) => {
        const st = this.renderer.draw(this.frameState(p, k));
        if (p.current) stats = st;
      });
    } else {
      const state = this.frameState();
      if (!this.renderer.overview && h.view.boxes.nodes.length > 3000 && this.wantsOverview())
        this.renderer.buildOverview(state);
      stats = this.renderer.draw(state);
    }
    this.showPaneTitles(panes);
    this.minimap.draw();
    const dt = performance.now() - t0;
    this.frameTimes.push(dt);
    if (this.frameTimes.length > 2000) this.frameTimes.splice(0, 1000);
    const v = h.view;
    const nodes = v.boxes.nodes.length,
      collapsed = v.boxes.collapsed.length;
    $('status').textContent =
      `${Math.round(v.camera.scale * 100)}% · ${(nodes + collapsed).toLocaleString('en-US')} boxes shown` +
      (collapsed
        ? ` (${nodes.toLocaleString('en-US')} nodes, ${collapsed.toLocaleString('en-US')} collapsed groups)`
        : '') +
      (v.flat ? ' · flat: module boxes hidden (l)' : '') +
      (h.engine ? '' : ' · re-layout unavailable');
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

  // A title over each pane (the step it shows; the current one marked), at the pane's foot: cut
  // at its end with an ellipsis when longer than the pane (viewer.css; the whole title on
  // hover), and never over a node: a title a node lies under is hidden until the view moves on.
  showPaneTitles(panes) {
    let box = $('pane-titles');
    if (!panes) {
      if (box) box.hidden = true;
      return;
    }
    this.buildPaneTitles(box, panes);
    this.hideTitlesOverNodes();
  }
  buildPaneTitles(box, panes) {
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
      const text = document.createElement('span');
      text.textContent = p.title;
      text.title = p.title;
      t.appendChild(text);
      box.appendChild(t);
    });
  }
  // Each title's box in world units (panes share the camera) against the boxes drawn: checked
  // when the camera, the panes or the drawing changed, not every frame.
  hideTitlesOverNodes() {
    const v = this.host.view;
    const box = $('pane-titles');
    if (!v || !box) return;
    const cam = v.camera;
    const key = `${box.dataset.key}|${cam.x}|${cam.y}|${cam.scale}|${v.boxes.nodes.length}|${this.height}`;
    if (this.titleCheck === key) return;
    this.titleCheck = key;
    const stage = $('stage').getBoundingClientRect();
    const L = v.layout;
    box.querySelectorAll('.pane-title > span').forEach((span, k) => {
      const r = span.getBoundingClientRect();
      const x0 = (r.left - stage.left - k * this.width - cam.x) / cam.scale,
        x1 = (r.right - stage.left - k * this.width - cam.x) / cam.scale,
        y0 = (r.top - stage.top - cam.y) / cam.scale,
        y1 = (r.bottom - stage.top - cam.y) / cam.scale;
      const over = (x, y, w, h) => x < x1 && x + w > x0 && y < y1 && y + h > y0;
      let covered = false;
      for (const i of v.boxes.nodes)
        if (over(L.nx[i], L.ny[i], L.nw[i], L.nh[i])) {
          covered = true;
          break;
        }
      if (!covered)
        for (const g of v.boxes.collapsed)
          if (over(L.gx[g], L.gy[g], L.gw[g], L.gh[g])) {
            covered = true;
            break;
          }
      span.classList.toggle('covering', covered);
    });
  }

  // The pane under canvas x (0 without panes) and the decoration hit testing must respect.
  paneAt(offsetX) {
    const panes = this.host.overlays.panes();
    if (!panes) return { k: 0, x: offsetX, pane: null };
    const k = Math.max(0, Math.min(panes.length - 1, Math.floor(offsetX / this.width)));
    return { k, x: offsetX - k * this.width, pane: panes[k] };
  }
  hitAt(offsetX, offsetY) {
    const { x, pane } = this.paneAt(offsetX);
    const overlays = this.host.overlays;
    const styles = pane ? pane.nodeStyles : overlays.nodeStyles();
    const edgeHidden = pane ? pane.edgeHidden : overlays.edgeHidden();
    return this.host.view.hit(x, offsetY, { styles, edgeHidden });
  }
  // True when the decoration on show hides node i (it is not in the current step).
  isHidden(i) {
    const st = this.host.overlays.nodeStyles();
    return !!(st && st.styles[st.bucket[i]].hidden);
  }
}
