// Badges on collapsed boxes: an overlay's groupMarks (overlay.js; a timeline step's `+12 −3 ~5`,
// change_marks.js), drawn at screen size whatever the zoom, so a folded box that holds changes
// is marked from far out as from close up. A badge is a pill on the box's top edge, at its right
// end, each count in its kind's colour; badges never cover one another nor the map's labels
// (`taken`, an Occupancy of screen rectangles the map labels use after them) and are drawn over
// everything but the selection.

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
