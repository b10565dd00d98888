import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeVisibility, visibleBoxes, ancestorsToExpand, expandToDepth } from '../src/visibility.js';

// Groups: 0 (root) > 1 > 2, and 3 at top level. Nodes: a in none, b in 0, c in 1, d in 2, e in 3.
const parent = Int32Array.from([-1, 0, 1, -1]);
const nodeGroup = Int32Array.from([-1, 0, 1, 2, 3]);

test('everything expanded: every node stands for itself, every group is a frame', () => {
  const expanded = Uint8Array.from([1, 1, 1, 1]);
  const vis = computeVisibility(parent, nodeGroup, expanded);
  assert.deepEqual([...vis.nodeRep], [-1, -1, -1, -1, -1]);
  const boxes = visibleBoxes(vis, expanded);
  assert.deepEqual([...boxes.nodes], [0, 1, 2, 3, 4]);
  assert.deepEqual([...boxes.frames], [0, 1, 2, 3]);
  assert.deepEqual([...boxes.collapsed], []);
});

test('the outermost collapsed ancestor stands for nested nodes and groups', () => {
  const expanded = Uint8Array.from([1, 0, 0, 1]);  // 1 collapsed hides 2 (also collapsed)
  const vis = computeVisibility(parent, nodeGroup, expanded);
  assert.deepEqual([...vis.nodeRep], [-1, -1, 1, 1, -1]);
  assert.deepEqual([...vis.groupHiddenBy], [-1, -1, 1, -1]);
  const boxes = visibleBoxes(vis, expanded);
  assert.deepEqual([...boxes.nodes], [0, 1, 4]);
  assert.deepEqual([...boxes.collapsed], [1]);
  assert.deepEqual([...boxes.frames], [0, 3]);
});

test('collapsing the root hides everything inside, whatever the inner state', () => {
  const expanded = Uint8Array.from([0, 1, 1, 0]);
  const vis = computeVisibility(parent, nodeGroup, expanded);
  assert.deepEqual([...vis.nodeRep], [-1, 0, 0, 0, 3]);
  const boxes = visibleBoxes(vis, expanded);
  assert.deepEqual([...boxes.collapsed], [0, 3]);
  assert.deepEqual([...boxes.frames], []);
});

test('a parent cycle does not hang and leaves nodes visible through it', () => {
  const cyclic = Int32Array.from([1, 0]);
  const vis = computeVisibility(cyclic, Int32Array.from([0, 1]), Uint8Array.from([1, 1]));
  assert.equal(vis.nodeRep.length, 2);
});

test('ancestorsToExpand lists the collapsed groups on the way up', () => {
  const expanded = Uint8Array.from([0, 1, 0, 1]);
  assert.deepEqual(ancestorsToExpand(parent, nodeGroup, expanded, 3), [2, 0]);
  assert.deepEqual(ancestorsToExpand(parent, nodeGroup, expanded, 0), []);
});

test('expandToDepth opens groups shallower than the level', () => {
  const depth = Int32Array.from([0, 1, 2, 0]);
  assert.deepEqual([...expandToDepth(depth, 0)], [0, 0, 0, 0]);
  assert.deepEqual([...expandToDepth(depth, 2)], [1, 1, 0, 1]);
  assert.deepEqual([...expandToDepth(depth, Infinity)], [1, 1, 1, 1]);
});
