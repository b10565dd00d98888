// Where the camera of the graph on show goes: the first view of a graph (first_view.js: fitted
// when readable whole, else readable at its top; in the canvas's free area, clear of the
// chrome floating over it), fit, zoom steps, and moves to a node or group. The camera itself
// (pan, zoom, transforms) is camera.js.
//
// Gives the host (main.js): initialView(), placeCamera(view), fit(), zoomBy(factor),
// zoomToNode(i), zoomToGroup(g), cameraIsAuto(view).
// Uses of the host: view, state, overlays, canvas, width, height, paneCount, requestRender().
import { $ } from './dom.js';
import { firstView } from './first_view.js';

// Elements of the stage that are not chrome over the graph: the canvas, hover and passing
// notes, and the minimap (hidden when the whole drawing is on screen; a start view goes on
// under it, which the minimap is there to show).
const NOT_CHROME = new Set(['canvas', 'tooltip', 'toast', 'minimap', 'pane-titles']);

export class CameraControl {
  /** @param {import('./main.js').App} host */
  constructor(host) {
    this.host = host;
    $('btn-fit').addEventListener('click', () => this.fit());
  }

  // The chrome over the canvas, as rectangles in one pane's coordinates (panes share the
  // camera, so what covers any pane covers the view): `all`, and `top`, the ones along the top
  // edge (a start view's drawing goes on below the window, under the chrome at the bottom).
  obstacles() {
    const stage = $('stage');
    const c = this.host.canvas.getBoundingClientRect();
    const w = this.host.width,
      panes = this.host.paneCount || 1;
    const els = [...stage.children].filter((e) => !NOT_CHROME.has(e.id));
    const titles = $('pane-titles');
    if (titles && !titles.hidden) els.push(...titles.querySelectorAll('.pane-title > span'));
    const all = [],
      top = [];
    for (const el of els) {
      const e = /** @type {HTMLElement} */ (el);
      if (e.hidden || !e.getClientRects().length) continue;
      const r = e.getBoundingClientRect();
      if (r.width < 1 || r.height < 1) continue;
      const o = { x0: r.left - c.left - 6, y0: r.top - c.top - 6, x1: r.right - c.left + 6, y1: r.bottom - c.top + 6 };
      // The status line's text changes with every frame: its whole row is kept free.
      if (e.id === 'status') o.x1 = c.width;
      const atTop = (o.y0 + o.y1) / 2 < this.host.height / 2;
      for (let k = 0; k < panes; k++) {
        const x0 = Math.max(o.x0, k * w) - k * w,
          x1 = Math.min(o.x1, (k + 1) * w) - k * w;
        if (x1 <= x0) continue;
        const p = { x0, y0: o.y0, x1, y1: o.y1 };
        all.push(p);
        if (atTop) top.push(p);
      }
    }
    return { all, top };
  }

  // The labelled boxes and title bars of the drawing on show, in world coordinates.
  labelled() {
    const view = this.host.view;
    const L = view.layout;
    const boxes = [],
      headers = [];
    for (const i of view.boxes.nodes) boxes.push({ x: L.nx[i], y: L.ny[i], w: L.nw[i], h: L.nh[i] });
    for (const g of view.boxes.collapsed) boxes.push({ x: L.gx[g], y: L.gy[g], w: L.gw[g], h: L.gh[g] });
    for (const g of view.framesByDepth) headers.push({ x: L.gx[g], y: L.gy[g], w: L.gw[g], h: view.model.frameHeader });
    return { boxes, headers };
  }

  place(fitOnly) {
    const { view, width, height } = this.host;
    if (!view || width < 2 || height < 2) return;
    // A diff's start view begins at its first change rather than at the graph's top.
    const focus = this.host.overlays.focus();
    const v = firstView({
      bounds: view.bounds,
      ...this.labelled(),
      ...this.obstacles(),
      focus: focus ? view.boxOf(focus.node) : null,
      width,
      height,
      margin: 24,
      fitOnly,
    });
    const cam = view.camera;
    cam.scale = v.scale;
    cam.x = v.x;
    cam.y = v.y;
    view.autoCamera = fitOnly ? null : { scale: cam.scale, x: cam.x, y: cam.y };
  }

  // The first view: the same for a given canvas size and chrome, however the page got there.
  initialView() {
    this.place(false);
  }
  // Whether the camera is where the first view put it (the user has not moved it since): a
  // new canvas size or chrome then places it again.
  cameraIsAuto(view) {
    const a = view.autoCamera,
      cam = view.camera;
    return !!a && a.scale === cam.scale && a.x === cam.x && a.y === cam.y;
  }
  // After the whole drawing changed: back to the selected node, else the readable first view.
  placeCamera(v) {
    const node = this.host.state.node;
    if (v !== this.host.view) {
      v.fitted = false;
      return;
    }
    if (node >= 0 && v.isVisible(node)) this.zoomToNode(node);
    else this.initialView();
  }
  // f: the whole drawing, fitted into the free area at whatever scale.
  fit() {
    this.place(true);
    this.host.requestRender();
  }
  zoomBy(factor) {
    this.host.view.camera.zoomAt(this.host.width / 2, this.host.height / 2, factor);
    this.host.requestRender();
  }
  zoomToNode(i) {
    const { view, width, height } = this.host;
    const L = view.layout;
    const cam = view.camera;
    if (cam.scale < 0.9) cam.scale = 1.1;
    cam.centerOn(L.nx[i] + L.nw[i] / 2, L.ny[i] + L.nh[i] / 2, width, height);
    this.host.requestRender();
  }
  zoomToGroup(g) {
    const { view, width, height } = this.host;
    const L = view.layout;
    const cam = view.camera;
    if (cam.scale < 0.8) cam.scale = 1;
    cam.centerOn(L.gx[g] + L.gw[g] / 2, L.gy[g] + L.gh[g] / 2, width, height);
    this.host.requestRender();
  }
}
