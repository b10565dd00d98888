// Pictures and links: the graph as it is open saved as SVG or PNG (export_view.js), and the
// page's address naming the selected node, so a link reopens the page on that node.
//
// Gives the host (main.js): saveSvg(), savePng(), rememberSelection(i), copyNodeLink(i),
// openLink(), openFlatLink().
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
  // (&flat=1 when module boxes are hidden). Opening it selects that node again (openLink), in
  // the same reading.
  nodeLink(i) {
    const params = new URLSearchParams({ graph: this.host.model.name, node: this.host.model.nodeName(i) });
    if (this.host.state.flatten) params.set('flat', '1');
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
  openLink() {
    const h = this.host;
    const hash = location.hash.replace(/^#/, '');
    if (!hash) return;
    const params = new URLSearchParams(hash);
    const graph = params.get('graph'),
      node = params.get('node');
    // Flat needs the layout engine, which loads after the page shows: applied then
    // (openFlatLink), and the node selected again, so it is centred in the flat drawing.
    this.linkFlat = params.get('flat') === '1';
    if (graph !== null) {
      const g = h.models.findIndex((m) => m.name === graph);
      if (g < 0) {
        h.toast(`The link names graph '${graph}', which this page does not hold.`);
        return;
      }
      if (g !== h.state.graph) h.selectGraph(g);
    }
    if (node === null) return;
    const m = h.model;
    for (let i = 0; i < m.nodeCount; i++)
      if (m.nodeName(i) === node) {
        h.selectNode(i, { center: true });
        return;
      }
    h.toast(`The link names node '${node}', which graph '${m.name}' does not hold.`);
  }
  // The layout engine is there: a link that asked for the flat reading gets it now.
  openFlatLink() {
    if (!this.linkFlat) return;
    const node = this.host.state.node;
    this.host.toggleFlatten(true);
    if (node >= 0) this.host.selectNode(node, { center: true });
  }
}
