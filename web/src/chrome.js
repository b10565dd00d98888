// The chrome around the canvas: the header (file name and figures, the file and graph
// selectors), the category legend, the theme, the details panel's width and visibility, the
// help card, the toggle buttons for shapes and QDQ outlines, the error banner of a failed
// graph and the toast.
//
// Gives the host (main.js): theme; start(), showGraph(), syncLegends(), showGraphError(),
// foldLegendToFit(), setTheme(name), toggleTheme(), togglePanel(), toggleHelp(force),
// toggleShapes(), toggleQdq(), toast(text).
// Uses of the host: files, models, state, overlays, model, data, view, selectGraph(i),
// defaultGraph(file), invalidateOverview(), requestRender().
import { $ } from './dom.js';
import { formatBytes, visibleControls } from './data.js';
import { readTheme } from './theme.js';

export class Chrome {
  /** @param {import('./main.js').App} host */
  constructor(host) {
    this.host = host;
    this.theme = null;
    this.headerFile = -1;
    this.legendFolded = null; // the reader's choice (a click on its title), else null
    $('btn-shapes').addEventListener('click', () => this.toggleShapes());
    $('btn-qdq').addEventListener('click', () => this.toggleQdq());
    $('btn-theme').addEventListener('click', () => this.toggleTheme());
    $('btn-help').addEventListener('click', () => this.toggleHelp());
    this.bindPanel();
  }

  start() {
    this.initTheme();
    $('btn-shapes').classList.toggle('on', this.host.state.showShapes);
    this.buildHeader();
  }

  // The graph on show changed: the header, the selectors and the legend follow.
  showGraph() {
    this.updateFileHeader();
    /** @type {HTMLSelectElement} */ ($('graph-select')).value = String(this.host.state.graph);
    this.updateMeta();
    this.buildLegend();
  }

  // ---- header --------------------------------------------------------------------------------
  buildHeader() {
    const h = this.host;
    const files = /** @type {HTMLSelectElement} */ ($('file-select'));
    const graphs = /** @type {HTMLSelectElement} */ ($('graph-select'));
    files.replaceChildren();
    h.files.forEach((d, f) => {
      const o = document.createElement('option');
      o.value = String(f);
      o.textContent = d.file.name;
      o.title = d.file.name;
      files.appendChild(o);
    });
    files.hidden = h.files.length < 2;
    files.addEventListener('change', () => h.selectGraph(h.defaultGraph(Number(files.value))));
    graphs.addEventListener('change', () => h.selectGraph(Number(graphs.value)));
  }

  // The header for the file on show: its name, and its graphs in the graph selector.
  updateFileHeader() {
    const h = this.host;
    const d = h.data;
    const f = h.model.file;
    if (this.headerFile === f) return;
    this.headerFile = f;
    $('file-name').textContent = d.file.name;
    $('file-name').title = d.file.name;
    /** @type {HTMLSelectElement} */ ($('file-select')).value = String(f);
    const sel = /** @type {HTMLSelectElement} */ ($('graph-select'));
    sel.replaceChildren();
    h.models.forEach((m, i) => {
      if (m.file !== f) return;
      const o = document.createElement('option');
      o.value = String(i);
      o.textContent = `${m.name || `graph ${i}`} (${m.irNodes})`;
      o.title = o.textContent;
      sel.appendChild(o);
    });
    sel.disabled = sel.options.length < 2;
  }

