// The search box: its query run over the graph on show (search.js), the list of results under
// it, every match outlined (the state's matches), and Enter / Shift+Enter walking through them.
//
// Gives the host (main.js): runSearch(), searchFor(query), clearSearch(), focusSearch().
// Uses of the host: model, state, overlays, canvas, isHidden(i), selectNode(i, {center}).
import { $ } from './dom.js';
import { searchNodes, RESULT_LIST_LIMIT } from './search.js';

export class SearchBox {
  /** @param {import('./main.js').App} host */
  constructor(host) {
    this.host = host;
    this.input = /** @type {HTMLInputElement} */ ($('search'));
    this.matchList = [];
    this.matchCursor = -1;
    const search = this.input;
    search.addEventListener('input', () => this.runSearch());
    search.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter') {
        ev.preventDefault();
        this.nextMatch(ev.shiftKey ? -1 : 1);
      }
      if (ev.key === 'Escape') {
        this.clearSearch();
        search.blur();
        host.canvas.focus();
      }
    });
    search.addEventListener('blur', () =>
      setTimeout(() => {
        $('search-results').hidden = true;
      }, 150),
    );
    search.addEventListener('focus', () => {
      if (search.value.trim()) $('search-results').hidden = false;
    });
  }

  runSearch() {
    const h = this.host;
    const q = this.input.value;
    const box = $('search-results');
    const r = searchNodes(h.model, q);
    if (r.all && h.overlays.nodeStyles()) {
      // Only what the graph on show holds (a step of a timeline hides the rest).
      r.all = r.all.filter((i) => !h.isHidden(i));
      r.results = r.results.filter((i) => !h.isHidden(i));
      r.total = r.all.length;
    }
    this.matchList = r.all || [];
    this.matchCursor = -1;
    h.state.setMatches(r.all);
    box.replaceChildren();
    if (!q.trim()) {
      box.hidden = true;
      return;
    }
    const summary = document.createElement('div');
    summary.className = 'summary';
    summary.textContent =
      r.error ||
      `${r.total.toLocaleString('en-US')} match${r.total === 1 ? '' : 'es'}${r.total > r.results.length ? ` (first ${r.results.length} listed, all outlined)` : ''} · Enter jumps · op: name: module: class: shape: dtype: category:`;
    box.appendChild(summary);
    const m = h.model;
    for (const i of r.results.slice(0, RESULT_LIST_LIMIT)) {
      const item = document.createElement('div');
      item.className = 'res';
      item.dataset.node = String(i);
      const op = document.createElement('span');
      op.className = 'op';
      op.textContent = m.nodeOp(i);
      const nm = document.createElement('span');
      nm.className = 'nm';
      nm.textContent = m.nodeModule(i) || m.nodeName(i);
      item.append(op, nm);
      // Picking a result closes the list (the matches stay outlined; focus the box to reopen it).
      item.addEventListener('mousedown', (ev) => {
        ev.preventDefault();
        box.hidden = true;
        h.selectNode(i, { center: true });
      });
      box.appendChild(item);
    }
    box.hidden = false;
  }
  // The graph on show changed: a query in the box is run on it.
  graphChanged() {
    if (this.input.value) this.runSearch();
  }
  nextMatch(step = 1) {
    if (!this.matchList.length) return;
    this.matchCursor = (this.matchCursor + step + this.matchList.length) % this.matchList.length;
    const i = this.matchList[this.matchCursor];
    this.host.selectNode(i, { center: true });
    const box = $('search-results');
    for (const el of box.querySelectorAll('.res'))
      el.classList.toggle('active', Number(/** @type {HTMLElement} */ (el).dataset.node) === i);
  }
  // Runs a search as if typed, and jumps to the first match.
  searchFor(q) {
    this.input.value = q;
    this.runSearch();
    $('search-results').hidden = true;
    this.nextMatch();
  }
  clearSearch() {
    this.input.value = '';
    this.runSearch();
  }
  focusSearch() {
    this.input.focus();
  }
}
