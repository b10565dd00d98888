// What a timeline step marks on boxes and the order the change walk takes (change_marks.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { changeKinds, groupChangeCounts, readingOrder, dataflowRank } from '../src/change_marks.js';

test('change counts: every kind, inside a box at any depth, changed before added before removed', () => {
  // Groups: 0 at the top, 1 inside 0, 2 inside 1, 3 beside 0.
  const parent = Int32Array.from([-1, 0, 1, -1]);
  const nodeGroup = Int32Array.from([-1, 0, 1, 2, 2, 3, 3, -1]);
  const step = { changed: [2, 4], added: [3, 4, 7], removed: [5, 0] };
  const kinds = changeKinds(8, step);
  assert.deepEqual(Array.from(kinds), [2, 0, 3, 1, 3, 2, 0, 1]);
  const c = groupChangeCounts(parent, nodeGroup, kinds);
  const of = (g) => [c[3 * g], c[3 * g + 1], c[3 * g + 2]];
  assert.deepEqual(of(0), [1, 0, 2], 'added, removed, changed inside 0');
  assert.deepEqual(of(1), [1, 0, 2]);
  assert.deepEqual(of(2), [1, 0, 1]);
  assert.deepEqual(of(3), [0, 1, 0]);
  // A parent chain that loops ends.
  const loop = groupChangeCounts(Int32Array.from([1, 0]), Int32Array.from([0]), Uint8Array.from([1]));
  assert.ok(loop[0] >= 1 && loop[3] >= 1);
});

test('reading order: top to bottom by the box shown, left to right, then along the edges', () => {
  // Nodes 0..4; 2 and 3 share a collapsed box at y 50; 3 feeds 2.
  const boxes = [
    { x: 0, y: 100 },
    { x: 10, y: 0 },
    { x: 5, y: 50 },
    { x: 5, y: 50 },
    { x: 0, y: 0 },
  ];
  const model = {
    nodeCount: 5,
    edgeCount: 2,
    e: { src: Int32Array.from([4, 3]), dst: Int32Array.from([3, 2]) },
    outEdges: { of: (i) => [0, 1].filter((e) => [4, 3][e] === i) },
  };
  const rank = dataflowRank(model);
  assert.deepEqual(Array.from(rank), [0, 0, 2, 1, 0]);
  assert.deepEqual(
    readingOrder([0, 1, 2, 3, 4], (i) => boxes[i], rank),
    [4, 1, 3, 2, 0],
  );
});
