// Which boxes are on screen for a given expand state, and the layout engine's input for it.
// Pure functions over the model's arrays, so node's test runner covers them.

// For each node, the box that stands for it: -1 if the node itself is visible, else the
// outermost collapsed group containing it. Groups likewise get their outermost collapsed
// ancestor (-1 if every ancestor is expanded).
export function computeVisibility(parent, nodeGroup, expanded) {
  const groupCount = parent.length;
  const hiddenBy = new Int32Array(groupCount).fill(-1); // for groups
  const done = new Uint8Array(groupCount);
  const resolve = (g) => {
    // Iterative walk to the root; the outermost collapsed ancestor wins.
    const chain = [];
    let p = parent[g];
    let steps = 0;
    while (p >= 0 && !done[p] && steps++ <= groupCount) {
      chain.push(p);
      p = parent[p];
    }
    let above = p >= 0 && done[p] ? (hiddenBy[p] >= 0 ? hiddenBy[p] : expanded[p] ? -1 : p) : -1;
    for (let k = chain.length - 1; k >= 0; k--) {
      const c = chain[k];
      hiddenBy[c] = above;
      done[c] = 1;
      if (above < 0 && !expanded[c]) above = c;
    }
    hiddenBy[g] = above;
    done[g] = 1;
  };
  for (let g = 0; g < groupCount; g++) if (!done[g]) resolve(g);
  const nodeRep = new Int32Array(nodeGroup.length);
  for (let i = 0; i < nodeGroup.length; i++) {
    const g = nodeGroup[i];
    if (g < 0 || g >= groupCount) {
      nodeRep[i] = -1;
      continue;
    }
    nodeRep[i] = hiddenBy[g] >= 0 ? hiddenBy[g] : expanded[g] ? -1 : g;
  }
  return { nodeRep, groupHiddenBy: hiddenBy };
}

// Lists of what to draw: visible node ids, collapsed group boxes, expanded group frames.
// Groups flagged in `dissolved` (flatten) are not drawn at all.
export function visibleBoxes(vis, expanded, dissolved = null) {
  const nodes = [];
  for (let i = 0; i < vis.nodeRep.length; i++) if (vis.nodeRep[i] < 0) nodes.push(i);
  const collapsed = [];
  const frames = [];
  for (let g = 0; g < vis.groupHiddenBy.length; g++) {
    if (vis.groupHiddenBy[g] >= 0 || (dissolved && dissolved[g])) continue;
    (expanded[g] ? frames : collapsed).push(g);
  }
  return { nodes: Int32Array.from(nodes), collapsed: Int32Array.from(collapsed), frames: Int32Array.from(frames) };
}

// Groups to expand so that node `i` is visible (its collapsed ancestors).
export function ancestorsToExpand(parent, nodeGroup, expanded, i) {
  const out = [];
  let steps = 0;
  for (let g = nodeGroup[i]; g >= 0 && steps++ <= parent.length; g = parent[g]) if (!expanded[g]) out.push(g);
  return out;
}

// Nodes inside group g at any depth (a mask over nodes), for what a group holds.
export function nodesInside(parent, nodeGroup, g) {
  const groupCount = parent.length;
  const within = new Int8Array(groupCount).fill(-1); // -1 unknown, 0 no, 1 yes
  const inside = (h) => {
    const chain = [];
    let p = h;
    while (p >= 0 && within[p] < 0 && p !== g && chain.length <= groupCount) {
      chain.push(p);
      p = parent[p];
    }
    const answer = p === g ? 1 : p >= 0 && within[p] >= 0 ? within[p] : 0;
    for (const c of chain) within[c] = answer;
    return answer;
  };
  if (g >= 0 && g < groupCount) within[g] = 1;
  const mask = new Uint8Array(nodeGroup.length);
  for (let i = 0; i < nodeGroup.length; i++) {
    const h = nodeGroup[i];
    if (h >= 0 && h < groupCount && inside(h)) mask[i] = 1;
  }
  return mask;
}

// Group kinds "flatten" dissolves: the module hierarchy (nn.Module scopes, imported
// namespaces) and the repeat boxes made of module instances. Delegate payloads, control-flow
// bodies, QDQ clusters, partitions, user groups and the folds of many inputs or constants stay:
// they say what runs where, not how the source was written.
export const FLATTENED_KINDS = new Set(['module', 'repeat']);
// Boxes that fold a few leaves (QDQ clusters, "84 inputs", "4 constants") start collapsed and
// are not levels of the hierarchy: the depth slider leaves them as they are.
export const LEAF_FOLD_KINDS = new Set(['qdq_cluster', 'other']);

