// JS API of the layout module (appended to the Emscripten output with --post-js).
//
//   const etviz = await createEtvizLayout();
//   const out = etviz.layout({
//     nodeSizes: Float64Array [w0, h0, w1, h1, ...],
//     nodeGroups: Uint32Array (optional; 0xFFFFFFFF = top level),
//     edges: Uint32Array [source, target, sourcePort, targetPort, ...] (0xFFFFFFFF = no port),
//     groupParents: Uint32Array, groupExpanded: Uint8Array,
//     groupCollapsedSizes: Float64Array [w, h, ...] (all three optional),
//     options: {direction: 'TB' | 'LR', nodeSpacing, layerSpacing, edgeSpacing,
//               groupPadding, componentSpacing, bundleFanOut} (optional)
//   });
//   out.nodes / out.groups: Float64Array [x, y, width, height, ...]
//   out.edgeRanges: Uint32Array [firstPoint, pointCount, ...]
//   out.points: Float64Array [x, y, ...]; out.labels: Float64Array [x, y, ...] per edge
//   out.bounds: Float64Array [x, y, width, height]; out.laidOut: levels not taken from cache
Module['layout'] = function (graph) {
  const NONE = 0xFFFFFFFF;
  const nodeCount = graph.nodeSizes.length / 2;
  const edgeCount = graph.edges ? graph.edges.length / 4 : 0;
  const groupCount = graph.groupParents ? graph.groupParents.length : 0;
  const o = graph.options || {};
  const options = new Float64Array([
    o.direction === 'LR' ? 1 : 0,
    o.nodeSpacing ?? 20, o.layerSpacing ?? 20, o.edgeSpacing ?? 10,
    o.groupPadding ?? 10, o.componentSpacing ?? 40, o.bundleFanOut === false ? 0 : 1,
  ]);
  const allocations = [];
  function put(array, heap, bytesPerElement) {
    const bytes = Math.max(array.length * bytesPerElement, 8);
    const ptr = _malloc(bytes);
    allocations.push(ptr);
    heap().set(array, ptr / bytesPerElement);
    return ptr;
  }
  const f64 = () => HEAPF64, u32 = () => HEAPU32, u8 = () => HEAPU8;
  let nodeGroups = graph.nodeGroups;
  if (!nodeGroups) nodeGroups = new Uint32Array(nodeCount).fill(NONE);
  try {
    const laidOut = _etviz_layout_run(
        nodeCount, put(graph.nodeSizes, f64, 8), put(nodeGroups, u32, 4),
        edgeCount, put(graph.edges || new Uint32Array(0), u32, 4),
        groupCount, put(graph.groupParents || new Uint32Array(0), u32, 4),
        put(graph.groupExpanded || new Uint8Array(groupCount).fill(1), u8, 1),
        put(graph.groupCollapsedSizes || new Float64Array(2 * groupCount), f64, 8),
        put(options, f64, 8));
    // Copies, so the results survive the next call and memory growth.
    const f64out = (ptr, n) => HEAPF64.slice(ptr / 8, ptr / 8 + n);
    const u32out = (ptr, n) => HEAPU32.slice(ptr / 4, ptr / 4 + n);
    const i32out = (ptr, n) => new Int32Array(HEAPU32.buffer, ptr, n).slice();
    const out = {
      nodes: f64out(_etviz_layout_node_rects(), 4 * nodeCount),
      groups: f64out(_etviz_layout_group_rects(), 4 * groupCount),
      labels: f64out(_etviz_layout_labels(), 2 * edgeCount),
      bounds: f64out(_etviz_layout_bounds(), 4),
      laidOut: laidOut,
      structureReused: _etviz_layout_structure_reused(),
      // Routes with shared trunks stored once (src/layout/route_sharing.h), rounded to 0.1:
      // edge e is the first shareCount[e] points of edge share[e] (if >= 0), then
      // sharedPoints[sharedOffsets[e] .. sharedOffsets[e + 1]).
      share: i32out(_etviz_layout_share(), edgeCount),
      shareCount: i32out(_etviz_layout_share_count(), edgeCount),
      sharedOffsets: u32out(_etviz_layout_shared_offsets(), edgeCount + 1),
      sharedPoints: f64out(_etviz_layout_shared_points(), 2 * _etviz_layout_shared_point_count()),
    };
    if (graph.routes !== 'shared') {  // full polylines, unless only the shared form is wanted
      out.edgeRanges = u32out(_etviz_layout_edge_ranges(), 2 * edgeCount);
      out.points = f64out(_etviz_layout_points(), 2 * _etviz_layout_point_count());
    }
    return out;
  } finally {
    for (const ptr of allocations) _free(ptr);
  }
};

// The same layout with structure-of-arrays input and output, the shape the viewer
// (web/src/layout_wasm.js) works with:
//   in:  {nodeWidth, nodeHeight, nodeGroup, edges, groupParent, groupExpanded,
//         groupCollapsedWidth, groupCollapsedHeight, options}
//   out: {nodeX, nodeY, nodeW, nodeH, groupX, groupY, groupW, groupH,
//         share, shareCount, sharedOffsets, sharedPoints (routes as in layout() above),
//         labelX, labelY, bounds, laidOut, structureReused}
Module['etvizLayout'] = function (input) {
  const n = input.nodeWidth.length, g = input.groupParent ? input.groupParent.length : 0;
  const interleave = (a, b, count) => {
    const out = new Float64Array(2 * count);
    for (let i = 0; i < count; ++i) { out[2 * i] = a[i]; out[2 * i + 1] = b[i]; }
    return out;
  };
  const r = Module['layout']({
    nodeSizes: interleave(input.nodeWidth, input.nodeHeight, n),
    nodeGroups: input.nodeGroup, edges: input.edges, groupParents: input.groupParent,
    groupExpanded: input.groupExpanded,
    groupCollapsedSizes: g ? interleave(input.groupCollapsedWidth, input.groupCollapsedHeight, g)
                           : undefined,
    options: input.options,
    routes: 'shared',
  });
  const column = (values, count, stride, k) => {
    const out = new Float64Array(count);
    for (let i = 0; i < count; ++i) out[i] = values[stride * i + k];
    return out;
  };
  const m = r.share.length;
  return {
    nodeX: column(r.nodes, n, 4, 0), nodeY: column(r.nodes, n, 4, 1),
    nodeW: column(r.nodes, n, 4, 2), nodeH: column(r.nodes, n, 4, 3),
    groupX: column(r.groups, g, 4, 0), groupY: column(r.groups, g, 4, 1),
    groupW: column(r.groups, g, 4, 2), groupH: column(r.groups, g, 4, 3),
    share: r.share, shareCount: r.shareCount, sharedOffsets: r.sharedOffsets,
    sharedPoints: r.sharedPoints,
    labelX: column(r.labels, m, 2, 0), labelY: column(r.labels, m, 2, 1),
    bounds: r.bounds, laidOut: r.laidOut, structureReused: r.structureReused,
  };
};
