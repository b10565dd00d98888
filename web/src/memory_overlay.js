// The memory overlay: the memory plan of the method on show as a timeline under the canvas
// (x = instruction, y = offset in its arena, one rectangle per planned tensor from the
// instruction that writes it to the last that reads it), the peak of each arena marked.
// Hover names the tensor, its writer and readers; a click selects the writer in the graph; a
// node selected in the graph lights up the tensors it writes and reads. Reads the page's
// etviz-memory element (src/render/html/memory_data.cpp); C++ computed every figure.
import { formatBytes, readPageElement } from './data.js';
import { dockDrawer } from './dock_table.js';

const BAND_GAP = 14; // px between arenas, room for the arena's label

// Implements the overlay interface (overlay.js).
export class MemoryOverlay {
  static fromPage(doc) {
    const data = readPageElement(doc, 'etviz-memory');
    return data && data.graphs.length ? new MemoryOverlay(data) : null;
  }

  constructor(data) {
    this.id = 'memory';
    this.byGraph = new Map(data.graphs.map((g) => [g.graph, g]));
    this.selected = -1;
    this.hover = -1;
    this.view = null; // [x0, x1) in instructions
  }

  attach(host) {
    this.host = host;
    this.ui = dockDrawer({
      id: 'memory-drawer',
      label: 'Memory',
      toggleTitle: 'Show or hide the memory timeline (m)',
      canvasLabel: 'Memory timeline',
      onToggle: () => this.setOpen(!this.open),
    });
    host.dock.appendChild(this.ui.el);
    host.keys.bind('m', 'show / hide the memory timeline (memory plan)', () => this.setOpen(!this.open));
    const canvas = this.ui.canvas;
    canvas.addEventListener('pointermove', (ev) => this.pointer(ev.offsetX, ev.offsetY));
    canvas.addEventListener('pointerleave', () => this.pointer(-1, -1));
    canvas.addEventListener('click', (ev) => this.click(ev.offsetX, ev.offsetY));
    canvas.addEventListener(
      'wheel',
      (ev) => {
        ev.preventDefault();
        this.zoom(ev.offsetX, Math.exp(ev.deltaY * 0.0015));
      },
      { passive: false },
    );
    canvas.addEventListener('dblclick', () => {
      this.view = null;
      this.draw();
    });
    new ResizeObserver(() => this.draw()).observe(this.ui.body);
    this.update();
  }

  get plan() {
    return this.byGraph.get(this.host.graphIndex) || null;
  }

  setOpen(open) {
    this.ui.setOpen(open);
    this.draw();
  }
  get open() {
    return this.ui.open;
  }

  update() {
    const p = this.plan;
    this.ui.el.hidden = !p;
    this.view = null;
    this.hover = -1;
    if (!p) return;
    const parts = p.arenas.map(
      (a) => `arena ${a.id}: ${formatBytes(a.planned)} planned, peak ${formatBytes(a.peak)} at instruction ${a.peakAt}`,
    );
    this.ui.title.textContent =
      `Memory plan of ${p.method} · ${p.instructions.toLocaleString('en-US')} instructions · ` +
      `${p.tensors.name.length.toLocaleString('en-US')} tensors · ${parts.join(' · ')}` +
      (p.overlaps ? ` · ⚠ ${p.overlaps} overlapping pairs (plan defect)` : '');
    this.ui.title.title = this.ui.title.textContent;
    // Per tensor: the instruction position of the writer (for the selection line).
    this.position = new Map();
    p.instrNodes.forEach((n, k) => {
      if (n >= 0 && !this.position.has(n)) this.position.set(n, k);
    });
    this.draw();
  }

  onGraph() {
    this.update();
  }
  onSelect(node) {
    this.selected = node;
    this.draw();
  }

  // ---- geometry -----------------------------------------------------------------------------
  bands(height) {
    const p = this.plan;
    const n = p.arenas.length;
    const h = Math.max(20, (height - BAND_GAP * n - 4) / n);
    return p.arenas.map((a, k) => ({
      arena: a,
      y: 4 + k * (h + BAND_GAP) + BAND_GAP,
      h,
      scale: h / Math.max(a.planned, a.reached, 1),
    }));
  }
  xRange() {
    const p = this.plan;
    return this.view || [0, Math.max(p.instructions, 1)];
  }
  // Screen rectangle of tensor i.
  rect(i, bands, width) {
    const t = this.plan.tensors;
    const band = bands.find((b) => b.arena.id === t.arena[i]);
    if (!band) return null;
    const [x0, x1] = this.xRange();
    const sx = width / (x1 - x0);
    return {
      x: (t.first[i] - x0) * sx,
      w: Math.max((t.last[i] + 1 - t.first[i]) * sx, 1),
      y: band.y + t.offset[i] * band.scale,
      h: Math.max(t.bytes[i] * band.scale, 1),
    };
  }

