// window.etvizTest: the documented, stable way for browser tests and benchmarks to drive and
// inspect the page (docs/viewer.md, "Test facade"). Tests use this, never the viewer's
// internals, so the viewer can change shape without rewriting them. Everything returned is a
// plain value or a copy.

import { decodeData } from './data.js';
import { READABLE_SCALE } from './first_view.js';
import { fitLabel } from './label_fit.js';

// Typed arrays (decoded columns) as plain arrays, so data decoded from any encoding compares.
const plain = (v) => {
  if (ArrayBuffer.isView(v)) return Array.from(/** @type {Int32Array | Float64Array} */ (v));
  if (Array.isArray(v)) return v.map(plain);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
};

/** @param {import('./main.js').App} app */
export function installTestFacade(win, app) {
  const model = () => app.model;
  const view = () => app.view;
  const copyLayout = (L) => ({
    nx: Array.from(L.nx),
    ny: Array.from(L.ny),
    nw: Array.from(L.nw),
    nh: Array.from(L.nh),
    gx: Array.from(L.gx),
    gy: Array.from(L.gy),
    gw: Array.from(L.gw),
    gh: Array.from(L.gh),
    ptOff: Array.from(L.ptOff),
    pts: Array.from(L.pts),
    share: Array.from(L.share),
    shareN: Array.from(L.shareN),
    lx: Array.from(L.lx),
    ly: Array.from(L.ly),
  });
  // Page coordinates of world point (wx, wy) of the shown graph.
  const toPage = (wx, wy) => {
    const [x, y] = view().camera.toScreen(wx, wy);
    const r = app.canvas.getBoundingClientRect();
    return [r.left + x, r.top + y];
  };
  const nextFrame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));

  win.etvizTest = {
    // Resolves once the WebAssembly engine has loaded or failed: true when re-layout works.
    ready: () => app.engineSettled.then(() => !!app.engine),
    engineError: () => app.engineError || null,

    // Graphs of the page and the one on show.
    graphs: () =>
      app.models.map((m) => ({
        name: m.name,
        file: m.file,
        irNodes: m.irNodes,
        nodes: m.nodeCount,
        edges: m.edgeCount,
        groups: m.groupCount,
      })),
    // The page's category table (the first file's data.cats): {id, label, color, rule}.
    categories: () => app.files[0].cats.map((c) => ({ ...c })),
    files: () => app.files.map((d) => ({ name: d.file.name, format: d.file.format, graphs: d.graphs.length })),
    // Every data element of the page (etviz-data*, etviz-profile, ...) decoded as the viewer
    // decodes it, as plain values: pages of the same files are equal whatever their encoding
    // (JSON, gzip columns, the app's raw columns).
    pageData: async () => {
      const out = {};
      for (const el of document.querySelectorAll('script[type="application/json"][id^="etviz-"]'))
        out[el.id] = plain(await decodeData(el));
      return out;
    },
    graph: () => app.state.graph,
    selectGraph: (i) => app.selectGraph(i),

    // Nodes of the shown graph.
    node: (i) => {
      const m = model();
      return {
        op: m.nodeOp(i),
        name: m.nodeName(i),
        label: m.nodeLabel(i),
        kind: m.nodeKind(i),
        instr: m.n.instr[i],
        group: m.n.group[i],
        delegate: m.n.deleg[i],
        drawnAt: m.nodeDrawnAt(i),
        category: m.data.cats[m.n.cat[i]].id,
        visible: view().isVisible(i),
      };
    },
    // The lines the canvas writes in node i's box (label_fit.js: one, or two for a long label).
    labelLines: (i) => fitLabel(app.canvas.getContext('2d'), model().nodeLabel(i), view().layout.nw[i] - 14).lines,
    findNodes: (op) => {
      const m = model();
      const out = [];
      for (let i = 0; i < m.nodeCount; i++) if (m.nodeOp(i) === op) out.push(i);
      return out;
    },
    producers: (i) => Array.from(model().inEdges.of(i), (e) => model().e.src[e]),
    consumers: (i) => Array.from(model().outEdges.of(i), (e) => model().e.dst[e]),
    selected: () => ({ node: app.state.node, edge: app.state.edge, group: app.state.group }),
    selectNode: (i) => app.selectNode(i, { center: true }),
    // Graph g's nodes whose copied link does not open them again ({node, link, opens}), and
    // how many links tell a shared node name apart.
    linkMisses: (g) => {
      if (g !== app.state.graph) app.selectGraph(g);
      const misses = [];
      let shared = 0;
      for (let i = 0; i < app.model.nodeCount; i++) {
        const link = app.nodeLink(i);
        if (link.includes('&nn=')) shared++;
        const to = app.resolveLink(link.slice(link.indexOf('#')));
        if (to.graph !== g || to.node !== i) misses.push({ node: i, link, opens: to });
      }
      return { misses, shared };
    },
    // Brings node i on screen and returns its centre in page coordinates.
    nodePoint: (i) => {
      app.zoomToNode(i);
      const L = view().layout;
      return toPage(L.nx[i] + L.nw[i] / 2, L.ny[i] + L.nh[i] / 2);
    },

    // Groups of the shown graph.
    groupCount: () => model().groupCount,
    group: (g) => ({
      name: model().groupName(g),
      label: model().groupLabel(g),
      kind: model().groupKind(g),
      parent: model().g.parent[g],
      count: model().g.count[g],
      badge: model().groupBadge(g),
      expanded: !!view().expanded[g],
      attributes: model().groupAttributes(g),
    }),
    collapsedGroups: () => Array.from(view().boxes.collapsed),
    // Nodes whose innermost group is g.
    directNodes: (g) => {
      const m = model();
      let n = 0;
      for (let i = 0; i < m.nodeCount; i++) if (m.n.group[i] === g) n++;
      return n;
    },
    // Brings group g on screen and returns a point on its box (its left part) in page coordinates.
    groupPoint: (g) => {
      app.zoomToGroup(g);
      const L = view().layout;
      return toPage(L.gx[g] + 10, L.gy[g] + Math.min(L.gh[g] / 2, 12));
    },
    groupContains: (g, pageX, pageY) => {
      const r = app.canvas.getBoundingClientRect();
      const [wx, wy] = view().camera.toWorld(pageX - r.left, pageY - r.top);
      const L = view().layout;
      return wx >= L.gx[g] && wx <= L.gx[g] + L.gw[g] && wy >= L.gy[g] && wy <= L.gy[g] + L.gh[g];
    },
    toggleGroup: async (g) => {
      const t = performance.now();
      app.toggleGroup(g);
      await nextFrame();
      return { ms: performance.now() - t, layoutMs: app.timings().lastToggleMs, expanded: !!view().expanded[g] };
    },
    // Groups whose parent is g.
    childGroups: (g) => {
      const m = model();
      let n = 0;
      for (let k = 0; k < m.groupCount; k++) if (m.g.parent[k] === g) n++;
      return n;
    },
    // Group g selected (as a click on it does, without toggling): its panel.
    selectGroup: (g) => app.selectGroup(g),
    // What group g holds: {ops: [[op, count]], tensors, parameters, bytes}.
    groupContents: (g) => model().groupContents(g),
    // Flatten (module boxes dissolved) and the depth slider: {level, levels} of the shown graph.
    flat: () => view().flat,
    setFlat: async (on) => {
      const t = performance.now();
      app.toggleFlatten(on);
      await nextFrame();
      return { ms: performance.now() - t, layoutMs: app.timings().lastToggleMs };
    },
    depth: () => {
      const slider = /** @type {HTMLInputElement} */ (document.getElementById('depth'));
      return { level: Number(slider.value), levels: Number(slider.max), disabled: slider.disabled };
    },
    setDepth: async (level) => {
      const t = performance.now();
      app.setDepth(level);
      await nextFrame();
      return { ms: performance.now() - t, layoutMs: app.timings().lastToggleMs };
    },
    // Every box drawn, as rectangles in layout units: visible nodes, collapsed groups and
    // expanded group frames, each with the frames it is inside (`within`, innermost first), so
    // tests can check that no two boxes overlap unless one holds the other.
    drawnBoxes: () => {
      const v = view();
      const L = v.layout;
      const h = v.hierarchy;
      const chain = (g) => {
        const out = [];
        for (let p = g, k = 0; p >= 0 && k <= h.parent.length; p = h.parent[p], k++) out.push(p);
        return out;
      };
      const out = [];
      for (const i of v.boxes.nodes)
        out.push({ node: i, x: L.nx[i], y: L.ny[i], w: L.nw[i], h: L.nh[i], within: chain(h.nodeGroup[i]) });
      for (const g of v.boxes.collapsed)
        out.push({
          group: g,
          collapsed: true,
          x: L.gx[g],
          y: L.gy[g],
          w: L.gw[g],
          h: L.gh[g],
          within: chain(h.parent[g]),
        });
      for (const g of v.boxes.frames)
        out.push({
          group: g,
          collapsed: false,
          x: L.gx[g],
          y: L.gy[g],
          w: L.gw[g],
          h: L.gh[g],
          within: chain(h.parent[g]),
        });
      return out;
    },
    // Page coordinates of world point (wx, wy) of the shown graph, the camera unchanged.
    pagePoint: (wx, wy) => toPage(wx, wy),
    // What the last frame drew: {nodes, edges, shapeLabels (tensor shapes written on edges)}.
    frameStats: () => {
      const { shapeTexts, ...stats } = app.lastFrameStats || {};
      return stats;
    },
    // The tensor labels the last frame wrote on edges (of the current pane): [{value, text}].
    edgeLabels: () =>
      Array.from((app.lastFrameStats && app.lastFrameStats.shapeTexts) || [], ([value, text]) => ({ value, text })),
    visibleNodes: () => view().boxes.nodes.length,
    // Boxes on screen: visible nodes plus collapsed groups.
    visibleBoxes: () => view().boxes.nodes.length + view().boxes.collapsed.length,

    // The layout on show, the one embedded in the page, and a WebAssembly run of the initial
    // expand state (which must equal the embedded one).
    layout: () => copyLayout(view().layout),
    embeddedLayout: () => copyLayout(model().initialLayout),
    relayoutInitial: () => (app.engine ? copyLayout(app.engine.run(model(), model().initialExpanded)) : null),
    initiallyVisible: () => {
      const v = view();
      const keep = v.expanded;
      v.expanded = Uint8Array.from(model().initialExpanded);
      v.setLayout(v.layout);
      const out = Array.from(v.vis.nodeRep, (r) => (r < 0 ? 1 : 0));
      v.expanded = keep;
      v.setLayout(v.layout);
      return out;
    },

    // Camera and frames.
    zoom: () => view().camera.scale,
    // The zoom below which node labels are too small to read (first_view.js), and whether the
    // camera is still where the first view put it.
    readableZoom: () => READABLE_SCALE,
    firstViewKept: () => app.cameraIsAuto(view()),
    setZoom: (s) => {
      view().camera.zoomAt(app.width / 2, app.height / 2, s / view().camera.scale);
      app.requestRender();
    },
    frame: nextFrame,
    // Texts one frame of the main canvas writes over each other: draws a frame, recording each
    // fillText's box on screen (its measured width and ink height, through the transform), and
    // returns the pairs whose boxes overlap by more than a pixel each way (a text drawn twice at
    // one place, as a halo and its fill, is one text).
    textOverText: () => {
      const ctx = app.canvas.getContext('2d');
      /** @type {{t: string, x0: number, x1: number, y0: number, y1: number}[]} */
      const boxes = [];
      const fill = ctx.fillText;
      ctx.fillText = function (t, x, y, maxWidth) {
        const m = ctx.measureText(t);
        const T = ctx.getTransform();
        const left =
          x -
          (ctx.textAlign === 'center'
            ? m.width / 2
            : ctx.textAlign === 'right' || ctx.textAlign === 'end'
              ? m.width
              : 0);
        if (ctx.globalAlpha > 0.3 && String(t).trim())
          boxes.push({
            t: String(t),
            x0: T.a * left + T.e,
            x1: T.a * (left + m.width) + T.e,
            y0: T.d * (y - m.actualBoundingBoxAscent) + T.f,
            y1: T.d * (y + m.actualBoundingBoxDescent) + T.f,
          });
        return fill.call(ctx, t, x, y, maxWidth);
      };
      try {
        app.frame();
      } finally {
        delete ctx.fillText;
      }
      const pairs = [];
      for (let i = 0; i < boxes.length; i++)
        for (let j = i + 1; j < boxes.length; j++) {
          const a = boxes[i],
            b = boxes[j];
          const ox = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0),
            oy = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
          if (ox > 1 && oy > 1) pairs.push(`'${a.t}' x '${b.t}'`);
        }
      return pairs;
    },
    frameTimes: () => app.frameTimes.slice(),
    clearFrameTimes: () => {
      app.frameTimes.length = 0;
    },
    // Pans and zooms on every animation frame for `frames` frames; resolves with the intervals
    // between frames (the browser's whole frame cost, not only the viewer's drawing).
    animate: (frames) =>
      new Promise((resolve) => {
        const out = [];
        let last = 0,
          k = 0;
        const step = (t) => {
          if (last) out.push(t - last);
          last = t;
          view().camera.panBy(6 * Math.sin(k / 9), 4 * Math.cos(k / 7));
          view().camera.zoomAt(app.width / 2, app.height / 2, k % 40 < 20 ? 1.01 : 1 / 1.01);
          app.frame();
          if (++k < frames) requestAnimationFrame(step);
          else resolve(out);
        };
        requestAnimationFrame(step);
      }),
    // The minimap: shown or not, and the size the drawing gets in it (CSS pixels).
    minimap: () => {
      const t = app.minimap.transform;
      return {
        hidden: document.getElementById('minimap').hidden,
        width: (t && t.drawW) || 0,
        height: (t && t.drawH) || 0,
      };
    },
    canvasPixel: (x, y) => Array.from(app.canvas.getContext('2d').getImageData(x, y, 1, 1).data),
    timings: () => {
      const t = app.timings();
      return { firstPaint: t.firstPaint, warmupMs: t.warmupMs ?? null, lastLayoutMs: t.lastLayoutMs ?? null };
    },

    // An overlay's own helpers ('profile': mode, setMode, hottest, bucket, steps, styles).
    overlay: (id) => {
      const o = app.overlays.get(id);
      return o && o.facade ? o.facade() : null;
    },
    nodeStylesActive: () => !!app.overlays.nodeStyles(),
  };
}
