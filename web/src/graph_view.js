// One graph's view: its expand state, camera and layout, the boxes that state shows, and
// hit testing against them. Kept per graph, so switching graphs comes back to the same place.
import { Camera } from './camera.js';
import { computeVisibility, visibleBoxes, flattenHierarchy, FLATTENED_KINDS } from './visibility.js';
import { layoutBounds } from './layout_wasm.js';
import { junctions } from './routes.js';

export class GraphView {
  constructor(model) {
    this.model = model;
    this.expanded = Uint8Array.from(model.initialExpanded);
    this.camera = new Camera();
    this.fitted = false; // given its first view (camera_control.js)
    this.autoCamera = null; // the camera the first view chose, while the user has not moved it
    this.flat = false; // module boxes dissolved ("flatten"); the layout was made that way
    this.setLayout(model.initialLayout);
  }

  // The hierarchy laid out and drawn: the model's own, or with module boxes dissolved
  // (visibility.js, flattenHierarchy; computed once per graph).
  get hierarchy() {
    return this.hierarchyFor(this.flat);
  }
  // Whether flatten changes anything here (the graph has module or repeat boxes).
  get flattens() {
    return this.hierarchyFor(true).groups.length < this.model.groupCount;
  }
  hierarchyFor(flat) {
    const m = this.model;
    if (!flat)
      return {
        parent: m.g.parent,
        nodeGroup: m.n.group,
        depth: m.groupDepth,
        dissolved: null,
        groups: null,
        index: null,
      };
    if (!m.flatHierarchy) {
      const dissolve = new Uint8Array(m.groupCount);
      for (let g = 0; g < m.groupCount; g++) dissolve[g] = FLATTENED_KINDS.has(m.groupKind(g)) ? 1 : 0;
      m.flatHierarchy = flattenHierarchy(m.g.parent, m.n.group, dissolve);
    }
    return m.flatHierarchy;
  }

  setLayout(layout) {
    const m = this.model;
    this.layout = layout;
    const h = this.hierarchy;
    this.vis = computeVisibility(h.parent, h.nodeGroup, this.expanded);
    this.boxes = visibleBoxes(this.vis, this.expanded, h.dissolved);
    this.framesByDepth = Array.from(this.boxes.frames).sort((a, b) => h.depth[a] - h.depth[b]);
    // Edge bounding boxes for culling; edges without a route are hidden inside a group.
    const eb = new Float64Array(4 * m.edgeCount);
    const { ptOff, pts } = layout;
    const j = junctions(layout);
    layout.jx = j.jx;
    layout.jy = j.jy;
    for (let e = 0; e < m.edgeCount; e++) {
      let ax = Infinity,
        ay = Infinity,
        bx = -Infinity,
        by = -Infinity;
      if (!Number.isNaN(j.jx[e])) {
        ax = bx = j.jx[e];
        ay = by = j.jy[e];
      }
      for (let k = ptOff[e]; k < ptOff[e + 1]; k++) {
        const x = pts[2 * k],
          y = pts[2 * k + 1];
        if (x < ax) ax = x;
        if (x > bx) bx = x;
        if (y < ay) ay = y;
        if (y > by) by = y;
      }
      eb[4 * e] = ax;
      eb[4 * e + 1] = ay;
      eb[4 * e + 2] = bx;
      eb[4 * e + 3] = by;
    }
    this.edgeBounds = eb;
    this.bounds = layoutBounds(layout, this.boxes);
    this.qdqRects = this.model.qdq
      .map((members) => {
        let ax = Infinity,
          ay = Infinity,
          bx = -Infinity,
          by = -Infinity;
        let shown = 0;
        for (const i of members) {
          if (this.vis.nodeRep[i] >= 0) continue;
          shown++;
          ax = Math.min(ax, layout.nx[i]);
          ay = Math.min(ay, layout.ny[i]);
          bx = Math.max(bx, layout.nx[i] + layout.nw[i]);
          by = Math.max(by, layout.ny[i] + layout.nh[i]);
        }
        return shown > 1 ? { x: ax - 6, y: ay - 6, w: bx - ax + 12, h: by - ay + 12 } : null;
      })
      .filter(Boolean);
  }

