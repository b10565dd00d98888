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
// beside the stub without running over a box or a frame the source is not in; else the count
// alone, within the box's half width. Decided once per layout (the test facade reads it too).
/** @type {WeakMap<object, Map<number, string>>} */
const stubLabels = new WeakMap();
export function stubLabel(ctx, font, M, L, s, i) {
  let known = stubLabels.get(L);
  if (!known) stubLabels.set(L, (known = new Map()));
  let text = known.get(i);
  if (text !== undefined) return text;
  ctx.font = font;
  const full = M.stubText(i) || `${M.detachedOut[i]} uses`;
  const x = L.nx[i] + L.nw[i] / 2 + 3,
    y = L.ny[i] + L.nh[i] + 2,
    w = ctx.measureText(full).width,
    h = 12;
  const over = (bx, by, bw, bh) => x < bx + bw && x + w > bx && y < by + bh && y + h > by;
  const holders = new Set();
  for (let g = M.n.group[i], k = 0; g >= 0 && k <= M.groupCount; g = M.g.parent[g], k++) holders.add(g);
  let clear = true;
  for (const j of s.boxes.nodes) if (j !== i && L.nw[j] > 0 && over(L.nx[j], L.ny[j], L.nw[j], L.nh[j])) clear = false;
  for (const g of s.boxes.collapsed) if (clear && over(L.gx[g], L.gy[g], L.gw[g], L.gh[g])) clear = false;
  for (const g of s.framesByDepth)
    if (clear && !holders.has(g) && over(L.gx[g], L.gy[g], L.gw[g], L.gh[g])) clear = false;
  text = clear ? full : fitText(ctx, font, `${M.detachedOut[i]} uses`, L.nw[i] / 2 + 6);
  known.set(i, text);
  return text;
}
