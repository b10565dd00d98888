import { test } from 'node:test';
import assert from 'node:assert/strict';
import { firstView, freeRects, READABLE_SCALE } from '../src/first_view.js';

const overlaps = (a, o) => a.x0 < o.x1 && a.x1 > o.x0 && a.y0 < o.y1 && a.y1 > o.y0;
const onScreen = (v, q) => ({
  x0: q.x * v.scale + v.x,
  y0: q.y * v.scale + v.y,
  x1: (q.x + q.w) * v.scale + v.x,
  y1: (q.y + q.h) * v.scale + v.y,
});
// A grid of cols x rows boxes 100 x 30, 40 apart.
const grid = (cols, rows) => {
  const boxes = [];
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) boxes.push({ x: c * 140, y: r * 70, w: 100, h: 30 });
  return { boxes, bounds: { x: 0, y: 0, w: cols * 140 - 40, h: rows * 70 - 40 } };
};

test('freeRects: the whole canvas without obstacles, none meeting an obstacle with them', () => {
  assert.deepEqual(freeRects(800, 600, []), [{ x: 0, y: 0, w: 800, h: 600 }]);
  const legend = { x0: 0, y0: 0, x1: 200, y1: 300 };
  const rects = freeRects(800, 600, [legend]);
  assert.ok(rects.length >= 2);
  for (const r of rects) assert.ok(!overlaps({ x0: r.x, y0: r.y, x1: r.x + r.w, y1: r.y + r.h }, legend));
  assert.ok(rects.some((r) => r.x === 200 && r.w === 600 && r.h === 600));
  assert.ok(rects.some((r) => r.y === 300 && r.w === 800 && r.h === 300));
  // Fractional edges (measured CSS boxes) round away from the obstacle.
  const frac = freeRects(800, 600, [{ x0: 6, y0: 6, x1: 234.06, y1: 176.2 }]);
  assert.ok(frac.some((r) => r.x === 235 && r.h === 600));
  assert.ok(frac.some((r) => r.y === 177 && r.w === 800));
});

test('a small graph is fitted whole in the free area, clear of the chrome', () => {
  const { boxes, bounds } = grid(3, 4);
  const legend = { x0: 0, y0: 0, x1: 200, y1: 300 };
  const bar = { x0: 500, y0: 0, x1: 800, y1: 40 };
  const v = firstView({ bounds, boxes, width: 800, height: 600, all: [legend, bar], top: [legend, bar] });
  assert.equal(v.whole, true);
  assert.ok(v.scale >= READABLE_SCALE);
  for (const q of boxes) {
    const s = onScreen(v, q);
    assert.ok(!overlaps(s, legend) && !overlaps(s, bar), JSON.stringify(s));
    assert.ok(s.x0 >= 0 && s.y0 >= 0 && s.x1 <= 800 && s.y1 <= 600);
  }
});

test('a graph too large to read whole starts at its top, readable, clear of the top chrome', () => {
  const { boxes, bounds } = grid(4, 200);
  const legend = { x0: 0, y0: 0, x1: 200, y1: 300 };
  const titles = { x0: 300, y0: 560, x1: 500, y1: 590 };
  const v = firstView({ bounds, boxes, width: 800, height: 600, all: [legend, titles], top: [legend] });
  assert.equal(v.whole, false);
  assert.ok(v.scale >= READABLE_SCALE && v.scale <= 1);
  // The top row is on screen, below the top edge; no box under the legend.
  assert.ok(boxes.slice(0, 4).every((q) => onScreen(v, q).y0 >= 0 && onScreen(v, q).y0 < 100));
  for (const q of boxes) assert.ok(!overlaps(onScreen(v, q), legend));
  // The same input, the same view.
  assert.deepEqual(firstView({ bounds, boxes, width: 800, height: 600, all: [legend, titles], top: [legend] }), v);
});

test('a graph wider than the canvas at the readable zoom starts with no box cut at the left', () => {
  const { boxes, bounds } = grid(40, 3);
  const v = firstView({ bounds, boxes, width: 800, height: 600 });
  assert.equal(v.whole, false);
  assert.equal(v.scale, READABLE_SCALE);
  for (const q of boxes) {
    const s = onScreen(v, q);
    assert.ok(!(s.x0 < 0 && s.x1 > 0), 'cut at the left edge');
  }
});

test('fitOnly fits the whole drawing at any scale', () => {
  const { boxes, bounds } = grid(40, 3);
  const v = firstView({ bounds, boxes, width: 800, height: 600, fitOnly: true });
  assert.equal(v.whole, true);
  assert.ok(v.scale < READABLE_SCALE);
  assert.ok(onScreen(v, boxes.at(-1)).x1 <= 800);
});

test('a focus (a diff first change) far down: the start view begins there, readable, clear of the chrome', () => {
  const { boxes, bounds } = grid(3, 60);
  const bar = { x0: 500, y0: 0, x1: 800, y1: 40 };
  const top = firstView({ bounds, boxes, width: 800, height: 600, all: [bar], top: [bar] });
  assert.equal(top.whole, false);
  const focus = boxes[3 * 40 + 1];
  const v = firstView({ bounds, boxes, width: 800, height: 600, all: [bar], top: [bar], focus });
  assert.equal(v.focus, true);
  assert.equal(v.scale, top.scale, 'the start view scale');
  const f = onScreen(v, focus);
  assert.ok(f.x0 >= 0 && f.x1 <= 800 && f.y0 >= 0 && f.y1 <= 600 * 0.7, JSON.stringify(f));
  assert.ok(!overlaps(f, bar));
  // A focus the start view shows anyway keeps the start view (the graph's top on screen).
  const near = firstView({ bounds, boxes, width: 800, height: 600, all: [bar], top: [bar], focus: boxes[4] });
  assert.deepEqual(near, top);
  // A focus at the very bottom does not scroll past the drawing's end.
  const last = boxes[boxes.length - 1];
  const b = firstView({ bounds, boxes, width: 800, height: 600, all: [bar], top: [bar], focus: last });
  assert.ok((bounds.y + bounds.h) * b.scale + b.y >= 600 - 24 - 1e-6);
  assert.ok(onScreen(b, last).y1 <= 600);
});
