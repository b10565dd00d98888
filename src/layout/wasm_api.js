// JS side of the layout module (appended to the Emscripten output with --post-js): copies
// typed arrays into the module's memory, calls etviz_layout_run (wasm_api.cpp) and copies the
// results out. No reshaping: input and output are the structure-of-arrays form the viewer
// (web/src/data.js) holds.
//
//   const etviz = await createEtvizLayout();
//   const out = etviz.etvizLayout({
//     nodeWidth, nodeHeight: Float64Array; nodeGroup: Int32Array (-1: top level),
//     edgeSource, edgeTarget, edgeSourcePort, edgeTargetPort: Int32Array (-1: no port),
//     edgeSkip: Int32Array (non-zero: not laid out; optional),
//     groupParent: Int32Array (-1: top level), groupExpanded: Uint8Array,
//     groupCollapsedWidth, groupCollapsedHeight: Float64Array,
//     options: Float64Array (encode_options() order, src/layout/options.cpp)
//   });
//   out: nodeX, nodeY, nodeW, nodeH, groupX, groupY, groupW, groupH, labelX, labelY
//        (Float64Array), share, shareCount (Int32Array), offsets (Uint32Array), points
//        (Float64Array x, y ...): edge e's route is the first shareCount[e] points of edge
//        share[e] (if >= 0) then points[offsets[e] .. offsets[e + 1]); bounds; laidOut;
//        structureReused.
Module['etvizLayout'] = function (input) {
  const n = input.nodeWidth.length;
  const m = input.edgeSource.length;
  const g = input.groupParent.length;
  const allocations = [];
  function put(array, heap, bytesPerElement) {
    const ptr = _malloc(Math.max(array.length * bytesPerElement, 8));
    allocations.push(ptr);
    heap().set(array, ptr / bytesPerElement);
    return ptr;
  }
  const f64 = () => HEAPF64, i32 = () => HEAP32, u8 = () => HEAPU8;
  const skip = input.edgeSkip || new Int32Array(m);
  const options = Float64Array.from(input.options || []);
  try {
    const laidOut = _etviz_layout_run(
        n, put(input.nodeWidth, f64, 8), put(input.nodeHeight, f64, 8),
        put(input.nodeGroup, i32, 4),
        m, put(input.edgeSource, i32, 4), put(input.edgeTarget, i32, 4),
        put(input.edgeSourcePort, i32, 4), put(input.edgeTargetPort, i32, 4), put(skip, i32, 4),
        g, put(input.groupParent, i32, 4), put(input.groupExpanded, u8, 1),
        put(input.groupCollapsedWidth, f64, 8), put(input.groupCollapsedHeight, f64, 8),
        put(options, f64, 8), options.length);
    // Copies, so the results survive the next call and memory growth.
    const f64out = (ptr, count) => HEAPF64.slice(ptr / 8, ptr / 8 + count);
    const i32out = (ptr, count) => HEAP32.slice(ptr / 4, ptr / 4 + count);
    const u32out = (ptr, count) => HEAPU32.slice(ptr / 4, ptr / 4 + count);
    return {
      nodeX: f64out(_etviz_layout_node_x(), n), nodeY: f64out(_etviz_layout_node_y(), n),
      nodeW: f64out(_etviz_layout_node_w(), n), nodeH: f64out(_etviz_layout_node_h(), n),
      groupX: f64out(_etviz_layout_group_x(), g), groupY: f64out(_etviz_layout_group_y(), g),
      groupW: f64out(_etviz_layout_group_w(), g), groupH: f64out(_etviz_layout_group_h(), g),
      labelX: f64out(_etviz_layout_label_x(), m), labelY: f64out(_etviz_layout_label_y(), m),
      share: i32out(_etviz_layout_share(), m), shareCount: i32out(_etviz_layout_share_count(), m),
      offsets: u32out(_etviz_layout_offsets(), m + 1),
      points: f64out(_etviz_layout_points(), 2 * _etviz_layout_point_count()),
      bounds: f64out(_etviz_layout_bounds(), 4),
      laidOut: laidOut,
      structureReused: _etviz_layout_structure_reused(),
    };
  } finally {
    for (const ptr of allocations) _free(ptr);
  }
};
