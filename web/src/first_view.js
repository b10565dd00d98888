// The first view of a graph, as a pure function of the drawing, the canvas (or pane) size and
// the chrome floating over it (docs/viewer.md, "The first view"). No DOM: camera_control.js
// measures the chrome and applies the result.
//
// Gives: LABEL_PX, READABLE_PX, READABLE_SCALE; freeRects(w, h, obstacles),
// firstView({ bounds, boxes, headers, width, height, top, all, margin, fitOnly, focus }).
import { readableWindow, MIN_SCALE } from './camera.js';

// Node labels are drawn at 12 px (render.js, FONT); text is readable from 9 px on screen, so
// no first view is farther out than 9 / 12 = 75 %.
export const LABEL_PX = 12;
export const READABLE_PX = 9;
export const READABLE_SCALE = READABLE_PX / LABEL_PX;
// A fitted view never magnifies a small graph past this.
const FIT_MAX_SCALE = 1.4;
// A start view (the graph's top, readable) is never closer than 100 %.
const START_MAX_SCALE = 1;
// Free rectangles narrower or lower than this are not worth drawing in.
const MIN_FREE = 120;

// Rectangles {x, y, w, h} of a w x h canvas that meet no obstacle ({x0, y0, x1, y1}): every
// rectangle whose edges are the canvas's or obstacles' edges, so each maximal free rectangle
// is among them. A handful of obstacles gives at most a few thousand candidates.
export function freeRects(w, h, obstacles) {
  const obs = obstacles.filter((o) => o.x1 > 0 && o.y1 > 0 && o.x0 < w && o.y0 < h && o.x1 > o.x0 && o.y1 > o.y0);
  // Whole pixels, rounded away from the obstacle.
  const uniq = (a, round) => [...new Set(a.map(round))];
  const lefts = uniq([0, ...obs.map((o) => o.x1).filter((x) => x < w)], Math.ceil);
  const rights = uniq([w, ...obs.map((o) => o.x0).filter((x) => x > 0)], Math.floor);
  const tops = uniq([0, ...obs.map((o) => o.y1).filter((y) => y < h)], Math.ceil);
  const bottoms = uniq([h, ...obs.map((o) => o.y0).filter((y) => y > 0)], Math.floor);
  const out = [];
  for (const x0 of lefts)
    for (const x1 of rights) {
      if (x1 - x0 < MIN_FREE) continue;
      for (const y0 of tops)
        for (const y1 of bottoms) {
          if (y1 - y0 < MIN_FREE) continue;
          if (obs.some((o) => o.x0 < x1 && o.x1 > x0 && o.y0 < y1 && o.y1 > y0)) continue;
          out.push({ x: x0, y: y0, w: x1 - x0, h: y1 - y0 });
        }
    }
  return out.length ? out : [{ x: 0, y: 0, w, h }];
}

// The first view: { scale, x, y, whole } (the camera: screen = world * scale + (x, y)).
// `bounds`: the drawing's {x, y, w, h}; `boxes`: the labelled boxes [{x, y, w, h}] (nodes and
// collapsed groups); `headers`: expanded groups' title bars, labels too; width x height: the canvas (or one pane); `all`: obstacles of the fitted
// view (every chrome element); `top`: those of a start view (chrome along the top: the graph
// goes on below the window, under the minimap and anything else at the bottom).
//
// When the whole drawing fits (or `fitOnly`, the f key: at whatever scale) a free rectangle at READABLE_SCALE or closer, it is fitted into
// the free rectangle that shows it largest (the largest rectangle among equals), centred.
// Otherwise it starts at its top, at the scale that fits its width into the widest free
// rectangle running down to the bottom edge (between READABLE_SCALE and 100 %), in the one of
// those rectangles that puts no box or title under the top chrome (a drawing wider than the
// rectangle shows beside it too), cuts the fewest boxes and group titles at the canvas's
// sides and shows the most boxes whole on the canvas: the first rows centred when they fit
// across, else the window readableWindow picks. With a `focus` box (a diff's first change), a
// start view that would not show it begins there instead (focusIn).
export function firstView({
  bounds: b,
  boxes,
  headers = [],
  width,
  height,
  all = [],
  top = [],
  margin = 24,
  fitOnly = false,
  focus = null,
}) {
  const bw = Math.max(b.w, 1),
    bh = Math.max(b.h, 1);
  let fit = null;
  for (const r of freeRects(width, height, all)) {
    const s = Math.max(MIN_SCALE, Math.min((r.w - 2 * margin) / bw, (r.h - 2 * margin) / bh, FIT_MAX_SCALE));
    if (!fit || s > fit.s + 1e-9 || (s > fit.s - 1e-9 && r.w * r.h > fit.r.w * fit.r.h)) fit = { s, r };
  }
  if (fit.s >= READABLE_SCALE || fitOnly) {
    const { s, r } = fit;
    return {
      scale: s,
      x: r.x + (r.w - bw * s) / 2 - b.x * s,
      y: r.y + (r.h - bh * s) / 2 - b.y * s,
      whole: true,
    };
  }
  const xs = boxes.map((q) => q.x + q.w / 2).sort((p, q) => p - q);
  const median = xs.length ? xs[xs.length >> 1] : b.x + b.w / 2;
  // Start views run down to the bottom edge; one scale for all of them, as wide as the widest
  // lets the drawing be (between READABLE_SCALE and 100 %), so they differ in place only.
  const rects = freeRects(width, height, top).filter((r) => r.y + r.h >= height);
  const widest = Math.max(...rects.map((r) => r.w));
  const scale = Math.max(READABLE_SCALE, Math.min(START_MAX_SCALE, (widest - 2 * margin) / bw));
  let best = null;
  for (const r of rects) {
    const v = startIn(r, scale, b, boxes, median, height, margin);
    let shown = 0,
      covered = 0,
      cut = 0;
    const under = (x0, y0, x1, y1) => top.some((o) => o.x0 < x1 && o.x1 > x0 && o.y0 < y1 && o.y1 > y0);
    // Group titles count when covered or cut, boxes also when shown whole.
    const count = (q, isBox) => {
      const x0 = q.x * scale + v.x,
        y0 = q.y * scale + v.y,
        x1 = x0 + q.w * scale,
        y1 = y0 + q.h * scale;
      if (under(x0, y0, x1, y1)) covered++;
      else if (y0 >= 0 && y1 <= height && (x0 < 0 || x1 > width)) cut++;
      else if (isBox && x0 >= 0 && y0 >= 0 && x1 <= width && y1 <= height) shown++;
    };
    for (const q of boxes) count(q, true);
    for (const q of headers) count(q, false);
    const key = [-covered, -cut, shown, r.w * r.h];
    if (!best || better(key, best.key)) best = { key, v, r };
  }
  const start = { ...best.v, whole: false };
  return focus ? focusIn(best.r, start, focus, b, height, margin) : start;
}

