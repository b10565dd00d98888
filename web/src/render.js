import { fullRoute } from './routes.js';
import { drawGroupMarks, stubLabel } from './render_marks.js';
import { fitLabel, fitText, TWO_LINE_PITCH } from './label_fit.js';

// Canvas drawing with viewport culling and level of detail: far out, boxes lose their text,
// edges lose arrowheads, and very large graphs are drawn from a pre-rendered overview bitmap.

// Tensor shapes on edges are on by default and drawn where they fit: at a zoom where their
// 10.5px text is at least ~7 screen pixels high, once per tensor, never over a box or another
// label (docs/viewer.md, "Tensor shapes on edges").
export const SHAPE_MIN_SCALE = 0.65;
const SMALL_FONT = '10.5px system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif';
const GROUP_FONT = '600 11px system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif';
// Labels written at screen size when zoomed out (map labels).
const MAP_FONT = '11px system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif';
const MAP_GROUP_FONT = '600 12px system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif';

// Rectangles already taken by labels, in a grid of `cell`-sized buckets: tryAdd() refuses a
// rectangle that overlaps one taken before. Near-linear in the number of labels.
export class Occupancy {
  constructor(cell) {
    this.cell = cell;
    this.grid = new Map();
  }
  cells(x, y, w, h, fn) {
    const c = this.cell;
    for (let gx = Math.floor(x / c); gx <= Math.floor((x + w) / c); gx++)
      for (let gy = Math.floor(y / c); gy <= Math.floor((y + h) / c); gy++)
        if (fn(`${gx},${gy}`) === false) return false;
    return true;
  }
  add(x, y, w, h) {
    const r = [x, y, w, h];
    this.cells(x, y, w, h, (k) => {
      const list = this.grid.get(k);
      if (list) list.push(r);
      else this.grid.set(k, [r]);
    });
  }
  tryAdd(x, y, w, h) {
    const free = this.cells(x, y, w, h, (k) => {
      const list = this.grid.get(k);
      return !list || list.every((r) => x >= r[0] + r[2] || x + w <= r[0] || y >= r[1] + r[3] || y + h <= r[1]);
    });
    if (free) this.add(x, y, w, h);
    return free;
  }
}

function roundRect(ctx, x, y, w, h, r) {
  r = Math.min(r, w / 2, h / 2);
  ctx.moveTo(x + r, y);
  ctx.arcTo(x + w, y, x + w, y + h, r);
  ctx.arcTo(x + w, y + h, x, y + h, r);
  ctx.arcTo(x, y + h, x, y, r);
  ctx.arcTo(x, y, x + w, y, r);
  ctx.closePath();
}

export class Renderer {
  constructor(canvas) {
    this.canvas = canvas;
    this.ctx = canvas.getContext('2d');
    this.overview = null; // { canvas, scale, key }
  }

  // Everything the frame needs comes in `s` (the app's state), so drawing has no side effects
  // beyond the canvas.
  draw(s) {
    const { ctx, canvas } = this;
    const dpr = s.dpr;
    // A pane (several side by side, overlay.js): a strip of the canvas from vx, vw wide.
    const vx = s.viewport ? s.viewport.x : 0;
    const width = s.viewport ? s.viewport.w : canvas.width / dpr;
    const height = canvas.height / dpr;
    const cam = s.camera;
    const T = s.theme;
    const L = s.layout;
    const M = s.model;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.save();
    ctx.beginPath();
    ctx.rect(vx * dpr, 0, width * dpr, canvas.height);
    ctx.clip();
    ctx.fillStyle = T.bg;
    ctx.fillRect(vx * dpr, 0, width * dpr, canvas.height);
    this.vx = vx;
    ctx.setTransform(cam.scale * dpr, 0, 0, cam.scale * dpr, (cam.x + vx) * dpr, cam.y * dpr);
    try {
      return this.drawScene(s, { dpr, width, height, cam, T, L, M });
    } finally {
      ctx.restore();
    }
  }

