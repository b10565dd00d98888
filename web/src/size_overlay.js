// The size treemap: where the file's bytes go (`etviz size`, src/analysis/size_tree.h) as
// nested rectangles whose areas are the byte counts, under the canvas beside the memory
// timeline. Click a part to zoom into it, the path above to zoom out; hover names the part, its
// bytes and share. Reads the page's etviz-size element; C++ split and attributed every byte.
import { formatBytes, readPageElement } from './data.js';
import { dockDrawer } from './dock_table.js';

const KIND_COLORS = {
  light: {
    section: '#dbe4f0',
    padding: '#eeeeee',
    module: '#d7ecd9',
    constant: '#9fd3a6',
    delegate: '#f4c7a1',
    named_data: '#e2cdf0',
    other: '#e6e6e6',
    file: '#f5f5f5',
  },
  dark: {
    section: '#2c3a4f',
    padding: '#2a2a2a',
    module: '#24402a',
    constant: '#2f6b3a',
    delegate: '#6b4326',
    named_data: '#4a3560',
    other: '#333333',
    file: '#222222',
  },
};

// Squarified treemap (Bruls, Huizing, van Wijk): lays `items` (with .b) out in rect r.
export function squarify(items, r) {
  const out = [];
  const total = items.reduce((s, x) => s + x.b, 0);
  if (!total || r.w <= 0 || r.h <= 0) return out;
  const scale = (r.w * r.h) / total;
  const rest = items.filter((x) => x.b > 0).map((x) => ({ item: x, area: x.b * scale }));
  let { x, y, w, h } = r;
  while (rest.length) {
    const side = Math.min(w, h);
    const row = [rest.shift()];
    const worst = (list) => {
      const s = list.reduce((a, e) => a + e.area, 0);
      let m = 0;
      for (const e of list) m = Math.max(m, (side * side * e.area) / (s * s), (s * s) / (side * side * e.area));
      return m;
    };
    while (rest.length && worst([...row, rest[0]]) <= worst(row)) row.push(rest.shift());
    const sum = row.reduce((a, e) => a + e.area, 0);
    const thick = sum / side;
    let at = 0;
    for (const e of row) {
      const len = e.area / thick;
      if (w >= h) out.push({ item: e.item, x, y: y + at, w: thick, h: len });
      else out.push({ item: e.item, x: x + at, y, w: len, h: thick });
      at += len;
    }
    if (w >= h) {
      x += thick;
      w -= thick;
    } else {
      y += thick;
      h -= thick;
    }
  }
  return out;
}

// Implements the overlay interface (overlay.js).
export class SizeOverlay {
  static fromPage(doc) {
    const data = readPageElement(doc, 'etviz-size');
    return data ? new SizeOverlay(data) : null;
  }

  constructor(tree) {
    this.id = 'size';
    this.tree = tree;
    this.path = [tree]; // zoomed into path[path.length - 1]
    this.rects = [];
    this.hover = null;
  }

  attach(host) {
    this.host = host;
    this.ui = dockDrawer({
      id: 'size-drawer',
      className: 'size-drawer',
      label: 'Size',
      toggleTitle: "Show or hide where the file's bytes go (b)",
      titleClass: 'size-crumbs',
      canvasLabel: 'Size treemap',
      onToggle: () => this.setOpen(!this.open),
    });
    host.dock.appendChild(this.ui.el);
    host.keys.bind('b', "show / hide where the file's bytes go (size treemap)", () => this.setOpen(!this.open));
    const canvas = this.ui.canvas;
    canvas.addEventListener('pointermove', (ev) => this.pointer(ev.offsetX, ev.offsetY));
    canvas.addEventListener('pointerleave', () => this.pointer(-1, -1));
    canvas.addEventListener('click', (ev) => this.click(ev.offsetX, ev.offsetY));
    new ResizeObserver(() => this.draw()).observe(this.ui.body);
    this.updateCrumbs();
  }

  get open() {
    return this.ui.open;
  }
  setOpen(open) {
    this.ui.setOpen(open);
    this.draw();
  }
  onGraph() {
    this.draw();
  }

  zoom(depth) {
    this.path = this.path.slice(0, Math.max(1, depth + 1));
    this.updateCrumbs();
    this.draw();
  }

  updateCrumbs() {
    const c = this.ui.title;
    c.replaceChildren();
    this.path.forEach((n, k) => {
      if (k) c.append(' › ');
      // A long name (the file's, a module path) is cut with an ellipsis; its size is not.
      const a = document.createElement('button');
      a.className = 'link crumb';
      const name = document.createElement('span');
      name.className = 'crumb-name';
      name.textContent = n.n;
      a.append(name, ` (${formatBytes(n.b)})`);
      a.title = k < this.path.length - 1 ? `${n.n}: zoom out to here` : n.n;
      a.addEventListener('click', () => this.zoom(k));
      c.appendChild(a);
    });
  }

