// The C++ layout engine (src/layout) compiled to WebAssembly, re-run in the page when a group
// is expanded or collapsed. The etviz build inlines the module when Emscripten was available:
// its JS glue as a script (it defines createEtvizLayout(); src/layout/wasm_api.js is its JS
// side) and its wasm gzipped as text (#etviz-layout-wasm), which is inflated here and handed
// to the glue as wasmBinary, so it is compiled from those bytes and nothing is fetched (the
// page's policy, connect-src 'none', would refuse it).

import { gunzipBase64 } from './data.js';

/**
 * A graph's layout as the viewer holds it: what WasmLayout.run() returns and, in the same
 * shape, the layout the page embeds (GraphModel.initialLayout). Routes are compact
 * (routes.js): edge e's route is the first shareN[e] points of edge share[e] (when >= 0), then
 * its own points pts[2 * ptOff[e] ..] up to ptOff[e + 1].
 * @typedef {object} Layout
 * @property {Float64Array} nx  per node: box left
 * @property {Float64Array} ny  per node: box top
 * @property {Float64Array} nw  per node: box width
 * @property {Float64Array} nh  per node: box height
 * @property {Float64Array} gx  per group: box left
 * @property {Float64Array} gy  per group: box top
 * @property {Float64Array} gw  per group: box width (0: dissolved by flatten)
 * @property {Float64Array} gh  per group: box height
 * @property {Uint32Array} ptOff  per edge + 1: offsets into pts, in points
 * @property {Float64Array} pts  route points, x and y interleaved
 * @property {Int32Array} share  per edge: the edge whose route it starts along, -1
 * @property {Int32Array} shareN  per edge: how many of that edge's points it shares
 * @property {Float64Array} lx  per edge: label position x
 * @property {Float64Array} ly  per edge: label position y
 * @property {Float64Array} [jx]  per edge: where its own points join the shared trunk, NaN when
 *   it shares nothing (routes.js junctions; GraphView.setLayout adds them)
 * @property {Float64Array} [jy]
 */

export async function createLayoutEngine() {
  const factory = globalThis.createEtvizLayout;
  const packed = document.getElementById('etviz-layout-wasm');
  if (typeof factory !== 'function' || !packed)
    throw new Error('this etviz build does not include the WebAssembly layout engine');
  const wasmBinary = await gunzipBase64(packed.textContent);
  const module = await factory({ wasmBinary });
  if (typeof module.etvizLayout !== 'function') throw new Error('the WebAssembly layout module has no etvizLayout()');
  return new WasmLayout(module);
}

class WasmLayout {
  constructor(module) {
    this.module = module;
  }

  // Lays out `model` with the expand state `expanded` (one byte per group) and the options
  // the page was written with (C++ chose them: page data "layoutOptions"). The arrays go to
  // the engine as the model holds them and come back as a Layout, the shape of the embedded
  // one (GraphModel.initialLayout), at the page's precision: laying out the initial expand
  // state reproduces the embedded layout exactly. `hierarchy` (GraphView.hierarchy) with a
  // `groups` list lays out only those groups (flatten): the engine sees them renumbered, the
  // result comes back in the model's numbering with dissolved groups at zero size.
  /** @returns {Layout} */
  run(model, expanded, hierarchy = null) {
    const sub = hierarchy && hierarchy.groups ? hierarchy : null;
    let nodeGroup = model.n.group,
      groupParent = model.g.parent,
      groupExpanded = expanded;
    let cw = model.g.cw,
      ch = model.g.ch;
    if (sub) {
      const { groups, index } = sub;
      nodeGroup = Int32Array.from(sub.nodeGroup, (g) => (g >= 0 ? index[g] : -1));
      groupParent = Int32Array.from(groups, (g) => (sub.parent[g] >= 0 ? index[sub.parent[g]] : -1));
      groupExpanded = Uint8Array.from(groups, (g) => expanded[g]);
      cw = Float64Array.from(groups, (g) => model.g.cw[g]);
      ch = Float64Array.from(groups, (g) => model.g.ch[g]);
    }
    const r = this.module.etvizLayout({
      nodeWidth: model.n.w,
      nodeHeight: model.n.h,
      nodeGroup,
      edgeSource: model.e.src,
      edgeTarget: model.e.dst,
      edgeSourcePort: model.e.sp,
      edgeTargetPort: model.e.tp,
      edgeSkip: model.e.detached,
      groupParent,
      groupExpanded,
      groupCollapsedWidth: cw,
      groupCollapsedHeight: ch,
      options: model.layoutOptions,
    });
    this.lastStructureReused = r.structureReused;
    this.lastLaidOut = r.laidOut;
    const full = (a) => {
      if (!sub) return a;
      const out = new Float64Array(model.groupCount);
      sub.groups.forEach((g, k) => {
        out[g] = a[k];
      });
      return out;
    };
    return {
      nx: r.nodeX,
      ny: r.nodeY,
      nw: r.nodeW,
      nh: r.nodeH,
      gx: full(r.groupX),
      gy: full(r.groupY),
      gw: full(r.groupW),
      gh: full(r.groupH),
      ptOff: r.offsets,
      pts: r.points,
      share: r.share,
      shareN: r.shareCount,
      lx: r.labelX,
      ly: r.labelY,
    };
  }
}

// Bounding box of what is drawn.
export function layoutBounds(L, boxes) {
  let ax = Infinity,
    ay = Infinity,
    bx = -Infinity,
    by = -Infinity;
  const add = (x, y, w, h) => {
    if (x < ax) ax = x;
    if (y < ay) ay = y;
    if (x + w > bx) bx = x + w;
    if (y + h > by) by = y + h;
  };
  for (const i of boxes.nodes) add(L.nx[i], L.ny[i], L.nw[i], L.nh[i]);
  for (const g of boxes.collapsed) add(L.gx[g], L.gy[g], L.gw[g], L.gh[g]);
  for (const g of boxes.frames) add(L.gx[g], L.gy[g], L.gw[g], L.gh[g]);
  if (ax === Infinity) return { x: 0, y: 0, w: 1, h: 1 };
  return { x: ax, y: ay, w: bx - ax, h: by - ay };
}