  drawScene(s, { dpr, width, height, cam, T, L, M }) {
    const { ctx } = this;
    const view = cam.viewRect(width, height);
    const margin = 40 / cam.scale;
    const x0 = view.x0 - margin,
      y0 = view.y0 - margin,
      x1 = view.x1 + margin,
      y1 = view.y1 + margin;
    const px = 1 / cam.scale; // one screen pixel in world units
    const lod = cam.scale < 0.3 ? 0 : cam.scale < 0.55 ? 1 : 2; // 0: boxes, 1: +labels, 2: +details
    const boxes = s.boxes;
    // What the frame drew (the test facade's frameStats() and edgeLabels()).
    /** @type {{nodes: number, edges: number, marks?: number, overview?: boolean, shapeLabels?: number, shapeTexts?: Map<number, string>}} */
    const stats = { nodes: 0, edges: 0 };

    if (s.useOverview && this.overview && boxes.nodes.length > 3000 && cam.scale * dpr <= this.overview.scale * 1.6) {
      const o = this.overview;
      ctx.imageSmoothingEnabled = true;
      ctx.drawImage(o.canvas, o.x, o.y, o.canvas.width / o.scale, o.canvas.height / o.scale);
      const marks = drawGroupMarks(ctx, s, new Occupancy(24), x0, y0, x1, y1, dpr, this.vx);
      this.drawHighlights(s, x0, y0, x1, y1, px);
      return { ...stats, marks, overview: true };
    }

    // Expanded group frames, outermost first; their titles after the edges.
    const frames = s.framesByDepth;
    const titled = [];
    const groupHidden = s.nodeStyles ? s.nodeStyles.groupHidden : null;
    for (let k = 0; k < frames.length; k++) {
      const g = frames[k];
      const x = L.gx[g],
        y = L.gy[g],
        w = L.gw[g],
        h = L.gh[g];
      if (x > x1 || y > y1 || x + w < x0 || y + h < y0) continue;
      if (groupHidden && groupHidden[g]) continue;
      ctx.beginPath();
      roundRect(ctx, x, y, w, h, 6);
      ctx.fillStyle = M.g.owner[g] >= 0 ? T.delegateFill : T.frameFill;
      ctx.fill();
      ctx.lineWidth = px;
      ctx.strokeStyle = T.frameStroke;
      ctx.stroke();
      if (lod >= 1) titled.push(g);
    }

    // QDQ cluster boxes.
    if (s.showQdq && s.qdqRects) {
      ctx.setLineDash([4 * px, 3 * px]);
      for (const r of s.qdqRects) {
        if (r.x > x1 || r.y > y1 || r.x + r.w < x0 || r.y + r.h < y0) continue;
        ctx.beginPath();
        roundRect(ctx, r.x, r.y, r.w, r.h, 8);
        ctx.fillStyle = T.qdq + '1f';
        ctx.fill();
        ctx.lineWidth = 1.3 * px;
        ctx.strokeStyle = T.qdq;
        ctx.stroke();
      }
      ctx.setLineDash([]);
    }

    // Edges.
    const E = M.e;
    const ptOff = L.ptOff,
      pts = L.pts;
    const eb = s.edgeBounds;
    ctx.lineWidth = Math.max(1.1 * px, 0.6);
    ctx.strokeStyle = T.edge;
    ctx.beginPath();
    const arrows = [];
    const highlighted = [];
    const jx = L.jx,
      jy = L.jy;
    for (let e = 0; e < M.edgeCount; e++) {
      const a = ptOff[e],
        b = ptOff[e + 1];
      const joined = !Number.isNaN(jx[e]);
      if (b - a < (joined ? 1 : 2)) continue;
      if (eb[4 * e] > x1 || eb[4 * e + 1] > y1 || eb[4 * e + 2] < x0 || eb[4 * e + 3] < y0) continue;
      if (s.edgeHidden && s.edgeHidden[e]) continue;
      if (s.edgeHighlight && s.edgeHighlight[e]) {
        highlighted.push(e);
        continue;
      }
      stats.edges++;
      if (joined) ctx.moveTo(jx[e], jy[e]);
      else ctx.moveTo(pts[2 * a], pts[2 * a + 1]);
      for (let k = joined ? a : a + 1; k < b; k++) ctx.lineTo(pts[2 * k], pts[2 * k + 1]);
      if (lod >= 1 && !E.structural[e]) arrows.push(e);
    }
    ctx.stroke();
    if (arrows.length) {
      ctx.fillStyle = T.edge;
      ctx.beginPath();
      for (const e of arrows) arrowHead(ctx, L, e, 6 * Math.max(px, 0.7));
      ctx.fill();
    }
    if (highlighted.length || (s.detachedHighlight && s.detachedHighlight.length)) {
      ctx.strokeStyle = T.accent;
      ctx.fillStyle = T.accent;
      ctx.lineWidth = Math.max(2 * px, 1);
      ctx.beginPath();
      for (const e of highlighted) {
        const r = fullRoute(L, e);
        ctx.moveTo(r[0], r[1]);
        for (let k = 2; k < r.length; k += 2) ctx.lineTo(r[k], r[k + 1]);
      }
      ctx.stroke();
      // Detached edges (not laid out): straight dashed lines while an end is selected.
      ctx.setLineDash([5 * px, 4 * px]);
      ctx.beginPath();
      for (const e of s.detachedHighlight || []) {
        const a = E.src[e],
          b = E.dst[e];
        if (L.nw[a] === 0 || L.nw[b] === 0) continue;
        ctx.moveTo(L.nx[a] + L.nw[a] / 2, L.ny[a] + L.nh[a]);
        ctx.lineTo(L.nx[b] + L.nw[b] / 2, L.ny[b]);
      }
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.beginPath();
      ctx.stroke();
      ctx.beginPath();
      for (const e of highlighted) arrowHead(ctx, L, e, 7 * Math.max(px, 0.7));
      ctx.fill();
    }

    // Group titles over the edges that enter their boxes: the layout keeps the title band free
    // of boxes, and a halo of the canvas colour keeps edges crossing the band off the letters.
    if (titled.length) {
      ctx.font = GROUP_FONT;
      ctx.textBaseline = 'middle';
      ctx.textAlign = 'left';
      ctx.lineJoin = 'round';
      ctx.lineWidth = 3 * px;
      ctx.strokeStyle = T.bg;
      ctx.fillStyle = T.muted;
      for (const g of titled) {
        const text = fitText(ctx, GROUP_FONT, `▾ ${M.groupLabel(g)}`, L.gw[g] - 12);
        const tx = L.gx[g] + 6,
          ty = L.gy[g] + M.frameHeader / 2 + 1;
        ctx.strokeText(text, tx, ty);
        ctx.fillText(text, tx, ty);
      }
    }

    // Collapsed groups.
    for (let k = 0; k < boxes.collapsed.length; k++) {
      const g = boxes.collapsed[k];
      const x = L.gx[g],
        y = L.gy[g],
        w = L.gw[g],
        h = L.gh[g];
      if (x > x1 || y > y1 || x + w < x0 || y + h < y0) continue;
      if (groupHidden && groupHidden[g]) continue;
      ctx.beginPath();
      roundRect(ctx, x + 3, y + 3, w, h, 5); // a second sheet: "there is more inside"
      ctx.fillStyle = T.collapsedStroke;
      ctx.fill();
      ctx.beginPath();
      roundRect(ctx, x, y, w, h, 5);
      const owner = M.g.owner[g];
      // A collapsed payload shows its call node's colours (its heat when a profile is shown).
      const ownerStyle =
        owner < 0 ? null : s.nodeStyles ? s.nodeStyles.styles[s.nodeStyles.bucket[owner]] : T.cats[M.n.cat[owner]];
      ctx.fillStyle = ownerStyle ? ownerStyle.fill : T.collapsedFill;
      ctx.fill();
      ctx.lineWidth = (s.selectedGroup === g ? 2.5 : 1) * px;
      ctx.strokeStyle = s.selectedGroup === g ? T.accent : ownerStyle ? ownerStyle.stroke : T.collapsedStroke;
      ctx.stroke();
      if (lod >= 1) {
        ctx.font = GROUP_FONT;
        ctx.fillStyle = T.text;
        ctx.textBaseline = 'middle';
        ctx.textAlign = 'left';
        const count = M.groupBadge(g);
        const cw = ctx.measureText(count).width;
        ctx.fillText(fitText(ctx, GROUP_FONT, `▸ ${M.groupLabel(g)}`, w - cw - 26), x + 8, y + h / 2);
        ctx.fillStyle = T.muted;
        ctx.textAlign = 'right';
        ctx.fillText(count, x + w - 8, y + h / 2);
      }
    }

    // Nodes.
    const nx = L.nx,
      ny = L.ny,
      nw = L.nw,
      nh = L.nh;
    const cat = M.n.cat;
    const faded = s.catHidden;
    const list = boxes.nodes;
    // An overlay (overlay.js) may colour nodes instead of their categories: a style per node.
    const heat = s.nodeStyles;
    const styles = heat ? heat.styles : T.cats;
    const byCat = styles.map(() => []);
    for (let k = 0; k < list.length; k++) {
      const i = list[k];
      const x = nx[i],
        y = ny[i];
      if (x > x1 || y > y1 || x + nw[i] < x0 || y + nh[i] < y0) continue;
      byCat[heat ? heat.bucket[i] : cat[i]].push(i);
    }
    const labelOf = (i) => (s.labels && s.labels.has(i) ? s.labels.get(i) : M.nodeLabel(i));
    for (let c = 0; c < byCat.length; c++) {
      const ids = byCat[c];
      const style = styles[c];
      if (!ids.length || style.hidden) continue;
      stats.nodes += ids.length;
      // A ghost: a node the overlay shows where it was (removed since the step before).
      ctx.setLineDash(style.ghost ? [4 * px, 3 * px] : []);
      ctx.globalAlpha = style.ghost ? 0.55 : !heat && faded[c] ? 0.18 : 1;
      if (lod === 0) {
        ctx.fillStyle = style.stroke;
        ctx.beginPath();
        for (const i of ids) ctx.rect(nx[i], ny[i], nw[i], nh[i]);
        ctx.fill();
        continue;
      }
      ctx.beginPath();
      for (const i of ids) roundRect(ctx, nx[i], ny[i], nw[i], nh[i], 4);
      ctx.fillStyle = style.fill;
      ctx.fill();
      ctx.lineWidth = px;
      ctx.strokeStyle = style.stroke;
      ctx.stroke();
      ctx.fillStyle = style.strip;
      ctx.beginPath();
      for (const i of ids) ctx.rect(nx[i], ny[i] + 3, 3.5, nh[i] - 6);
      ctx.fill();
      ctx.fillStyle = style.text || T.text;
      ctx.textBaseline = 'middle';
      ctx.textAlign = 'center';
      // One line, or two for a long label (label_fit.js).
      for (const i of ids) {
        const { lines, font } = fitLabel(ctx, labelOf(i), nw[i] - 14);
        ctx.font = font;
        const cx = nx[i] + nw[i] / 2 + 1.5;
        const cy = ny[i] + nh[i] / 2 + 0.5 - ((lines.length - 1) * TWO_LINE_PITCH) / 2;
        for (let k = 0; k < lines.length; k++) ctx.fillText(lines[k], cx, cy + k * TWO_LINE_PITCH);
      }
    }
    ctx.globalAlpha = 1;
    ctx.setLineDash([]);

    // Broadcast sources whose many uses are not drawn: a stub, the count and where they go.
    if (lod >= 1) {
      ctx.font = SMALL_FONT;
      ctx.textAlign = 'left';
      ctx.textBaseline = 'middle';
      for (const i of M.detachedNodes) {
        if (nw[i] === 0 || nx[i] > x1 || ny[i] > y1 || nx[i] + nw[i] < x0 || ny[i] + nh[i] + 16 < y0) continue;
        const cx = nx[i] + nw[i] / 2,
          by = ny[i] + nh[i];
        ctx.strokeStyle = T.edge;
        ctx.lineWidth = px;
        ctx.setLineDash([3 * px, 2 * px]);
        ctx.beginPath();
        ctx.moveTo(cx, by);
        ctx.lineTo(cx, by + 12);
        ctx.stroke();
        ctx.setLineDash([]);
        ctx.fillStyle = T.muted;
        ctx.textAlign = 'left';
        ctx.fillText(stubLabel(ctx, SMALL_FONT, M, L, s, i), cx + 3, by + 8);
      }
    }

    // Edge labels: tensor shapes. One label per value (the edges of a fan-out carry the same
    // tensor and would stack their labels on the shared trunk), none over another label or a
    // box.
    if (s.showShapes && cam.scale >= SHAPE_MIN_SCALE) {
      ctx.font = SMALL_FONT;
      ctx.textBaseline = 'middle';
      ctx.textAlign = 'left';
      const taken = new Occupancy(16 / cam.scale);
      for (const i of list)
        if (nx[i] <= x1 && ny[i] <= y1 && nx[i] + nw[i] >= x0 && ny[i] + nh[i] >= y0)
          taken.add(nx[i], ny[i], nw[i], nh[i]);
      // Collapsed boxes and the title bars of open ones are text too: no label over them.
      // (Clipped to the view: a frame can be far wider than the screen.)
      const block = (x, y, w, h) => {
        const ax = Math.max(x, x0),
          ay = Math.max(y, y0),
          bx = Math.min(x + w, x1),
          by = Math.min(y + h, y1);
        if (ax <= bx && ay <= by) taken.add(ax, ay, bx - ax, by - ay);
      };
      for (const g of boxes.collapsed) block(L.gx[g], L.gy[g], L.gw[g], L.gh[g]);
      for (const g of s.framesByDepth) block(L.gx[g], L.gy[g], L.gw[g], M.frameHeader);
      const labelled = new Map(); // value -> the text written on its edge
      for (let e = 0; e < M.edgeCount; e++) {
        const v = E.val[e];
        if (v < 0 || ptOff[e + 1] - ptOff[e] < 1 || labelled.has(v)) continue;
        const lx = L.lx[e],
          ly = L.ly[e];
        if (lx > x1 || ly > y1 || lx < x0 || ly < y0) continue;
        // A timeline step's own tensor where it differs from the union graph's (overlay.js).
        const text = s.valueLabels && s.valueLabels.has(v) ? s.valueLabels.get(v) : M.valueShort(v);
        if (!text) continue;
        const tw = ctx.measureText(text).width;
        if (!taken.tryAdd(lx + 3, ly - 6.5, tw + 4, 13)) continue;
        labelled.set(v, text);
        ctx.fillStyle = T.labelBg;
        ctx.fillRect(lx + 3, ly - 6.5, tw + 4, 13);
        ctx.fillStyle = T.muted;
        ctx.fillText(text, lx + 5, ly);
      }
      stats.shapeLabels = labelled.size;
      stats.shapeTexts = labelled;
    }
    // Badges on collapsed boxes (what changed inside), at screen size. Far out, a map's labels:
    // box text is too small to draw, so group titles and the names of boxes wide enough on
    // screen are written at a readable screen size, larger boxes first, never over each other
    // nor over a badge (one set of taken screen rectangles, badges first).
    const taken = new Occupancy(24);
    stats.marks = drawGroupMarks(ctx, s, taken, x0, y0, x1, y1, dpr, this.vx);
    if (lod === 0) this.drawMapLabels(s, x0, y0, x1, y1, dpr, taken);
    this.drawHighlights(s, x0, y0, x1, y1, px);
    return stats;
  }

