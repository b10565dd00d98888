// Edge routes with shared trunks. The layout engine bundles long edges that leave one source
// (a model input feeding every block) into one trunk, so their polylines repeat the same
// leading points, thousands of them. Routes are kept compact: edge e lists only its own points
// after the first shareN[e] points, which it shares with edge share[e].

// Compacts full routes (ptOff/pts as the layout engine returns them), rounded to 0.1.
export function compactRoutes(src, ptOff, pts) {
  const m = ptOff.length - 1;
  const share = new Int32Array(m).fill(-1);
  const shareN = new Int32Array(m);
  const off = new Uint32Array(m + 1);
  const out = [];
  const simplified = new Array(m);
  const bySource = new Map();
  for (let e = 0; e < m; e++) {
    const route = simplify(pts, ptOff[e], ptOff[e + 1]);
    simplified[e] = route;
    let best = -1, bestN = 0;
    const previous = bySource.get(src[e]);
    if (previous) {
      for (const f of previous) {
        const other = simplified[f];
        const limit = Math.min(other.length, route.length - 2) / 2;
        let k = 0;
        while (k < limit && other[2 * k] === route[2 * k] && other[2 * k + 1] === route[2 * k + 1]) k++;
        if (k > bestN) { bestN = k; best = f; }
      }
      if (previous.length < 8) previous.push(e); else previous[7] = e;
    } else {
      bySource.set(src[e], [e]);
    }
    const start = bestN >= 3 ? bestN : 0;
    if (start) { share[e] = best; shareN[e] = start; }
    for (let k = 2 * start; k < route.length; k++) out.push(route[k]);
    off[e + 1] = out.length / 2;
  }
  return { ptOff: off, pts: Float64Array.from(out), share, shareN };
}

function simplify(pts, a, b) {
  const r = [];
  for (let k = a; k < b; k++) {
    const x = Math.round(pts[2 * k] * 10) / 10, y = Math.round(pts[2 * k + 1] * 10) / 10;
    r.push(x, y);
  }
  return r;
}

// Point k of edge e's full route.
export function routePoint(L, e, k) {
  for (let guard = 0; guard < 64 && L.share[e] >= 0 && k < L.shareN[e]; guard++) e = L.share[e];
  const i = L.ptOff[e] + (k - (L.share[e] >= 0 ? L.shareN[e] : 0));
  return [L.pts[2 * i], L.pts[2 * i + 1]];
}

// Where each edge's own points join its trunk: (jx, jy), NaN when the edge shares nothing.
export function junctions(L) {
  const m = L.ptOff.length - 1;
  const jx = new Float64Array(m).fill(NaN);
  const jy = new Float64Array(m).fill(NaN);
  for (let e = 0; e < m; e++) {
    if (L.share[e] < 0) continue;
    const [x, y] = routePoint(L, L.share[e], L.shareN[e] - 1);
    jx[e] = x;
    jy[e] = y;
  }
  return { jx, jy };
}

// Every point of edge e's route, for highlighting and the panel.
export function fullRoute(L, e) {
  const own = [];
  for (let k = L.ptOff[e]; k < L.ptOff[e + 1]; k++) own.push(L.pts[2 * k], L.pts[2 * k + 1]);
  if (L.share[e] < 0) return own;
  const head = [];
  for (let k = 0; k < L.shareN[e]; k++) head.push(...routePoint(L, L.share[e], k));
  return head.concat(own);
}