  // Tensors the selected node writes or reads.
  selectedTensors() {
    const p = this.plan;
    const m = this.host.model;
    if (!p || this.selected < 0) return new Set();
    const values = new Set();
    for (const e of m.inEdges.of(this.selected)) values.add(m.e.val[e]);
    for (const e of m.outEdges.of(this.selected)) values.add(m.e.val[e]);
    const out = new Set();
    p.tensors.value.forEach((v, i) => {
      if (values.has(v) || p.tensors.node[i] === this.selected) out.add(i);
    });
    return out;
  }

  // ---- drawing ----------------------------------------------------------------------------
  draw() {
    const p = this.plan;
    if (!p || !this.open || !this.ui) return;
    const c = this.ui.canvas;
    const dpr = window.devicePixelRatio || 1;
    const width = this.ui.body.clientWidth,
      height = this.ui.body.clientHeight;
    if (!width || !height) return;
    const t0 = performance.now();
    if (c.width !== Math.round(width * dpr) || c.height !== Math.round(height * dpr)) {
      c.width = Math.round(width * dpr);
      c.height = Math.round(height * dpr);
      c.style.width = `${width}px`;
      c.style.height = `${height}px`;
    }
    const ctx = c.getContext('2d');
    const T = this.host.theme;
    const m = this.host.model;
    const bands = this.bands(height);
    const [x0, x1] = this.xRange();
    const sx = width / (x1 - x0);
    const t = p.tensors;
    const count = t.name.length;
    const lit = this.selectedTensors();
    // The rectangles change only with the view: drawn once into a bitmap, then hover and
    // selection redraw over it (cheap at 200k tensors).
    const key = `${this.host.graphIndex}|${width}x${height}@${dpr}|${x0}|${x1}|${T.dark}`;
    if (!this.base || this.base.key !== key) {
      const t1 = performance.now();
      const off = document.createElement('canvas');
      off.width = c.width;
      off.height = c.height;
      const o = off.getContext('2d');
      o.setTransform(dpr, 0, 0, dpr, 0, 0);
      o.fillStyle = T.bg;
      o.fillRect(0, 0, width, height);
      const byCat = new Map();
      for (let i = 0; i < count; i++) {
        if (t.last[i] + 1 < x0 || t.first[i] > x1) continue;
        const node = t.node[i];
        const cat = node >= 0 ? m.n.cat[node] : -1;
        let list = byCat.get(cat);
        if (!list) byCat.set(cat, (list = []));
        list.push(i);
      }
      for (const b of bands) {
        o.fillStyle = T.dark ? '#ffffff08' : '#00000006';
        o.fillRect(0, b.y, width, b.h);
        o.fillStyle = T.muted;
        o.font = '11px system-ui, sans-serif';
        o.textBaseline = 'bottom';
        o.fillText(`arena ${b.arena.id} · ${formatBytes(b.arena.planned)}`, 4, b.y - 1);
      }
      // Geometry inline (no object per tensor); outlines only while they can be seen apart.
      const bandOf = new Map(bands.map((b) => [b.arena.id, b]));
      const outline = count <= 20000;
      for (const [cat, ids] of byCat) {
        const style = cat >= 0 ? T.cats[cat] : { fill: T.collapsedFill, stroke: T.collapsedStroke };
        o.beginPath();
        for (const i of ids) {
          const b = bandOf.get(t.arena[i]);
          if (!b) continue;
          o.rect(
            (t.first[i] - x0) * sx,
            b.y + t.offset[i] * b.scale,
            Math.max((t.last[i] + 1 - t.first[i]) * sx, 1),
            Math.max(t.bytes[i] * b.scale, 1),
          );
        }
        o.fillStyle = outline ? style.fill : style.stroke;
        o.fill();
        if (outline) {
          o.lineWidth = 0.6;
          o.strokeStyle = style.stroke;
          o.stroke();
        }
      }
      this.base = { key, canvas: off };
      this.lastBaseMs = performance.now() - t1;
    }
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.drawImage(this.base.canvas, 0, 0);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    if (lit.size || this.hover >= 0) {
      ctx.lineWidth = 2;
      ctx.strokeStyle = T.accent;
      for (const i of new Set([...lit, ...(this.hover >= 0 ? [this.hover] : [])])) {
        const r = this.rect(i, bands, width);
        if (r) ctx.strokeRect(r.x, r.y, r.w, r.h);
      }
    }
    // The peak of each arena, and the selected node's instruction.
    ctx.setLineDash([4, 3]);
    for (const b of bands) {
      const x = (b.arena.peakAt + 0.5 - x0) * sx;
      ctx.strokeStyle = T.match;
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      ctx.moveTo(x, b.y - 2);
      ctx.lineTo(x, b.y + b.h + 2);
      ctx.stroke();
      ctx.fillStyle = T.text;
      ctx.textBaseline = 'bottom';
      const label = `peak ${formatBytes(b.arena.peak)}`;
      const tw = ctx.measureText(label).width;
      ctx.fillText(label, Math.min(Math.max(x + 4, 4), width - tw - 4), b.y - 1);
    }
    const at = this.selected >= 0 ? this.position.get(this.selected) : undefined;
    if (at !== undefined) {
      const x = (at + 0.5 - x0) * sx;
      ctx.strokeStyle = T.accent;
      ctx.beginPath();
      ctx.moveTo(x, 0);
      ctx.lineTo(x, height);
      ctx.stroke();
    }
    ctx.setLineDash([]);
    this.lastDrawMs = performance.now() - t0;
  }

