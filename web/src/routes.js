// Edge routes with shared trunks. The layout engine bundles long edges that leave one source
// (a model input feeding every block) into one trunk, so their polylines repeat the same
// leading points, thousands of them. Routes are kept compact: edge e lists only its own points
// after the first shareN[e] points, which it shares with edge share[e]. The compact form is
// made in C++ (src/layout/route_sharing.h), by the page writer and by the WebAssembly module.

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