// A start view that begins at `focus` (a box: a diff's first change) instead of the top: the
// start view itself when it shows the box in the upper two thirds of its rectangle r; else, at
// the same scale, the box a third of the way down r, centred across (the drawing centred when
// it fits across), never past the drawing's top or, below, its bottom.
function focusIn(r, start, focus, b, height, margin) {
  const s = start.scale;
  const fx0 = focus.x * s + start.x,
    fy0 = focus.y * s + start.y;
  const fx1 = fx0 + focus.w * s,
    fy1 = fy0 + focus.h * s;
  if (fx0 >= r.x && fx1 <= r.x + r.w && fy0 >= r.y && fy1 <= r.y + (2 * r.h) / 3) return start;
  const bw = Math.max(b.w, 1),
    bh = Math.max(b.h, 1);
  let y = r.y + Math.max(margin, r.h / 3 - (focus.h * s) / 2) - focus.y * s;
  y = Math.min(start.y, Math.max(y, height - margin - (b.y + bh) * s));
  let x = start.x;
  if (bw * s > r.w - 2 * margin) {
    x = r.x + r.w / 2 - (focus.x + focus.w / 2) * s;
    x = Math.max(r.x + r.w - margin - (b.x + bw) * s, Math.min(x, r.x + margin - b.x * s));
  }
  return { scale: s, x, y, whole: false, focus: true };
}

// Lexicographic: the first differing entry decides, larger is better.
function better(p, q) {
  for (let k = 0; k < p.length; k++) if (p[k] !== q[k]) return p[k] > q[k];
  return false;
}

// A start view in free rectangle r at scale s: the drawing's top at r's top (plus the margin).
function startIn(r, s, b, boxes, median, height, margin) {
  const bw = Math.max(b.w, 1);
  const y = r.y + margin - b.y * s;
  if (bw * s <= r.w - 2 * margin) return { scale: s, x: r.x + (r.w - bw * s) / 2 - b.x * s, y };
  // Wider than the rectangle: the boxes of the rows it shows decide. Centred when they fit;
  // otherwise the window with no box cut at its left edge and the most boxes wholly inside,
  // nearest the median box (one wide row of parameters at the top must not pull the view
  // onto empty space).
  const bottom = b.y + (height - r.y - margin) / s;
  const shown = boxes.filter((q) => q.y <= bottom);
  let lo = Infinity,
    hi = -Infinity;
  for (const q of shown) {
    lo = Math.min(lo, q.x);
    hi = Math.max(hi, q.x + q.w);
  }
  const pad = 16 / s;
  const avail = r.w / s;
  if (shown.length && hi - lo <= avail - 2 * pad) return { scale: s, x: r.x + r.w / 2 - ((lo + hi) / 2) * s, y };
  return { scale: s, x: r.x - readableWindow(shown, avail, median, pad) * s, y };
}
