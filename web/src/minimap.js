// The minimap: the whole drawing in a small canvas with the visible area marked; click or
// drag to move there. Hidden when the whole drawing is on screen. Its picture is the
// renderer's overview bitmap, rebuilt off the interaction's critical path.

export class Minimap {
  // host: the viewer's (main.js); the minimap reads view, renderer, theme, dpr, width, height,
  // paneCount, frameState() and requestRender().
  /** @param {import('./main.js').App} host */
  constructor(canvas, host) {
    this.canvas = canvas;
    this.host = host;
    this.image = null;
    this.pending = false;
    this.transform = null;
    const move = (ev) => {
      const t = this.transform;
      if (!t) return;
      const wx = (ev.offsetX - t.ox) / t.sx + t.bx;
      const wy = (ev.offsetY - t.oy) / t.sy + t.by;
      this.host.view.camera.centerOn(wx, wy, this.host.width, this.host.height);
      this.host.requestRender();
    };
    let down = false;
    canvas.addEventListener('pointerdown', (ev) => {
      down = true;
      canvas.setPointerCapture(ev.pointerId);
      move(ev);
    });
    canvas.addEventListener('pointermove', (ev) => {
      if (down) move(ev);
    });
    canvas.addEventListener('pointerup', () => {
      down = false;
    });
  }

  // The drawing changed (layout, theme, colours): the picture is rebuilt on the next draw.
  invalidate() {
    this.image = null;
  }

  draw() {
    const h = this.host;
    const v = h.view;
    const dpr = h.dpr;
    const mm = this.canvas;
    // Its size comes from the stylesheet (smaller in narrow windows).
    const WIDTH = mm.clientWidth || 200,
      HEIGHT = mm.clientHeight || 150;
    if (mm.width !== Math.round(WIDTH * dpr) || mm.height !== Math.round(HEIGHT * dpr)) {
      mm.width = Math.round(WIDTH * dpr);
      mm.height = Math.round(HEIGHT * dpr);
    }
    const ctx = mm.getContext('2d');
    const b = v.bounds;
    // Tall or wide drawings keep a usable width: at least a fifth of the map on the short side.
    const s = Math.min((WIDTH - 10) / Math.max(b.w, 1), (HEIGHT - 10) / Math.max(b.h, 1));
    const drawW = Math.max(b.w * s, Math.min(WIDTH - 10, 40));
    const drawH = Math.max(b.h * s, Math.min(HEIGHT - 10, 30));
    const sx = drawW / Math.max(b.w, 1),
      sy = drawH / Math.max(b.h, 1);
    const ox = (WIDTH - drawW) / 2,
      oy = (HEIGHT - drawH) / 2;
    this.transform = { ox, oy, bx: b.x, by: b.y, sx, sy, drawW, drawH };
    if (!this.image && !this.pending) {
      this.pending = true;
      setTimeout(() => {
        this.pending = false;
        const saved = h.renderer.overview;
        this.image = h.renderer.buildOverview(h.frameState(), 600).canvas;
        h.renderer.overview = saved;
        h.requestRender();
      }, 0);
    }
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = h.theme.bg;
    ctx.fillRect(0, 0, WIDTH, HEIGHT);
    if (this.image) ctx.drawImage(this.image, ox, oy, drawW, drawH);
    const r = v.camera.viewRect(h.width, h.height);
    // Hidden when the whole drawing is on screen, and beside panes (it would cover the last).
    mm.hidden = (h.paneCount || 1) > 1 || (r.x0 <= b.x && r.y0 <= b.y && r.x1 >= b.x + b.w && r.y1 >= b.y + b.h);
    ctx.strokeStyle = h.theme.accent;
    ctx.lineWidth = 1.5;
    ctx.fillStyle = h.theme.accent + '18';
    const rx = ox + (r.x0 - b.x) * sx,
      ry = oy + (r.y0 - b.y) * sy;
    ctx.fillRect(rx, ry, (r.x1 - r.x0) * sx, (r.y1 - r.y0) * sy);
    ctx.strokeRect(rx, ry, (r.x1 - r.x0) * sx, (r.y1 - r.y0) * sy);
  }
}
