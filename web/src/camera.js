// World <-> screen transform: screen = world * scale + offset.
export const MIN_SCALE = 0.02;
export const MAX_SCALE = 8;

export class Camera {
  constructor() {
    this.scale = 1;
    this.x = 0;
    this.y = 0;
  }
  toScreen(wx, wy) {
    return [wx * this.scale + this.x, wy * this.scale + this.y];
  }
  toWorld(sx, sy) {
    return [(sx - this.x) / this.scale, (sy - this.y) / this.scale];
  }
  // Zoom by `factor` keeping the world point under (sx, sy) fixed.
  zoomAt(sx, sy, factor) {
    const next = Math.min(MAX_SCALE, Math.max(MIN_SCALE, this.scale * factor));
    const [wx, wy] = this.toWorld(sx, sy);
    this.scale = next;
    this.x = sx - wx * next;
    this.y = sy - wy * next;
  }
  panBy(dx, dy) {
    this.x += dx;
    this.y += dy;
  }
  // Fit a world rectangle into a viewport with a margin; never zooms in past `maxScale`.
  fit(rect, width, height, margin = 24, maxScale = 1.5) {
    const w = Math.max(rect.w, 1);
    const h = Math.max(rect.h, 1);
    const s = Math.min((width - 2 * margin) / w, (height - 2 * margin) / h, maxScale);
    this.scale = Math.min(MAX_SCALE, Math.max(MIN_SCALE, s));
    this.x = (width - w * this.scale) / 2 - rect.x * this.scale;
    this.y = Math.max(margin, (height - h * this.scale) / 2) - rect.y * this.scale;
  }
  centerOn(wx, wy, width, height) {
    this.x = width / 2 - wx * this.scale;
    this.y = height / 2 - wy * this.scale;
  }
  // Visible world rectangle of a width x height viewport.
  viewRect(width, height) {
    const [x0, y0] = this.toWorld(0, 0);
    const [x1, y1] = this.toWorld(width, height);
    return { x0, y0, x1, y1 };
  }
}

// Shift the camera so that world point (ax, ay) after a re-layout appears where (bx, by) did
// before: keeps a clicked group under the pointer.
export function keepAnchor(camera, before, after) {
  camera.x += (before[0] - after[0]) * camera.scale;
  camera.y += (before[1] - after[1]) * camera.scale;
}

// Where a view of world width `width` should start (its left edge, world x) over boxes
// [{x, w}] that do not all fit: no box cut by the left edge when that is possible, then the
// most boxes wholly inside, then the window whose centre is nearest `prefer`. `pad` is the
// world margin left of the first box. Candidates are each box's left edge minus `pad`; a box
// is inside the windows starting in [x + w - width, x] and cut by those in (x, x + w), so
// both are counted for every candidate with a difference array: O(n log n).
export function readableWindow(boxes, width, prefer, pad = 0) {
  if (!boxes.length) return prefer - width / 2;
  const starts = boxes.map((b) => b.x - pad).sort((p, q) => p - q);
  const n = starts.length;
  // First candidate index with start >= v (or > v when `strict`).
  const lower = (v, strict) => {
    let lo = 0,
      hi = n;
    while (lo < hi) {
      const m = (lo + hi) >> 1;
      if (strict ? starts[m] <= v : starts[m] < v) lo = m + 1;
      else hi = m;
    }
    return lo;
  };
  const inside = new Int32Array(n + 1),
    cut = new Int32Array(n + 1);
  for (const b of boxes) {
    const a = lower(b.x + b.w - width, false),
      z = lower(b.x, true);
    if (a < z) {
      inside[a]++;
      inside[z]--;
    }
    const c0 = lower(b.x, true),
      c1 = lower(b.x + b.w, false);
    if (c0 < c1) {
      cut[c0]++;
      cut[c1]--;
    }
  }
  // Scores compared in order: a box cut (0 or 1), boxes inside (negated), distance.
  const better = (p, q) => (p[0] !== q[0] ? p[0] < q[0] : p[1] !== q[1] ? p[1] < q[1] : p[2] < q[2]);
  let best = -1,
    bestKey = null,
    inRun = 0,
    cutRun = 0;
  for (let k = 0; k < n; k++) {
    inRun += inside[k];
    cutRun += cut[k];
    const key = [cutRun > 0 ? 1 : 0, -inRun, Math.abs(starts[k] + width / 2 - prefer)];
    if (!bestKey || better(key, bestKey)) {
      best = k;
      bestKey = key;
    }
  }
  return starts[best];
}
