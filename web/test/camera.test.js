import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Camera, keepAnchor, MIN_SCALE, MAX_SCALE } from '../src/camera.js';

test('zoomAt keeps the world point under the cursor', () => {
  const c = new Camera();
  c.x = 13; c.y = -7; c.scale = 0.7;
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
  c.scale = 2; c.x = 10; c.y = 20;
  const s = c.toScreen(50, 60);
  keepAnchor(c, [50, 60], [300, -40]);
  assert.deepEqual(c.toScreen(300, -40), s);
});
