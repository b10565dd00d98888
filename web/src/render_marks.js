// Badges on collapsed boxes: an overlay's groupMarks (overlay.js; a timeline step's `+12 −3 ~5`,
// change_marks.js), drawn at screen size whatever the zoom, so a folded box that holds changes
// is marked from far out as from close up. A badge is a pill on the box's top edge, at its right
// end, each count in its kind's colour; badges never cover one another nor the map's labels
// (`taken`, an Occupancy of screen rectangles the map labels use after them) and are drawn over
// everything but the selection. And what a broadcast source's stub writes (stubLabel).

import { fitText } from './label_fit.js';

const BADGE_FONT = '700 11px system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif';
const BADGE_H = 15;
const PAD = 5;
const GAP = 5;

// s: the frame's state (render.js); x0..y1: the world rectangle drawn; vx: the pane's left edge.
// Returns how many badges were drawn.
export function drawGroupMarks(ctx, s, taken, x0, y0, x1, y1, dpr, vx) {
  const marks = s.nodeStyles && s.nodeStyles.groupMarks;
  if (!marks) return 0;
  const L = s.layout;
  const T = s.theme;
  const cam = s.camera;
  const hidden = s.nodeStyles.groupHidden;
  ctx.save();
  ctx.setTransform(dpr, 0, 0, dpr, vx * dpr, 0);
  ctx.font = BADGE_FONT;
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'left';
  let drawn = 0;
  for (const g of s.boxes.collapsed) {
    const parts = marks.parts[g];
    if (!parts || (hidden && hidden[g])) continue;
    const x = L.gx[g],
      y = L.gy[g],
      w = L.gw[g],
      h = L.gh[g];
    if (x > x1 || y > y1 || x + w < x0 || y + h < y0) continue;
    const widths = parts.map((p) => ctx.measureText(p.text).width);
    const bw = widths.reduce((a, b) => a + b, 0) + GAP * (parts.length - 1) + 2 * PAD;
    const [sx, sy] = cam.toScreen(x, y);
    const sw = w * cam.scale;
    // At the box's right end, on its top edge; a box narrower than the badge gets it from its
    // left edge.
    const bx = Math.round(sw >= bw + 12 ? sx + sw - bw - 6 : sx);
    const by = Math.round(sy - BADGE_H / 2);
    if (!taken.tryAdd(bx - 0.5, by - 0.5, bw + 1, BADGE_H + 1)) continue;
    ctx.beginPath();
    ctx.roundRect(bx, by, bw, BADGE_H, BADGE_H / 2);
    ctx.fillStyle = T.bg;
    ctx.fill();
    ctx.lineWidth = 1.25;
    ctx.strokeStyle = parts[0].color;
    ctx.stroke();
    let tx = bx + PAD;
    parts.forEach((p, k) => {
      ctx.fillStyle = p.color;
      ctx.fillText(p.text, tx, by + BADGE_H / 2 + 0.5);
      tx += widths[k] + GAP;
    });
    drawn++;
  }
  ctx.restore();
  return drawn;
}

// What a stub writes: how many uses and where they go (the view model's text) where that fits
// beside the stub without running over a box, a frame the source is not in, or another stub's
// text (each stub writes at least its count); else the count alone, within the box's half width. Decided for every stub of a layout
// at once, in node order (pictures: src/render/export/scene.cpp, the same rule).
/** @type {WeakMap<object, Map<number, string>>} */
const stubLabels = new WeakMap();
export function stubLabel(ctx, font, M, L, s, i) {
  let known = stubLabels.get(L);
  if (!known) {
    known = new Map();
    stubLabels.set(L, known);
    ctx.font = font;
    // Every stub writes at least its count; a longer text goes around those and the longer
    // texts placed before it.
    const short = (j) => fitText(ctx, font, `${M.detachedOut[j]} uses`, L.nw[j] / 2 + 6);
    /** @type {Map<number, number[]>} */
    const counts = new Map();
    for (const j of M.detachedNodes)
      if (L.nw[j] > 0)
        counts.set(j, [L.nx[j] + L.nw[j] / 2 + 3, L.ny[j] + L.nh[j] + 2, ctx.measureText(short(j)).width, 12]);
    /** @type {number[][]} */
    const taken = [];
    for (const j of M.detachedNodes) {
      if (L.nw[j] === 0) continue;
      const full = M.stubText(j) || `${M.detachedOut[j]} uses`;
      const x = L.nx[j] + L.nw[j] / 2 + 3,
        y = L.ny[j] + L.nh[j] + 2,
        w = ctx.measureText(full).width,
        h = 12;
      const over = (bx, by, bw, bh) => x < bx + bw && x + w > bx && y < by + bh && y + h > by;
      const holders = new Set();
      for (let g = M.n.group[j], k = 0; g >= 0 && k <= M.groupCount; g = M.g.parent[g], k++) holders.add(g);
      let clear = taken.every((r) => !over(r[0], r[1], r[2], r[3]));
      for (const [k, r] of counts) if (clear && k !== j && over(r[0], r[1], r[2], r[3])) clear = false;
      for (const n of s.boxes.nodes)
        if (clear && n !== j && L.nw[n] > 0 && over(L.nx[n], L.ny[n], L.nw[n], L.nh[n])) clear = false;
      for (const g of s.boxes.collapsed) if (clear && over(L.gx[g], L.gy[g], L.gw[g], L.gh[g])) clear = false;
      for (const g of s.framesByDepth)
        if (clear && !holders.has(g) && over(L.gx[g], L.gy[g], L.gw[g], L.gh[g])) clear = false;
      const text = clear ? full : short(j);
      if (clear) taken.push([x, y, w, h]);
      known.set(j, text);
    }
  }
  return known.get(i) ?? '';
}
