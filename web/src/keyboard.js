// The viewer's own keys, bound in the page's one key map (keys.js) in the order the help card
// lists them, and the arrow keys' walk along the graph. Overlays bind theirs after these.
//
// main.js calls bindViewerKeys(host) and, once the overlays have bound theirs, fillHelp(keys).
// Uses of the host: keys, view, state, width, height, fit(), zoomBy(factor), zoomToNode(i),
// selectNode(i, {center}), clearSelection(), focusSearch(), clearSearch(), setAllExpanded(level),
// stepDepth(step), toggleFlatten(), toggleShapes(), toggleQdq(), toggleTheme(), togglePanel(),
// toggleHelp(force).
import { $ } from './dom.js';
import { renderHelp } from './keys.js';

/** @param {import('./main.js').App} host */
export function bindViewerKeys(host) {
  const k = host.keys;
  k.bind('f', 'fit the whole graph', () => host.fit());
  k.bind('z', 'zoom to the selected node', () => {
    if (host.state.node >= 0) host.zoomToNode(host.state.node);
  });
  k.bind('/', 'search (op, name, module path or /regex/); Enter in search jumps to the next match', () =>
    host.focusSearch(),
  );
  k.bind(['ArrowUp', 'ArrowDown'], 'walk to a producer / consumer', (ev) =>
    walk(host, ev.key === 'ArrowUp' ? 'up' : 'down'),
  );
  k.bind(['ArrowLeft', 'ArrowRight'], 'walk to the neighbour in the same layer', (ev) =>
    walk(host, ev.key === 'ArrowLeft' ? 'left' : 'right'),
  );
  k.bind(['e', 'c'], 'expand all / collapse all groups', (ev) => host.setAllExpanded(ev.key === 'e' ? Infinity : 0));
  k.bind([',', '.'], 'hierarchy one level shallower / deeper (the depth slider)', (ev) =>
    host.stepDepth(ev.key === '.' ? 1 : -1),
  );
  k.bind('l', 'flatten: hide module boxes / show them again', () => host.toggleFlatten());
  k.bind(['s', 'q'], 'tensor shapes on edges / QDQ cluster outlines', (ev) =>
    ev.key === 's' ? host.toggleShapes() : host.toggleQdq(),
  );
  k.bind('t', 'light / dark theme', () => host.toggleTheme());
  k.bind('i', 'show / hide the details panel', () => host.togglePanel());
  k.bind(['+', '=', '-'], 'zoom in / out', (ev) => host.zoomBy(ev.key === '-' ? 0.8 : 1.25));
  k.bind('?', 'this list', () => host.toggleHelp());
  k.bind('Escape', 'clear selection and search', () => {
    host.toggleHelp(false);
    host.clearSearch();
    host.clearSelection();
  });
}

// The help card: every key bound (the viewer's and the overlays'), then the mouse gestures.
export function fillHelp(keys) {
  renderHelp($('help-keys'), keys, [
    ['wheel, pinch', 'zoom (0.02× – 8×)'],
    ['drag', 'pan'],
    ['click a group', 'expand / collapse it'],
    ['legend entry', 'fade that category'],
  ]);
}

// Walks from the selected node: up to a producer, down to a consumer, left or right to the
// nearest node in the same layer. With nothing selected, selects the first visible node.
function walk(host, dir) {
  const v = host.view;
  const m = v.model;
  const L = v.layout;
  const i = host.state.node;
  if (i < 0) {
    if (v.boxes.nodes.length) host.selectNode(v.boxes.nodes[0], { center: true });
    return;
  }
  const cx = L.nx[i] + L.nw[i] / 2;
  let best = -1,
    bestD = Infinity;
  if (dir === 'up' || dir === 'down') {
    // The nearest visible producer / consumer; when all are inside collapsed boxes, the
    // first one (selecting it opens its boxes).
    const edges = dir === 'up' ? m.inEdges.of(i) : m.outEdges.of(i);
    let hidden = -1;
    for (const e of edges) {
      const n = dir === 'up' ? m.e.src[e] : m.e.dst[e];
      if (!v.isVisible(n)) {
        if (hidden < 0) hidden = n;
        continue;
      }
      const d = Math.abs(L.nx[n] + L.nw[n] / 2 - cx);
      if (d < bestD) {
        bestD = d;
        best = n;
      }
    }
    if (best < 0 && hidden >= 0) {
      host.selectNode(hidden, { center: true });
      return;
    }
  } else {
    const cy = L.ny[i] + L.nh[i] / 2;
    for (const n of v.boxes.nodes) {
      if (n === i || Math.abs(L.ny[n] + L.nh[n] / 2 - cy) > L.nh[i]) continue;
      const d = L.nx[n] + L.nw[n] / 2 - cx;
      if (dir === 'left' ? d < 0 && -d < bestD : d > 0 && d < bestD) {
        bestD = Math.abs(d);
        best = n;
      }
    }
  }
  if (best >= 0) {
    host.selectNode(best);
    const [sx, sy] = v.camera.toScreen(L.nx[best] + L.nw[best] / 2, L.ny[best] + L.nh[best] / 2);
    if (sx < 40 || sy < 40 || sx > host.width - 40 || sy > host.height - 40) host.zoomToNode(best);
  }
}