  // ---- input ------------------------------------------------------------------------------
  tensorAt(px, py) {
    const p = this.plan;
    if (!p || px < 0) return -1;
    const width = this.ui.body.clientWidth,
      height = this.ui.body.clientHeight;
    const bands = this.bands(height);
    const t = p.tensors;
    let best = -1,
      bestArea = Infinity;
    for (let i = 0; i < t.name.length; i++) {
      const r = this.rect(i, bands, width);
      if (!r || px < r.x || px > r.x + r.w || py < r.y - 1 || py > r.y + r.h + 1) continue;
      const area = r.w * r.h;
      if (area < bestArea) {
        bestArea = area;
        best = i;
      }
    }
    return best;
  }

  describe(i) {
    const p = this.plan;
    const t = p.tensors;
    const m = this.host.model;
    const readers = new Set();
    for (let e = 0; e < m.edgeCount; e++) if (m.e.val[e] === t.value[i]) readers.add(m.nodeLabel(m.e.dst[e]));
    const writer = t.node[i] >= 0 ? m.nodeLabel(t.node[i]) : 'method input';
    const life = t.forever[i] ? `${t.first[i]}–end (never freed)` : `${t.first[i]}–${t.last[i]}`;
    const list = [...readers];
    return (
      `${t.name[i]} · ${formatBytes(t.bytes[i])} at arena ${t.arena[i]} + ${t.offset[i].toLocaleString('en-US')}\n` +
      `lives at instructions ${life}\nwritten by ${writer}\nread by ${list.slice(0, 6).join(', ') || 'nothing'}` +
      (list.length > 6 ? ` and ${list.length - 6} more` : '')
    );
  }

  pointer(px, py) {
    const i = this.tensorAt(px, py);
    const tip = this.ui.tip;
    if (i !== this.hover) {
      this.hover = i;
      this.draw();
    }
    if (i < 0) {
      tip.hidden = true;
      return;
    }
    tip.textContent = this.describe(i);
    tip.hidden = false;
    const w = tip.offsetWidth,
      h = tip.offsetHeight;
    const bw = this.ui.body.clientWidth,
      bh = this.ui.body.clientHeight;
    tip.style.left = `${Math.min(px + 14, bw - w - 4)}px`;
    tip.style.top = `${py + 16 + h > bh ? Math.max(py - h - 8, 0) : py + 16}px`;
  }

  click(px, py) {
    const i = this.tensorAt(px, py);
    if (i < 0) return;
    const t = this.plan.tensors;
    const m = this.host.model;
    let node = t.node[i];
    if (node < 0) for (let e = 0; e < m.edgeCount && node < 0; e++) if (m.e.val[e] === t.value[i]) node = m.e.dst[e];
    if (node >= 0) this.host.selectNode(node, { center: true });
  }

  zoom(px, factor) {
    const [x0, x1] = this.xRange();
    const width = this.ui.body.clientWidth;
    const at = x0 + (px / width) * (x1 - x0);
    const span = Math.min(Math.max((x1 - x0) * factor, 4), this.plan.instructions);
    const start = Math.max(0, Math.min(at - (px / width) * span, this.plan.instructions - span));
    this.view = [start, start + span];
    this.draw();
  }

  facade() {
    return {
      open: () => this.open,
      setOpen: (b) => this.setOpen(b),
      plan: () => {
        const p = this.plan;
        return p
          ? {
              method: p.method,
              instructions: p.instructions,
              arenas: p.arenas.map((a) => ({ ...a })),
              tensors: p.tensors.name.length,
              overlaps: p.overlaps,
            }
          : null;
      },
      tensor: (i) => {
        const t = this.plan.tensors;
        return {
          name: t.name[i],
          node: t.node[i],
          arena: t.arena[i],
          offset: t.offset[i],
          bytes: t.bytes[i],
          first: t.first[i],
          last: t.last[i],
        };
      },
      // Page coordinates of the middle of tensor i's rectangle (the drawer must be open).
      tensorPoint: (i) => {
        const r = this.rect(i, this.bands(this.ui.body.clientHeight), this.ui.body.clientWidth);
        const b = this.ui.canvas.getBoundingClientRect();
        return [b.left + r.x + r.w / 2, b.top + r.y + r.h / 2];
      },
      tooltip: () => (this.ui.tip.hidden ? null : this.ui.tip.textContent),
      highlighted: () => [...this.selectedTensors()].sort((a, b) => a - b),
      lastDrawMs: () => this.lastDrawMs,
      lastBaseMs: () => this.lastBaseMs,
    };
  }
}
