import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fullRoute, junctions } from '../src/routes.js';

// Three edges from source 0 down a zigzag trunk; they leave it at different depths.
const trunk = [];
for (let k = 0; k < 10; k++) trunk.push(k % 2 ? 5 : 0, 10 * k);
const e0 = trunk.slice(0, 12).concat([40, 60]);
const e1 = trunk.slice(0, 16).concat([50, 80]);
const e2 = [100, 0, 130, 10, 100, 20]; // another source
const e3 = trunk.slice(0, 20);
const routes = [e0, e1, e2, e3];
// The compact form as src/layout/route_sharing.cpp writes it: e1 shares e0's first 6 points,
// e3 shares e1's first 8.
const share = Int32Array.from([-1, 0, -1, 1]);
const shareN = Int32Array.from([0, 6, 0, 8]);
const own = [e0, e1.slice(12), e2, e3.slice(16)];
const ptOff = new Uint32Array(routes.length + 1);
const flat = [];
own.forEach((r, i) => {
  flat.push(...r);
  ptOff[i + 1] = flat.length / 2;
});

test('routes with shared leading points reconstruct exactly', () => {
  const L = { ptOff, pts: Float64Array.from(flat), share, shareN };
  routes.forEach((r, e) => assert.deepEqual(fullRoute(L, e), r));
  const j = junctions(L);
  assert.ok(Number.isNaN(j.jx[0]));
  assert.deepEqual([j.jx[1], j.jy[1]], [5, 50]); // e1 leaves the trunk after its 6th point
});
