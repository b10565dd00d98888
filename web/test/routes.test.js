import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compactRoutes, fullRoute, junctions } from '../src/routes.js';

// Three edges from source 0 down a zigzag trunk; they leave it at different depths.
const trunk = [];
for (let k = 0; k < 10; k++) trunk.push(k % 2 ? 5 : 0, 10 * k);
const e0 = trunk.slice(0, 12).concat([40, 60]);
const e1 = trunk.slice(0, 16).concat([50, 80]);
const e2 = [100, 0, 130, 10, 100, 20];  // another source
const e3 = trunk.slice(0, 20);
const routes = [e0, e1, e2, e3];
const src = Int32Array.from([0, 0, 1, 0]);
const ptOff = new Uint32Array(routes.length + 1);
const flat = [];
routes.forEach((r, i) => { flat.push(...r); ptOff[i + 1] = flat.length / 2; });

test('shared leading points are stored once and routes reconstruct exactly', () => {
  const L = compactRoutes(src, ptOff, Float64Array.from(flat));
  assert.ok(L.pts.length < flat.length, 'compact');
  assert.equal(L.share[0], -1);
  assert.equal(L.share[1], 0);
  assert.equal(L.share[2], -1);
  assert.ok(L.share[3] === 0 || L.share[3] === 1);
  routes.forEach((r, e) => assert.deepEqual(fullRoute(L, e), r));
  const j = junctions(L);
  assert.ok(Number.isNaN(j.jx[0]));
  assert.deepEqual([j.jx[1], j.jy[1]], [5, 50]);  // e1 leaves the trunk after its 6th point
});

