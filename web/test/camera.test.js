import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Camera, keepAnchor, readableWindow, MIN_SCALE, MAX_SCALE } from '../src/camera.js';

test('zoomAt keeps the world point under the cursor', () => {
  const c = new Camera();
  c.x = 13;
  c.y = -7;
  c.scale = 0.7;
  const before = c.toWorld(200, 150);
  c.zoomAt(200, 150, 2.5);
  const after = c.toWorld(200, 150);
  assert.ok(Math.abs(before[0] - after[0]) < 1e-9 && Math.abs(before[1] - after[1]) < 1e-9);
});

test('zoom is clamped to 0.02x .. 8x', () => {
  const c = new Camera();
  c.zoomAt(0, 0, 1e6);
  assert.equal(c.scale, MAX_SCALE);
  c.zoomAt(0, 0, 1e-9);
  assert.equal(c.scale, MIN_SCALE);
});

test('fit puts the rectangle inside the viewport', () => {
  const c = new Camera();
  c.fit({ x: 100, y: 50, w: 2000, h: 500 }, 1000, 800, 20);
  const [x0, y0] = c.toScreen(100, 50);
  const [x1, y1] = c.toScreen(2100, 550);
  assert.ok(x0 >= 19.99 && x1 <= 980.01 && y0 >= 0 && y1 <= 800);
});

test('keepAnchor maps the new anchor to the old screen position', () => {
  const c = new Camera();
  c.scale = 2;
  c.x = 10;
  c.y = 20;
  const s = c.toScreen(50, 60);
  keepAnchor(c, [50, 60], [300, -40]);
  assert.deepEqual(c.toScreen(300, -40), s);
});

// Against the definition: every start the rule may pick (a box's left edge minus the pad),
// scored by brute force.
function windowByDefinition(boxes, width, prefer, pad) {
  let best = null;
  for (const c of boxes) {
    const s = c.x - pad;
    const cut = boxes.some((b) => b.x < s && s < b.x + b.w) ? 1 : 0;
    const inside = boxes.filter((b) => b.x >= s && b.x + b.w <= s + width).length;
    const key = [cut, -inside, Math.abs(s + width / 2 - prefer)];
    if (
      !best ||
      key[0] < best.key[0] ||
      (key[0] === best.key[0] && (key[1] < best.key[1] || (key[1] === best.key[1] && key[2] < best.key[2])))
    )
      best = { s, key };
  }
  return best.s;
}

test('readableWindow cuts no box at its left edge and shows the most boxes', () => {
  // A row of four boxes wider than the view, a fifth box straddling the second's left edge one
  // row lower: the view starts at the first box, not in the middle of the fifth.
  const boxes = [
    { x: 0, w: 100 },
    { x: 150, w: 100 },
    { x: 300, w: 100 },
    { x: 450, w: 100 },
    { x: 100, w: 120 },
  ];
  assert.equal(readableWindow(boxes, 420, 275, 10), -10);
  // A view that fits three of them prefers the three nearest the preferred centre.
  assert.equal(
    readableWindow(
      [
        { x: 0, w: 50 },
        { x: 100, w: 50 },
        { x: 200, w: 50 },
        { x: 1000, w: 50 },
        { x: 1100, w: 50 },
        { x: 1200, w: 50 },
      ],
      300,
      1100,
      0,
    ),
    1000,
  );
  // One wide row of parameters and a narrow model column in its middle: the window holds the
  // column (most boxes), not the row's start.
  const params = Array.from({ length: 40 }, (_, k) => ({ x: k * 200, w: 150 }));
  const column = Array.from({ length: 12 }, () => ({ x: 4010, w: 120 }));
  const s = readableWindow([...params, ...column], 800, 4070, 0);
  assert.ok(s <= 4010 && s + 800 >= 4130, `window ${s}..${s + 800}`);
});

test('readableWindow agrees with its definition on random rows', () => {
  let seed = 7;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  for (let t = 0; t < 300; t++) {
    const boxes = Array.from({ length: 1 + Math.floor(rand() * 30) }, () => ({
      x: Math.round(rand() * 2000),
      w: 20 + Math.round(rand() * 300),
    }));
    const width = 100 + Math.round(rand() * 900),
      prefer = rand() * 2000,
      pad = Math.round(rand() * 20);
    assert.equal(
      readableWindow(boxes, width, prefer, pad),
      windowByDefinition(boxes, width, prefer, pad),
      JSON.stringify({ boxes, width, prefer, pad }),
    );
  }
});