  isVisible(node) {
    return this.vis.nodeRep[node] < 0;
  }

  // Where node i is drawn: its own box, or the collapsed box that holds it ({x, y, w, h}).
  boxOf(i) {
    const L = this.layout;
    const g = this.vis.nodeRep[i];
    if (g < 0) return { x: L.nx[i], y: L.ny[i], w: L.nw[i], h: L.nh[i] };
    return { x: L.gx[g], y: L.gy[g], w: L.gw[g], h: L.gh[g] };
  }

  // What is under screen point (sx, sy): { node }, { group } (a collapsed box, or an expanded
  // group's title bar with header: true), { edge } within 5 screen pixels, or {}. `decoration`
  // ({ styles, edgeHidden } of an overlay, or absent): nodes whose style is hidden and hidden
  // edges are not there to hit.
  hit(sx, sy, decoration = {}) {
    const L = this.layout;
    const [wx, wy] = this.camera.toWorld(sx, sy);
    const nodes = this.boxes.nodes;
    const st = decoration.styles;
    const hiddenEdges = decoration.edgeHidden;
    for (let k = nodes.length - 1; k >= 0; k--) {
      const i = nodes[k];
      if (st && st.styles[st.bucket[i]].hidden) continue;
      if (wx >= L.nx[i] && wx <= L.nx[i] + L.nw[i] && wy >= L.ny[i] && wy <= L.ny[i] + L.nh[i]) return { node: i };
    }
    const gh = st ? st.groupHidden : null;
    for (const g of this.boxes.collapsed)
      if (!(gh && gh[g]) && wx >= L.gx[g] && wx <= L.gx[g] + L.gw[g] && wy >= L.gy[g] && wy <= L.gy[g] + L.gh[g])
        return { group: g };
    for (let k = this.framesByDepth.length - 1; k >= 0; k--) {
      const g = this.framesByDepth[k];
      if (gh && gh[g]) continue;
      if (wx >= L.gx[g] && wx <= L.gx[g] + L.gw[g] && wy >= L.gy[g] && wy <= L.gy[g] + this.model.frameHeader)
        return { group: g, header: true };
    }
    const tol = 5 / this.camera.scale;
    const m = this.model;
    const eb = this.edgeBounds;
    let best = -1,
      bestD = tol;
    for (let e = 0; e < m.edgeCount; e++) {
      if (hiddenEdges && hiddenEdges[e]) continue;
      if (wx < eb[4 * e] - tol || wx > eb[4 * e + 2] + tol || wy < eb[4 * e + 1] - tol || wy > eb[4 * e + 3] + tol)
        continue;
      const a = L.ptOff[e],
        b = L.ptOff[e + 1];
      if (!Number.isNaN(L.jx[e]) && b > a) {
        const d = segmentDistance(wx, wy, L.jx[e], L.jy[e], L.pts[2 * a], L.pts[2 * a + 1]);
        if (d < bestD) {
          bestD = d;
          best = e;
        }
      }
      for (let k = a; k + 1 < b; k++) {
        const d = segmentDistance(wx, wy, L.pts[2 * k], L.pts[2 * k + 1], L.pts[2 * k + 2], L.pts[2 * k + 3]);
        if (d < bestD) {
          bestD = d;
          best = e;
        }
      }
    }
    return best >= 0 ? { edge: best } : {};
  }
}

export function segmentDistance(px, py, ax, ay, bx, by) {
  const dx = bx - ax,
    dy = by - ay;
  const len2 = dx * dx + dy * dy;
  let t = len2 ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0;
  t = Math.max(0, Math.min(1, t));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}
