// What the user has chosen, apart from geometry: the graph on show, the selection, search
// matches, faded categories and display toggles. Every change goes through set*() and ends
// in one 'change' event naming what changed, so the frame loop, the panel and overlays react
// to the same signal instead of calling each other.

export class ViewerState {
  constructor(categoryCount) {
    this.graph = -1;
    this.node = -1; // selected node, or -1
    this.edge = -1; // selected edge, or -1
    this.group = -1; // selected group, or -1
    this.matches = null; // search matches (node ids) or null
    this.catHidden = new Uint8Array(categoryCount);
    // Tensor shapes on edges: on, drawn where they fit (render.js, SHAPE_MIN_SCALE).
    this.showShapes = true;
    // Module boxes dissolved (flatten), for every graph of the page.
    this.flatten = false;
    this.showQdq = false;
    this.listeners = [];
  }

  // listener(what, state): what is 'graph' | 'selection' | 'matches' | 'categories' | 'display'.
  on(listener) {
    this.listeners.push(listener);
  }
  emit(what) {
    for (const l of this.listeners) l(what, this);
  }

  setGraph(i) {
    this.graph = i;
    this.node = this.edge = this.group = -1;
    this.matches = null;
    this.emit('graph');
  }
  select({ node = -1, edge = -1, group = -1 } = {}) {
    this.node = node;
    this.edge = edge;
    this.group = group;
    this.emit('selection');
  }
  setMatches(matches) {
    this.matches = matches && matches.length ? matches : null;
    this.emit('matches');
  }
  toggleCategory(k) {
    this.catHidden[k] ^= 1;
    this.emit('categories');
  }
  setDisplay(name, on) {
    this[name] = on;
    this.emit('display');
  }
}
