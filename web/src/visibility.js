// Which boxes are on screen for a given expand state, and the layout engine's input for it.
// Pure functions over the model's arrays, so node's test runner covers them.

// For each node, the box that stands for it: -1 if the node itself is visible, else the
// outermost collapsed group containing it. Groups likewise get their outermost collapsed
// ancestor (-1 if every ancestor is expanded).
export function computeVisibility(parent, nodeGroup, expanded) {
  const groupCount = parent.length;
  const hiddenBy = new Int32Array(groupCount).fill(-1);  // for groups
  const done = new Uint8Array(groupCount);
  const resolve = (g) => {
    // Iterative walk to the root; the outermost collapsed ancestor wins.
    const chain = [];
    let p = parent[g];
    let steps = 0;
    while (p >= 0 && !done[p] && steps++ <= groupCount) { chain.push(p); p = parent[p]; }
    let above = p >= 0 && done[p] ? (hiddenBy[p] >= 0 ? hiddenBy[p] : (expanded[p] ? -1 : p)) : -1;
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
    if (g < 0 || g >= groupCount) { nodeRep[i] = -1; continue; }
    nodeRep[i] = hiddenBy[g] >= 0 ? hiddenBy[g] : (expanded[g] ? -1 : g);
  }
  return { nodeRep, groupHiddenBy: hiddenBy };
}

// Lists of what to draw: visible node ids, collapsed group boxes, expanded group frames.
export function visibleBoxes(vis, expanded) {
  const nodes = [];
  for (let i = 0; i < vis.nodeRep.length; i++) if (vis.nodeRep[i] < 0) nodes.push(i);
  const collapsed = [];
  const frames = [];
  for (let g = 0; g < vis.groupHiddenBy.length; g++) {
    if (vis.groupHiddenBy[g] >= 0) continue;
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

// Groups visible at `level` or shallower get expanded; used by "expand all" (level = Infinity)
// and "flatten".
export function expandToDepth(depth, level) {
  const out = new Uint8Array(depth.length);
  for (let g = 0; g < depth.length; g++) out[g] = depth[g] < level ? 1 : 0;
  return out;
}