  draw() {
    if (!this.ui || !this.open) return;
    const c = this.ui.canvas;
    const dpr = window.devicePixelRatio || 1;
    const width = this.ui.body.clientWidth,
      height = this.ui.body.clientHeight;
    if (!width || !height) return;
    c.width = Math.round(width * dpr);
    c.height = Math.round(height * dpr);
    c.style.width = `${width}px`;
    c.style.height = `${height}px`;
    const ctx = c.getContext('2d');
    const T = this.host.theme;
    const colors = T.dark ? KIND_COLORS.dark : KIND_COLORS.light;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = T.bg;
    ctx.fillRect(0, 0, width, height);
    const top = this.path[this.path.length - 1];
    const root = this.path[0];
    this.rects = [];
    // Two levels: the zoomed part's children, and inside each its own children.
    const lay = (node, r, depth) => {
      for (const p of squarify(node.c || [], r)) {
        this.rects.push({ ...p, depth });
        if (depth === 0 && p.item.c && p.w > 40 && p.h > 34)
          lay(p.item, { x: p.x + 3, y: p.y + 16, w: p.w - 6, h: p.h - 19 }, 1);
      }
    };
    lay(top.c ? top : { c: [top] }, { x: 0, y: 0, w: width, h: height }, 0);
    ctx.font = '11px system-ui, sans-serif';
    ctx.textBaseline = 'top';
    for (const r of this.rects) {
      ctx.fillStyle = colors[r.item.k] || colors.other;
      ctx.fillRect(r.x, r.y, r.w, r.h);
      ctx.strokeStyle = T.bg;
      ctx.lineWidth = r.depth ? 1 : 2;
      ctx.strokeRect(r.x, r.y, r.w, r.h);
      if (r.w > 46 && r.h > 14) {
        const share = `${((100 * r.item.b) / Math.max(root.b, 1)).toFixed(1)}%`;
        let text = `${r.item.n} · ${formatBytes(r.item.b)} · ${share}`;
        while (text.length > 4 && ctx.measureText(text).width > r.w - 6) text = `${text.slice(0, -2)}…`;
        ctx.fillStyle = T.text;
        ctx.fillText(text, r.x + 3, r.y + 2);
      }
    }
    if (this.hover) {
      ctx.strokeStyle = T.accent;
      ctx.lineWidth = 2;
      ctx.strokeRect(this.hover.x + 1, this.hover.y + 1, this.hover.w - 2, this.hover.h - 2);
    }
  }

  at(px, py) {
    let best = null;
    for (const r of this.rects) if (px >= r.x && px <= r.x + r.w && py >= r.y && py <= r.y + r.h) best = r; // deepest last
    return best;
  }

  pointer(px, py) {
    const r = px < 0 ? null : this.at(px, py);
    const tip = this.ui.tip;
    if (r !== this.hover) {
      this.hover = r;
      this.draw();
    }
    if (!r) {
      tip.hidden = true;
      return;
    }
    const root = this.path[0];
    tip.textContent =
      `${r.item.n}\n${r.item.b.toLocaleString('en-US')} bytes (${formatBytes(r.item.b)}), ` +
      `${((100 * r.item.b) / Math.max(root.b, 1)).toFixed(2)}% of the file · ${r.item.k.replace('_', ' ')}` +
      (r.item.c ? '\nclick to zoom in' : '');
    tip.hidden = false;
    const bw = this.ui.body.clientWidth,
      bh = this.ui.body.clientHeight;
    tip.style.left = `${Math.min(px + 14, bw - tip.offsetWidth - 4)}px`;
    tip.style.top = `${py + 16 + tip.offsetHeight > bh ? Math.max(py - tip.offsetHeight - 8, 0) : py + 16}px`;
  }

  // A click zooms one level: into the top-level part under the pointer, if it has parts.
  click(px, py) {
    const r = this.rects.find((x) => x.depth === 0 && px >= x.x && px <= x.x + x.w && py >= x.y && py <= x.y + x.h);
    if (!r || !r.item.c) return;
    this.path.push(r.item);
    this.hover = null;
    this.updateCrumbs();
    this.draw();
  }

  facade() {
    return {
      open: () => this.open,
      setOpen: (b) => this.setOpen(b),
      tree: () => JSON.parse(JSON.stringify(this.tree)),
      path: () => this.path.map((n) => n.n),
      rects: () =>
        this.rects.map((r) => ({
          name: r.item.n,
          kind: r.item.k,
          bytes: r.item.b,
          depth: r.depth,
          x: r.x,
          y: r.y,
          w: r.w,
          h: r.h,
        })),
      point: (name) => {
        const r = this.rects.find((x) => x.item.n === name);
        const b = this.ui.canvas.getBoundingClientRect();
        return r ? [b.left + r.x + r.w / 2, b.top + r.y + r.h / 2] : null;
      },
      tooltip: () => (this.ui.tip.hidden ? null : this.ui.tip.textContent),
    };
  }
}
