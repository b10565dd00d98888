// Input on the canvas: drag to pan, wheel and pinch to zoom, hover for a box's full name,
// click to select a node or edge or to toggle a group; and the window's keys into the key map.
//
// Gives the host (main.js): dispose() (lets go of the window).
// Uses of the host: canvas, keys, view, height, paneAt(x), hitAt(x, y), factsModel(),
// requestRender(), selectNode(i), selectEdge(e), selectGroup(g), toggleGroup(g, screen),
// clearSelection().
import { $ } from './dom.js';

export class Input {
  /** @param {import('./main.js').App} host */
  constructor(host) {
    this.host = host;
    this.hovered = null;
    this.hoverPending = false;
    this.hoverAt = [0, 0];
    this.bindCanvas();
    this.onWindowKey = (ev) => host.keys.handle(ev);
    window.addEventListener('keydown', this.onWindowKey);
  }

  dispose() {
    window.removeEventListener('keydown', this.onWindowKey);
  }

  bindCanvas() {
    const h = this.host;
    const c = h.canvas;
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
      if (!pointers.has(ev.pointerId)) {
        this.hover(ev.offsetX, ev.offsetY);
        return;
      }
      this.hover(-1, -1);
      pointers.set(ev.pointerId, [ev.offsetX, ev.offsetY]);
      const cam = h.view.camera;
      if (pinch && pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
        cam.zoomAt(h.paneAt((a[0] + b[0]) / 2).x, (a[1] + b[1]) / 2, d / (pinch.d || d));
        pinch.d = d;
        h.requestRender();
        return;
      }
      if (!drag) return;
      const dx = ev.offsetX - drag.x,
        dy = ev.offsetY - drag.y;
      if (!drag.moved && Math.hypot(dx, dy) < 4) return;
      drag.moved = true;
      c.classList.add('dragging');
      cam.panBy(dx, dy);
      drag.x = ev.offsetX;
      drag.y = ev.offsetY;
      h.requestRender();
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
    c.addEventListener(
      'wheel',
      (ev) => {
        ev.preventDefault();
        const k = ev.ctrlKey ? 0.01 : 0.0015;
        const delta = ev.deltaMode === 1 ? ev.deltaY * 33 : ev.deltaY;
        h.view.camera.zoomAt(h.paneAt(ev.offsetX).x, ev.offsetY, Math.exp(-delta * k));
        h.requestRender();
      },
      { passive: false },
    );
  }

  // The tooltip: the full name of the box under the pointer (canvas labels are cut to fit).
  hover(sx, sy) {
    const h = this.host;
    const tip = $('tooltip');
    if (sx < 0) {
      tip.hidden = true;
      this.hovered = null;
      return;
    }
    if (this.hoverPending) {
      this.hoverAt = [sx, sy];
      return;
    }
    this.hoverPending = true;
    this.hoverAt = [sx, sy];
    requestAnimationFrame(() => {
      this.hoverPending = false;
      const [x, y] = this.hoverAt;
      const hit = h.hitAt(x, y);
      // The hovered pane's facts (a timeline step's own label, op and name).
      const { pane } = h.paneAt(x);
      const m = (pane && pane.facts) || h.factsModel();
      let text = '';
      if (hit.node !== undefined) {
        const label = m.nodeLabel(hit.node),
          op = m.nodeOp(hit.node),
          name = m.nodeName(hit.node);
        text = [label, op !== label ? op : '', name !== label ? name : ''].filter(Boolean).join('\n');
      } else if (hit.group !== undefined) {
        text = `${m.groupLabel(hit.group)}\n${m.groupName(hit.group)} · ${m.g.count[hit.group].toLocaleString('en-US')} nodes inside`;
        // What changed inside, as the box's badge counts it (the hovered pane's step).
        const styles = pane ? pane.nodeStyles : h.overlays.nodeStyles();
        const changed = styles && styles.groupMarks ? styles.groupMarks.title(hit.group) : '';
        if (changed) text += `\nchanged inside: ${changed}`;
      }
      const key = `${hit.node}|${hit.group}`;
      if (!text) {
        tip.hidden = true;
        this.hovered = null;
        return;
      }
      if (this.hovered !== key) tip.textContent = text;
      this.hovered = key;
      tip.hidden = false;
      const w = tip.offsetWidth,
        ht = tip.offsetHeight;
      tip.style.left = `${Math.min(x + 14, $('stage').clientWidth - w - 6)}px`;
      tip.style.top = `${y + 18 + ht > h.height ? y - ht - 10 : y + 18}px`;
    });
  }

  click(sx, sy) {
    const h = this.host;
    const hit = h.hitAt(sx, sy);
    sx = h.paneAt(sx).x;
    if (hit.node !== undefined) h.selectNode(hit.node);
    else if (hit.group !== undefined) {
      h.toggleGroup(hit.group, [sx, sy]);
      h.selectGroup(hit.group);
    } else if (hit.edge !== undefined) h.selectEdge(hit.edge);
    else h.clearSelection();
  }
}
