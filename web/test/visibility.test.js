import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  computeVisibility,
  visibleBoxes,
  ancestorsToExpand,
  nodesInside,
  flattenHierarchy,
  hierarchyLevels,
  shownLevel,
  expandToLevel,
} from '../src/visibility.js';

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
  const expanded = Uint8Array.from([1, 0, 0, 1]); // 1 collapsed hides 2 (also collapsed)
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

// A model-shaped hierarchy: 0 model (module) > 1 layers ×2 (repeat) > 2 layers.0, 3 layers.1
// (modules) > 4 attn (module in 2) > 5 linear ·q (QDQ cluster in 4); 6 XnnpackBackend
// (delegate in 3); 7 "12 inputs" (other, top level).
const kinds = ['module', 'repeat', 'module', 'module', 'module', 'qdq_cluster', 'delegate', 'other'];
const mParent = Int32Array.from([-1, 0, 1, 1, 2, 4, 3, -1]);
// Nodes: 0 top, 1 in model, 2 in layers.0, 3 in attn, 4 in the cluster, 5 in the delegate, 6 input.
const mGroup = Int32Array.from([-1, 0, 2, 4, 5, 6, 7]);
const unflat = { depth: Int32Array.from([0, 1, 2, 2, 3, 4, 3, 0]), dissolved: null };
const dissolve = Uint8Array.from(kinds.map((k) => (k === 'module' || k === 'repeat' ? 1 : 0)));

test('flattenHierarchy dissolves module boxes; what they held moves to the nearest kept group', () => {
  const h = flattenHierarchy(mParent, mGroup, dissolve);
  assert.deepEqual([...h.groups], [5, 6, 7], 'kept: the QDQ cluster, the delegate, the inputs fold');
  assert.deepEqual([...h.index], [-1, -1, -1, -1, -1, 0, 1, 2]);
  assert.deepEqual(
    [...h.parent].filter((_, g) => !h.dissolved[g]),
    [-1, -1, -1],
    'kept groups now sit at the top level',
  );
  assert.deepEqual([...h.nodeGroup], [-1, -1, -1, -1, 5, 6, 7], 'module members are top-level nodes');
  assert.deepEqual(
    [...h.depth].filter((_, g) => !h.dissolved[g]),
    [0, 0, 0],
  );
  const expanded = Uint8Array.from([1, 1, 1, 1, 1, 0, 1, 0]);
  const vis = computeVisibility(h.parent, h.nodeGroup, expanded);
  const boxes = visibleBoxes(vis, expanded, h.dissolved);
  assert.deepEqual([...boxes.frames], [6], 'no dissolved group is drawn');
  assert.deepEqual([...boxes.collapsed], [5, 7]);
  assert.deepEqual([...boxes.nodes], [0, 1, 2, 3, 5]);
});

test('flattenHierarchy keeps a kept group under a kept group across dissolved ones', () => {
  // Partition 1 inside module 0, QDQ cluster 2 inside module 3 inside partition 1.
  const h = flattenHierarchy(Int32Array.from([-1, 0, 3, 1]), Int32Array.from([2, 3, 0]), Uint8Array.from([1, 0, 0, 1]));
  assert.equal(h.parent[2], 1);
  assert.equal(h.depth[2], 1);
  assert.deepEqual([...h.nodeGroup], [2, 1, -1]);
  // A parent cycle of dissolved groups ends at the top level instead of hanging.
  const c = flattenHierarchy(Int32Array.from([1, 0]), Int32Array.from([0]), Uint8Array.from([1, 1]));
  assert.deepEqual([...c.nodeGroup], [-1]);
});

test('the depth slider: levels, the level a state shows, and expanding to a level', () => {
  assert.equal(
    hierarchyLevels(unflat, kinds),
    4,
    'model, layers ×2, layers.k, attn/delegate; QDQ and folds are no level',
  );
  const all = new Uint8Array(8).fill(1);
  assert.equal(shownLevel(unflat, kinds, all), 4);
  const two = expandToLevel(unflat, kinds, all, 2);
  assert.deepEqual([...two], [1, 1, 0, 0, 0, 1, 0, 1], 'depth >= 2 collapsed; leaf folds kept as they were');
  assert.equal(shownLevel(unflat, kinds, two), 2);
  assert.deepEqual([...expandToLevel(unflat, kinds, two, 0, false)], [0, 0, 0, 0, 0, 0, 0, 0]);
  assert.deepEqual([...expandToLevel(unflat, kinds, two, Infinity, true)], [1, 1, 1, 1, 1, 1, 1, 1]);
  // Flattened: only the delegate is a level; dissolved groups keep their state.
  const h = flattenHierarchy(mParent, mGroup, dissolve);
  assert.equal(hierarchyLevels(h, kinds), 1);
  assert.deepEqual([...expandToLevel(h, kinds, two, 0)], [1, 1, 0, 0, 0, 1, 0, 1]);
});

test('nodesInside: every node at any depth below the group', () => {
  assert.deepEqual([...nodesInside(mParent, mGroup, 2)], [0, 0, 1, 1, 1, 0, 0]);
  assert.deepEqual([...nodesInside(mParent, mGroup, 1)], [0, 0, 1, 1, 1, 1, 0]);
  assert.deepEqual([...nodesInside(mParent, mGroup, 7)], [0, 0, 0, 0, 0, 0, 1]);
});