// The hierarchy the layout and the drawing use. Unflattened: the model's own. Flattened:
// every group whose `dissolve` flag is set is gone, its nodes and child groups belong to its
// nearest kept ancestor (-1: the top level). `groups` lists the kept groups in order (the
// layout engine sees only those, numbered by `index`); `depth` is the depth among kept groups.
export function flattenHierarchy(parent, nodeGroup, dissolve) {
  const groupCount = parent.length;
  const keptAt = new Int32Array(groupCount).fill(-2); // g if kept, else its nearest kept ancestor
  for (let g = 0; g < groupCount; g++) {
    if (keptAt[g] !== -2) continue;
    const chain = [];
    let p = g;
    while (p >= 0 && p < groupCount && keptAt[p] === -2 && dissolve[p] && chain.length <= groupCount) {
      chain.push(p);
      p = parent[p];
    }
    let answer = -1; // the top level, or a parent chain that loops
    if (p >= 0 && p < groupCount) {
      if (keptAt[p] !== -2) answer = keptAt[p];
      else if (!dissolve[p]) answer = keptAt[p] = p;
    }
    for (const c of chain) keptAt[c] = answer;
  }
  const flatParent = new Int32Array(groupCount);
  const index = new Int32Array(groupCount).fill(-1);
  const groups = [];
  for (let g = 0; g < groupCount; g++) {
    const p = parent[g];
    flatParent[g] = dissolve[g] || p < 0 || p >= groupCount ? -1 : keptAt[p];
    if (!dissolve[g]) {
      index[g] = groups.length;
      groups.push(g);
    }
  }
  const flatGroup = new Int32Array(nodeGroup.length);
  for (let i = 0; i < nodeGroup.length; i++) {
    const g = nodeGroup[i];
    flatGroup[i] = g >= 0 && g < groupCount ? keptAt[g] : -1;
  }
  const depth = new Int32Array(groupCount);
  for (let g = 0; g < groupCount; g++) {
    let d = 0;
    for (let p = flatParent[g]; p >= 0 && d <= groupCount; p = flatParent[p]) d++;
    depth[g] = d;
  }
  return {
    parent: flatParent,
    nodeGroup: flatGroup,
    dissolved: Uint8Array.from(dissolve),
    depth,
    groups: Int32Array.from(groups),
    index,
  };
}

// Levels of the hierarchy `h` has ({depth, dissolved}): 1 + the deepest group the depth slider
// acts on; `kinds[g]` is group g's kind.
export function hierarchyLevels(h, kinds) {
  let levels = 0;
  for (let g = 0; g < h.depth.length; g++)
    if (!(h.dissolved && h.dissolved[g]) && !LEAF_FOLD_KINDS.has(kinds[g])) levels = Math.max(levels, h.depth[g] + 1);
  return levels;
}

// The level an expand state shows: every group the slider acts on shallower than it is
// expanded (the shallowest collapsed one's depth, or `hierarchyLevels` when none is).
export function shownLevel(h, kinds, expanded) {
  let level = hierarchyLevels(h, kinds);
  for (let g = 0; g < h.depth.length; g++)
    if (!expanded[g] && !(h.dissolved && h.dissolved[g]) && !LEAF_FOLD_KINDS.has(kinds[g]))
      level = Math.min(level, h.depth[g]);
  return level;
}

// Expand state for "the hierarchy down to `level`": groups shallower than it expanded, deeper
// ones collapsed. Leaf folds keep their state unless `folds` says open (true) or closed
// (false); dissolved groups keep theirs (for when flatten is turned off).
export function expandToLevel(h, kinds, expanded, level, folds) {
  const out = Uint8Array.from(expanded);
  for (let g = 0; g < out.length; g++) {
    if (h.dissolved && h.dissolved[g]) continue;
    if (LEAF_FOLD_KINDS.has(kinds[g])) {
      if (folds !== undefined) out[g] = folds ? 1 : 0;
      continue;
    }
    out[g] = h.depth[g] < level ? 1 : 0;
  }
  return out;
}