  drawMapLabels(s, x0, y0, x1, y1, dpr, taken) {
    const { ctx } = this;
    const cam = s.camera;
    const L = s.layout;
    const M = s.model;
    const T = s.theme;
    const candidates = [];
    const onScreen = (x, y, w, h) => x <= x1 && y <= y1 && x + w >= x0 && y + h >= y0;
    const gh = s.nodeStyles ? s.nodeStyles.groupHidden : null;
    for (const g of s.boxes.collapsed)
      if (!(gh && gh[g]) && onScreen(L.gx[g], L.gy[g], L.gw[g], L.gh[g]))
        candidates.push({
          x: L.gx[g],
          y: L.gy[g],
          w: L.gw[g],
          h: L.gh[g],
          text: M.groupLabel(g),
          group: true,
          top: false,
        });
    for (const g of s.framesByDepth)
      if (!(gh && gh[g]) && onScreen(L.gx[g], L.gy[g], L.gw[g], L.gh[g]))
        candidates.push({
          x: L.gx[g],
          y: L.gy[g],
          w: L.gw[g],
          h: L.gh[g],
          text: M.groupLabel(g),
          group: true,
          top: true,
        });
    // Node names only when few enough to read (a map shows towns, not houses).
    const nodes = s.boxes.nodes;
    let shown = 0;
    for (const i of nodes) if (onScreen(L.nx[i], L.ny[i], L.nw[i], L.nh[i])) shown++;
    const hidden = (i) => s.nodeStyles && s.nodeStyles.styles[s.nodeStyles.bucket[i]].hidden;
    if (shown <= 600)
      for (const i of nodes)
        if (!hidden(i) && onScreen(L.nx[i], L.ny[i], L.nw[i], L.nh[i]))
          candidates.push({
            x: L.nx[i],
            y: L.ny[i],
            w: L.nw[i],
            h: L.nh[i],
            text: s.labels && s.labels.has(i) ? s.labels.get(i) : M.nodeLabel(i),
            group: false,
            top: false,
          });
    candidates.sort((a, b) => Number(b.group) - Number(a.group) || b.w * b.h - a.w * a.h);
    ctx.setTransform(dpr, 0, 0, dpr, this.vx * dpr, 0);
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'center';
    for (const c of candidates) {
      const [sx, sy] = cam.toScreen(c.x, c.y);
      const sw = c.w * cam.scale,
        sh = c.h * cam.scale;
      if (sw < 28) continue;
      const font = c.group ? MAP_GROUP_FONT : MAP_FONT;
      ctx.font = font;
      const text = fitText(ctx, font, c.text, Math.max(sw, c.group ? 160 : 0));
      if (!text) continue;
      const tw = ctx.measureText(text).width;
      const cx = sx + sw / 2;
      const cy = c.top ? sy + 9 : sy + sh / 2;
      if (!taken.tryAdd(cx - tw / 2 - 3, cy - 8, tw + 6, 16)) continue;
      ctx.fillStyle = T.labelBg;
      ctx.fillRect(cx - tw / 2 - 3, cy - 8, tw + 6, 16);
      ctx.fillStyle = c.group ? T.muted : T.text;
      ctx.fillText(text, cx, cy + 0.5);
    }
    ctx.setTransform(cam.scale * dpr, 0, 0, cam.scale * dpr, (cam.x + this.vx) * dpr, cam.y * dpr);
  }

