// The C++ layout engine (src/layout) compiled to WebAssembly, re-run in the page when a group
// is expanded or collapsed. The module is inlined by the etviz build when Emscripten was
// available; it defines createEtvizLayout() (src/layout/wasm_api.js is its JS side).

export async function createLayoutEngine() {
  const factory = globalThis.createEtvizLayout;
  if (typeof factory !== 'function') throw new Error('this etviz build does not include the WebAssembly layout engine');
  // The module carries its wasm as a data: URI and would first try fetch() on it, which the
  // page's Content-Security-Policy (connect-src 'none') refuses with a console error before the
  // module falls back to decoding the URI itself. Hide fetch while the factory starts so it
  // takes the direct path; the factory reads the binary synchronously.
  const savedFetch = globalThis.fetch;
  let pending;
  try {
    globalThis.fetch = undefined;
    pending = factory();
  } finally {
    globalThis.fetch = savedFetch;
  }
  const module = await pending;
  if (typeof module.etvizLayout !== 'function') throw new Error('the WebAssembly layout module has no etvizLayout()');
  return new WasmLayout(module);
}

class WasmLayout {
  constructor(module) {
    this.module = module;
  }

  // Lays out `model` with the expand state `expanded` (one byte per group); returns the same
  // shape as GraphModel.initialLayout.
  run(model, expanded) {
    const n = model.nodeCount;
    const input = layoutInput(model, expanded);
    const r = this.module.etvizLayout(input);
    this.lastStructureReused = r.structureReused;
    this.lastLaidOut = r.laidOut;
    // Back to one route per model edge: detached edges were not laid out (no points). The
    // module returns routes with shared trunks stored once, so the points array is taken as
    // it is; only the per-edge offsets and trunk references are renumbered.
    const m = model.edgeCount;
    const ptOff = new Uint32Array(m + 1);
    const share = new Int32Array(m).fill(-1), shareN = new Int32Array(m);
    const lx = new Float64Array(m), ly = new Float64Array(m);
    const laidToModel = input.laidToModel;
    for (let e = 0; e < m; e++) {
      const k = input.edgeIds[e];
      let count = 0;
      if (k >= 0) {
        count = r.sharedOffsets[k + 1] - r.sharedOffsets[k];
        if (r.share[k] >= 0) { share[e] = laidToModel[r.share[k]]; shareN[e] = r.shareCount[k]; }
        lx[e] = r.labelX[k];
        ly[e] = r.labelY[k];
      }
      ptOff[e + 1] = ptOff[e] + count;
    }
    return {
      nx: r.nodeX, ny: r.nodeY, nw: r.nodeW, nh: r.nodeH,
      gx: r.groupX, gy: r.groupY, gw: r.groupW, gh: r.groupH,
      ptOff, pts: r.sharedPoints, share, shareN,
      lx, ly,
      nodeCount: n,
    };
  }
}

// The engine's input as typed arrays (see src/layout/layout.h for the meaning of each field).
export function layoutInput(model, expanded) {
  const NONE = 0xFFFFFFFF;
  const nodeGroup = new Uint32Array(model.nodeCount);
  for (let i = 0; i < model.nodeCount; i++) nodeGroup[i] = model.n.group[i] < 0 ? NONE : model.n.group[i];
  // Detached edges (from broadcast sources, see view_model.h) stay out of the layout.
  const edgeIds = new Int32Array(model.edgeCount).fill(-1);
  let laid = 0;
  for (let e = 0; e < model.edgeCount; e++) if (!model.e.detached[e]) edgeIds[e] = laid++;
  const laidToModel = new Int32Array(laid);
  for (let e = 0; e < model.edgeCount; e++) if (edgeIds[e] >= 0) laidToModel[edgeIds[e]] = e;
  const edges = new Uint32Array(4 * laid);
  for (let e = 0; e < model.edgeCount; e++) {
    const k = edgeIds[e];
    if (k < 0) continue;
    edges[4 * k] = model.e.src[e];
    edges[4 * k + 1] = model.e.dst[e];
    edges[4 * k + 2] = model.e.sp[e] < 0 ? NONE : model.e.sp[e];
    edges[4 * k + 3] = model.e.tp[e] < 0 ? NONE : model.e.tp[e];
  }
  const groupParent = new Uint32Array(model.groupCount);
  for (let g = 0; g < model.groupCount; g++) groupParent[g] = model.g.parent[g] < 0 ? NONE : model.g.parent[g];
  return {
    nodeWidth: model.n.w, nodeHeight: model.n.h, nodeGroup, edges, edgeIds, laidToModel, groupParent,
    groupExpanded: Uint8Array.from(expanded), groupCollapsedWidth: model.g.cw, groupCollapsedHeight: model.g.ch,
    options: LAYOUT_OPTIONS,
  };
}

// Must match layout_options() in src/render/html/view_model.cpp so re-layout looks the same.
export const LAYOUT_OPTIONS = { nodeSpacing: 22, layerSpacing: 34, edgeSpacing: 10, groupPadding: 12, componentSpacing: 48 };

// Bounding box of what is drawn.
export function layoutBounds(L, boxes) {
  let ax = Infinity, ay = Infinity, bx = -Infinity, by = -Infinity;
  const add = (x, y, w, h) => {
    if (x < ax) ax = x; if (y < ay) ay = y;
    if (x + w > bx) bx = x + w; if (y + h > by) by = y + h;
  };
  for (const i of boxes.nodes) add(L.nx[i], L.ny[i], L.nw[i], L.nh[i]);
  for (const g of boxes.collapsed) add(L.gx[g], L.gy[g], L.gw[g], L.gh[g]);
  for (const g of boxes.frames) add(L.gx[g], L.gy[g], L.gw[g], L.gh[g]);
  if (ax === Infinity) return { x: 0, y: 0, w: 1, h: 1 };
  return { x: ax, y: ay, w: bx - ax, h: by - ay };
}