  updateMeta() {
    const d = this.host.data;
    const m = this.host.model;
    // The graph's own nodes and edges; inlined subgraphs (delegate payloads, bodies) apart.
    let rootEdges = 0;
    const root = m.nodeCount ? m.n.graph[0] : -1;
    for (let e = 0; e < m.edgeCount; e++)
      if (m.n.graph[m.e.src[e]] === root && m.n.graph[m.e.dst[e]] === root) rootEdges++;
    const graphs = d.graphs.length;
    const parts = [
      d.file.format.replace(/_/g, ' '),
      // A diff of two files has no one size (the CLI writes 0): left out.
      d.file.size ? formatBytes(d.file.size) : '',
      `${graphs} graph${graphs === 1 ? '' : 's'}`,
      `${m.irNodes.toLocaleString('en-US')} nodes`,
      `${rootEdges.toLocaleString('en-US')} edges`,
    ].filter(Boolean);
    if (m.nodeCount > m.irNodes)
      parts.push(
        `+${(m.nodeCount - m.irNodes).toLocaleString('en-US')} nodes, +${(m.edgeCount - rootEdges).toLocaleString('en-US')} edges in subgraphs`,
      );
    if (d.delegates.length) parts.push(`${d.delegates.length} delegate${d.delegates.length === 1 ? '' : 's'}`);
    // A damaged file (part of it cut off) says so first: the details are in the panel's notes.
    const damaged = d.diagnostics.some(([severity]) => severity === 'error');
    if (damaged) parts.unshift('✖ damaged: part of the file is missing (notes in the panel)');
    $('file-meta').classList.toggle('damaged', damaged);
    $('file-meta').textContent = parts.join(' · ');
    $('file-meta').title = parts.join(' · ');
    $('file-meta').dataset.nodes = String(m.irNodes);
  }

  // A graph that records a failure (a live trace whose forward pass raised, a failed pass of a
  // one-pass trace) says so in a banner over the canvas; the timeline overlay has its own.
  showGraphError() {
    let banner = $('graph-error');
    const timeline = this.host.overlays.get('timeline');
    const entry = timeline && timeline.active ? null : this.host.model.attrs.find(([k]) => k === 'error');
    if (!entry) {
      if (banner) banner.hidden = true;
      return;
    }
    if (!banner) {
      banner = document.createElement('div');
      banner.id = 'graph-error';
      banner.className = 'timeline-error graph-error';
      banner.setAttribute('role', 'alert');
      $('stage').appendChild(banner);
    }
    banner.textContent = `Failed: ${entry[1]}`;
    banner.hidden = false;
  }

