// Where the camera of the graph on show goes: the first view of a graph (fitted when small,
// readable at the top when large, clear of the floating legend), fit, zoom steps, and moves
// to a node or group. The camera itself (pan, zoom, transforms) is camera.js.
//
// Gives the host (main.js): initialView(), placeCamera(view), fit(), zoomBy(factor),
// zoomToNode(i), zoomToGroup(g).
// Uses of the host: view, state, canvas, width, height, requestRender().
import { $ } from './dom.js';
import { readableWindow } from './camera.js';

export class CameraControl {
  /** @param {import('./main.js').App} host */
  constructor(host) {
    this.host = host;
    $('btn-fit').addEventListener('click', () => this.fit());
  }

  // Small graphs fit the window; tall ones start readable at the top (f fits everything).
  // The legend covers the top-left corner; fitted views leave it room.
  floatingLegend() {
    return [$('legend'), $('heat-legend')].find((e) => e && e.offsetWidth);
  }
  legendWidth() {
    const el = this.floatingLegend();
    return el ? el.offsetWidth + 12 : 0;
  }
  initialView() {
    const { view, width, height } = this.host;
    const b = view.bounds;
    const cam = view.camera;
    const lw = this.legendWidth();
    cam.fit(b, width - lw, height, 32, 1.4);
    cam.x += lw;
    if (cam.scale >= 0.45) return;
    cam.scale = Math.max(cam.scale, Math.min(1, (width - 64) / Math.max(b.w, 1)), 0.45);
    cam.y = 32 - b.y * cam.scale;
    const avail = width - lw;
    if (b.w * cam.scale <= avail) cam.x = lw + avail / 2 - (b.x + b.w / 2) * cam.scale;
    else {
      // Wider than the view: the boxes of the rows it shows decide. Centred when they fit;
      // otherwise the window with no box cut at its left edge and the most boxes wholly
      // inside, nearest the median box (one wide row of parameters at the top must not
      // pull the view onto empty space).
      const L = view.layout;
      const bottom = b.y + (height - 32) / cam.scale;
      const shown = [],
        xs = [];
      let lo = Infinity,
        hi = -Infinity;
      const add = (x, y, w) => {
        xs.push(x + w / 2);
        if (y > bottom) return;
        shown.push({ x, w });
        lo = Math.min(lo, x);
        hi = Math.max(hi, x + w);
      };
      for (const i of view.boxes.nodes) add(L.nx[i], L.ny[i], L.nw[i]);
      for (const g of view.boxes.collapsed) add(L.gx[g], L.gy[g], L.gw[g]);
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
    const view = this.host.view;
    const c = this.host.canvas.getBoundingClientRect(),
      r = el.getBoundingClientRect();
    const w = r.right - c.left + 8,
      h = r.bottom - c.top + 8;
    const under = view.labelsUnder(w, h);
    if (!under) return;
    const cam = view.camera;
    const b = view.bounds;
    const right = w - under.left,
      down = h - under.top;
    if (right < down && cam.x + b.x * cam.scale >= 0) cam.x += right;
    else cam.y += down;
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
  fit() {
    const { view, width, height } = this.host;
    const lw = this.legendWidth();
    view.camera.fit(view.bounds, width - lw, height, 32, 1.4);
    view.camera.x += lw;
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