  // Selection and search matches on top of everything, at any level of detail.
  drawHighlights(s, x0, y0, x1, y1, px) {
    const { ctx } = this;
    const L = s.layout;
    const T = s.theme;
    const mark = (i, color, width) => {
      const x = L.nx[i],
        y = L.ny[i],
        w = L.nw[i],
        h = L.nh[i];
      if (w === 0 || x > x1 || y > y1 || x + w < x0 || y + h < y0) return;
      const grow = Math.max(2 * px, 0);
      ctx.beginPath();
      roundRect(ctx, x - grow, y - grow, w + 2 * grow, h + 2 * grow, 5);
      ctx.lineWidth = width * px;
      ctx.strokeStyle = color;
      ctx.stroke();
    };
    if (s.matches) for (const i of s.matches) mark(i, T.match, 2.5);
    if (s.selectedNode >= 0) mark(s.selectedNode, T.accent, 3);
  }

  // A bitmap of the whole drawing without text, for frames zoomed far out on huge graphs.
  buildOverview(s, maxSide = 4096) {
    const L = s.layout;
    const b = s.bounds;
    const scale = Math.min(maxSide / Math.max(b.w, 1), maxSide / Math.max(b.h, 1), 0.25);
    const c = document.createElement('canvas');
    c.width = Math.max(1, Math.ceil(b.w * scale));
    c.height = Math.max(1, Math.ceil(b.h * scale));
    const ctx = c.getContext('2d');
    ctx.fillStyle = s.theme.bg;
    ctx.fillRect(0, 0, c.width, c.height);
    ctx.setTransform(scale, 0, 0, scale, -b.x * scale, -b.y * scale);
    const T = s.theme;
    for (const g of s.framesByDepth) {
      ctx.fillStyle = T.frameFill;
      ctx.fillRect(L.gx[g], L.gy[g], L.gw[g], L.gh[g]);
    }
    ctx.strokeStyle = T.edge;
    ctx.lineWidth = 1 / scale;
    ctx.beginPath();
    const M = s.model;
    for (let e = 0; e < M.edgeCount; e++) {
      const a = L.ptOff[e],
        z = L.ptOff[e + 1];
      const joined = !Number.isNaN(L.jx[e]);
      if (z - a < (joined ? 1 : 2) || (s.edgeHidden && s.edgeHidden[e])) continue;
      if (joined) ctx.moveTo(L.jx[e], L.jy[e]);
      else ctx.moveTo(L.pts[2 * a], L.pts[2 * a + 1]);
      for (let k = joined ? a : a + 1; k < z; k++) ctx.lineTo(L.pts[2 * k], L.pts[2 * k + 1]);
    }
    ctx.stroke();
    for (const g of s.boxes.collapsed) {
      ctx.fillStyle = T.collapsedStroke;
      ctx.fillRect(L.gx[g], L.gy[g], L.gw[g], L.gh[g]);
    }
    const styles = s.nodeStyles ? s.nodeStyles.styles : T.cats;
    const byCat = styles.map(() => []);
    for (const i of s.boxes.nodes) byCat[s.nodeStyles ? s.nodeStyles.bucket[i] : M.n.cat[i]].push(i);
    byCat.forEach((ids, c) => {
      if (styles[c].hidden) return;
      ctx.globalAlpha = !s.nodeStyles && s.catHidden[c] ? 0.18 : 1;
      ctx.fillStyle = styles[c].stroke;
      ctx.beginPath();
      for (const i of ids) ctx.rect(L.nx[i], L.ny[i], L.nw[i], L.nh[i]);
      ctx.fill();
    });
    this.overview = { canvas: c, scale, x: b.x, y: b.y };
    return this.overview;
  }
}

function arrowHead(ctx, L, e, size) {
  const pts = L.pts;
  const k = L.ptOff[e + 1] - 1;
  const x = pts[2 * k],
    y = pts[2 * k + 1];
  const first = k === L.ptOff[e];
  let dx = x - (first ? L.jx[e] : pts[2 * k - 2]),
    dy = y - (first ? L.jy[e] : pts[2 * k - 1]);
  const len = Math.hypot(dx, dy) || 1;
  dx /= len;
  dy /= len;
  ctx.moveTo(x, y);
  ctx.lineTo(x - dx * size - dy * size * 0.45, y - dy * size + dx * size * 0.45);
  ctx.lineTo(x - dx * size + dy * size * 0.45, y - dy * size - dx * size * 0.45);
  ctx.closePath();
}