  // Toasts quote what a link or a file named: its controls are shown, never obeyed.
  toast(text) {
    const t = $('toast');
    t.textContent = visibleControls(text);
    t.hidden = false;
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => {
      t.hidden = true;
    }, 4000);
  }

  // ---- legend --------------------------------------------------------------------------------
  // Narrow stages show the legend folded (it would cover a third of the canvas), until the
  // reader folds or opens it: the stage's final width decides, not the first one (a
  // notebook's iframe may start narrow).
  foldLegendToFit() {
    const stage = $('stage');
    if (this.legendFolded !== null || !stage.clientWidth) return;
    $('legend').classList.toggle('folded', stage.clientWidth < 760);
  }
  buildLegend() {
    const h = this.host;
    const m = h.model;
    const cats = h.files[0].cats;
    const counts = new Array(cats.length).fill(0);
    for (let i = 0; i < m.nodeCount; i++) counts[m.n.cat[i]]++;
    const legend = $('legend');
    legend.replaceChildren();
    const title = document.createElement('div');
    title.className = 'legend-title';
    title.textContent = 'Categories';
    title.title = 'Click to fold or unfold the legend';
    // Fitted views leave the legend room: its size changed.
    title.addEventListener('click', () => {
      this.legendFolded = legend.classList.toggle('folded');
      h.resize();
    });
    legend.appendChild(title);
    this.foldLegendToFit();
    cats.forEach((c, k) => {
      if (!counts[k]) return;
      const item = document.createElement('div');
      item.className = 'item' + (h.state.catHidden[k] ? ' off' : '');
      item.title = `${c.rule}\nClick to fade or show`;
      item.dataset.category = c.id;
      const sw = document.createElement('span');
      sw.className = 'sw';
      sw.style.background = c.color;
      const label = document.createElement('span');
      label.textContent = c.label;
      const count = document.createElement('span');
      count.className = 'count';
      count.textContent = counts[k].toLocaleString('en-US');
      item.append(sw, label, count);
      item.addEventListener('click', () => {
        h.state.toggleCategory(k);
        item.classList.toggle('off', !!h.state.catHidden[k]);
      });
      legend.appendChild(item);
    });
  }

  // The category legend shows unless an overlay colours the nodes with its own.
  syncLegends() {
    const styled = !!this.host.overlays.nodeStyles();
    $('legend').classList.toggle('heat-hidden', styled);
  }

  // ---- theme ---------------------------------------------------------------------------------
  initTheme() {
    let saved = null;
    try {
      saved = localStorage.getItem('etviz-theme');
    } catch (e) {
      /* file:// may forbid storage */
    }
    const system = window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
    this.setTheme(saved || system, false);
  }
  setTheme(name, remember = true) {
    document.documentElement.dataset.theme = name;
    if (remember)
      try {
        localStorage.setItem('etviz-theme', name);
      } catch (e) {
        /* ignore */
      }
    this.theme = readTheme(document.documentElement, this.host.files[0].cats);
    if (this.host.view) this.host.overlays.graphChanged();
    this.host.invalidateOverview();
  }
  toggleTheme() {
    this.setTheme(this.theme.dark ? 'light' : 'dark');
  }

  // ---- panel, help, display toggles ----------------------------------------------------------
  // The details panel: hide or show it (button, i), and resize it by dragging its left edge
  // (double-click resets); the width is remembered when the browser allows storage.
  bindPanel() {
    const panel = $('panel');
    const handle = $('panel-resize');
    let saved = null;
    try {
      saved = localStorage.getItem('etviz-panel-width');
    } catch (e) {
      /* file:// may forbid storage */
    }
    if (saved) document.documentElement.style.setProperty('--panel-width', `${Number(saved)}px`);
    $('btn-panel').addEventListener('click', () => this.togglePanel());
    handle.addEventListener('dblclick', () => {
      document.documentElement.style.removeProperty('--panel-width');
      try {
        localStorage.removeItem('etviz-panel-width');
      } catch (e) {
        /* ignore */
      }
    });
    handle.addEventListener('pointerdown', (ev) => {
      handle.setPointerCapture(ev.pointerId);
      handle.classList.add('dragging');
      const move = (e) => {
        const width = Math.round(
          Math.min(Math.max(document.body.clientWidth - e.clientX, 220), document.body.clientWidth * 0.7),
        );
        document.documentElement.style.setProperty('--panel-width', `${width}px`);
      };
      const up = () => {
        handle.classList.remove('dragging');
        handle.removeEventListener('pointermove', move);
        handle.removeEventListener('pointerup', up);
        try {
          localStorage.setItem('etviz-panel-width', String(panel.offsetWidth));
        } catch (e) {
          /* ignore */
        }
      };
      handle.addEventListener('pointermove', move);
      handle.addEventListener('pointerup', up);
    });
  }
  togglePanel(force) {
    const show = force !== undefined ? force : $('panel').hidden;
    $('panel').hidden = !show;
    $('panel-resize').hidden = !show;
    $('btn-panel').classList.toggle('on', show);
  }
  toggleHelp(force) {
    const h = $('help');
    h.hidden = force !== undefined ? !force : !h.hidden;
  }
  toggleShapes() {
    const on = !this.host.state.showShapes;
    $('btn-shapes').classList.toggle('on', on);
    this.host.state.setDisplay('showShapes', on);
  }
  toggleQdq() {
    const on = !this.host.state.showQdq;
    $('btn-qdq').classList.toggle('on', on);
    if (on && !this.host.model.qdq.length) this.toast('No QDQ clusters (dequantize → op → quantize) in this graph.');
    this.host.state.setDisplay('showQdq', on);
  }
}
