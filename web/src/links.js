// Pictures and links: the graph as it is open saved as SVG or PNG (export_view.js), and the
// page's address naming the selected node, so a link reopens the page on that node.
//
// Gives the host (main.js): saveSvg(), savePng(), rememberSelection(i), copyNodeLink(i),
// openLink(), openFlatLink(); nodeLink(i) and resolveLink(hash) for the test facade.
// Uses of the host: models, model, state, selectGraph(i), selectNode(i, {center}),
// toggleFlatten(force), toast(text), and what export_view.js reads.
import { $ } from './dom.js';
import { viewToSvg, viewToPng, download, pictureName } from './export_view.js';

export class Links {
  /** @param {import('./main.js').App} host */
  constructor(host) {
    this.host = host;
    this.linkFlat = false;
    $('btn-save-svg').addEventListener('click', () => this.saveSvg());
    $('btn-save-png').addEventListener('click', () => this.savePng());
  }

  saveSvg() {
    download(new Blob([viewToSvg(this.host)], { type: 'image/svg+xml' }), pictureName(this.host, 'svg'));
  }
  async savePng() {
    const png = await viewToPng(this.host, 2);
    if (png.scale < 1)
      this.host.toast(
        `The graph is large: the PNG is drawn at ${Math.round(png.scale * 100)}% (${png.width} × ${png.height} px); SVG keeps every detail.`,
      );
    download(png.blob, pictureName(this.host, 'png'));
  }
  // The page's address with the selected node in its fragment: #graph=forward&node=aten_add_3
  // (&flat=1 when module boxes are hidden). Names need not be unique (a Model Explorer graph
  // or a TOSA graph may repeat one, an app page may hold two files' "forward"): a shared name
  // carries which of its holders is meant, counted in page order (&gn=1 for the second graph of
  // that name, &nn=2 for the third node of that name). Opening it selects that node again
  // (openLink), in the same reading.
  nodeLink(i) {
    const h = this.host;
    const graph = occurrence(h.models, h.models.length, (g) => h.models[g].name, h.state.graph);
    const node = occurrence(h.model, h.model.nodeCount, (k) => h.model.nodeName(k), i);
    const params = new URLSearchParams({ graph: graph.name, node: node.name });
    if (graph.shared) params.set('gn', String(graph.k));
    if (node.shared) params.set('nn', String(node.k));
    if (h.state.flatten) params.set('flat', '1');
    return `${location.href.split('#')[0]}#${params}`;
  }
  rememberSelection(i) {
    try {
      history.replaceState(null, '', i >= 0 ? this.nodeLink(i) : location.href.split('#')[0]);
    } catch {
      /* a sandboxed frame: no address to keep */
    }
  }
  copyNodeLink(i) {
    const link = this.nodeLink(i);
    const done = () => this.host.toast('Link to this node copied.');
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(link).then(done, () => this.host.toast(`Link: ${link}`));
    } else {
      this.host.toast(`Link: ${link}`);
    }
  }
  // What a link's fragment names: {graph, node} (indices; node -1 when it names none) or
  // {error} saying what the page does not hold.
  resolveLink(hash) {
    const h = this.host;
    const params = new URLSearchParams(hash.replace(/^#/, ''));
    const graph = params.get('graph'),
      node = params.get('node');
    let g = h.state.graph;
    if (graph !== null) {
      g = nth(h.models.length, (k) => h.models[k].name === graph, count(params.get('gn')));
      if (g < 0) return { error: `The link names graph '${graph}', which this page does not hold.` };
    }
    if (node === null) return { graph: g, node: -1 };
    const m = h.models[g];
    const i = nth(m.nodeCount, (k) => m.nodeName(k) === node, count(params.get('nn')));
    if (i < 0) return { error: `The link names node '${node}', which graph '${m.name}' does not hold.` };
    return { graph: g, node: i };
  }
  openLink() {
    const h = this.host;
    if (!location.hash.replace(/^#/, '')) return;
    // Flat needs the layout engine, which loads after the page shows: applied then
    // (openFlatLink), and the node selected again, so it is centred in the flat drawing.
    this.linkFlat = new URLSearchParams(location.hash.replace(/^#/, '')).get('flat') === '1';
    const to = this.resolveLink(location.hash);
    if (to.error) {
      h.toast(to.error);
      return;
    }
    if (to.graph !== h.state.graph) h.selectGraph(to.graph);
    if (to.node >= 0) h.selectNode(to.node, { center: true });
  }
  // The layout engine is there: a link that asked for the flat reading gets it now.
  openFlatLink() {
    if (!this.linkFlat) return;
    const node = this.host.state.node;
    this.host.toggleFlatten(true);
    if (node >= 0) this.host.selectNode(node, { center: true });
  }
}

// Which holder of its name item i is: {name, k (0 for the first holder), shared (another item
// has the name too)}. The holders of each name are listed once per list of items (`owner`: the
// model, or the models' array), so a link costs one lookup after the first.
const holdersOf = new WeakMap();
function occurrence(owner, n, nameOf, i) {
  let holders = holdersOf.get(owner);
  if (!holders || holders.n !== n) {
    holders = { n, byName: new Map() };
    for (let j = 0; j < n; j++) {
      const name = nameOf(j);
      const list = holders.byName.get(name);
      if (list) list.push(j);
      else holders.byName.set(name, [j]);
    }
    holdersOf.set(owner, holders);
  }
  const name = nameOf(i);
  const list = holders.byName.get(name) || [i];
  return { name, k: Math.max(0, list.indexOf(i)), shared: list.length > 1 };
}
// The k-th item (from 0) for which is(item) holds, or -1.
function nth(n, is, k) {
  for (let j = 0; j < n; j++) if (is(j) && k-- === 0) return j;
  return -1;
}
// A link's occurrence number: absent or malformed is the first holder.
const count = (text) => (text !== null && /^\d{1,9}$/.test(text) ? Number(text) : 0);
