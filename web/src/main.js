// The viewer: the page's parts wired together (docs/viewer.md, "Shape of the viewer").
//
// App holds what the parts share: the page's files and graphs (data.js), what the user chose
// (state.js: every change ends in one change event), the key map (keys.js), the overlays
// (overlay.js) and the canvas. It is the host each part is given, and its members are the whole
// host API: a part calls these and nothing else of another part (the parts are App's private
// fields), as overlays use only their host API (overlayHostApi below). The reaction to a state
// change is written once, in onStateChange, so the order in which the parts follow it is too.
//
// Host API, by the part that answers it:
//   main.js            files, models, state, keys, overlays, canvas; view, model, data (the graph
//                      on show, its file's page data); start(), loadEngine(), dispose()
//   layout_control.js  engine, engineError, engineSettled, timings(); defaultGraph(file),
//                      selectGraph(i), relayout(), toggleGroup(g, screen), setDepth(level, folds),
//                      setAllExpanded(level), stepDepth(step), toggleFlatten(force)
//   frame.js           width, height, dpr, paneCount, renderer, minimap, frameTimes,
//                      lastFrameStats; resize(), requestRender(), invalidateOverview(), frame(),
//                      frameState(pane, k), paneAt(x), hitAt(x, y), isHidden(i)
//   camera_control.js  initialView(), placeCamera(view), fit(), zoomBy(factor), zoomToNode(i),
//                      zoomToGroup(g), cameraIsAuto(view)
//   selection.js       highlight; selectNode(i, {center}), selectEdge(e), selectGroup(g),
//                      clearSelection(), refreshPanel(), factsModel()
//   search_ui.js       searchFor(query), clearSearch(), focusSearch()
//   links.js           rememberSelection(i), copyNodeLink(i)
//   chrome.js          theme; toast(text), toggleTheme(), togglePanel(), toggleHelp(force),
//                      toggleShapes(), toggleQdq(), foldLegendToFit()
// keyboard.js and input.js turn keys and gestures into these calls; export_view.js, minimap.js
// and test_facade.js (window.etvizTest, what tests and benchmarks use) read the host as well.
import { $ } from './dom.js';
import { readEmbeddedFiles, GraphModel } from './data.js';
import { ViewerState } from './state.js';
import { KeyMap } from './keys.js';
import { OverlayHost } from './overlay.js';
import { LayoutControl } from './layout_control.js';
import { FrameLoop } from './frame.js';
import { CameraControl } from './camera_control.js';
import { Selection } from './selection.js';
import { SearchBox } from './search_ui.js';
import { Links } from './links.js';
import { Chrome } from './chrome.js';
import { Input } from './input.js';
import { bindViewerKeys, fillHelp } from './keyboard.js';
import { ProfileOverlay } from './profile_overlay.js';
import { TimelineOverlay } from './timeline_overlay.js';
import { MemoryOverlay } from './memory_overlay.js';
import { SizeOverlay } from './size_overlay.js';
import { NodeDataOverlay } from './node_data_overlay.js';
import { NumericsOverlay } from './numerics_overlay.js';
import { installTestFacade } from './test_facade.js';
import { startApp } from './app.js';

export class App {
  #layout;
  #frame;
  #camera;
  #selection;
  #search;
  #links;
  #chrome;
  #input;

  // `files`: the page data of each file the page holds (usually one).
  constructor(files) {
    this.files = files;
    // Every graph of every file, in file order; the graph selector lists the current file's.
    this.models = files.flatMap((data, f) => data.graphs.map((_, i) => new GraphModel(data, i, f)));
    this.state = new ViewerState(files[0].cats.length);
    this.keys = new KeyMap();
    this.canvas = /** @type {HTMLCanvasElement} */ ($('canvas'));
    this.overlays = new OverlayHost(this.#overlayHostApi());
    this.#layout = new LayoutControl(this);
    this.#frame = new FrameLoop(this);
    this.#camera = new CameraControl(this);
    this.#selection = new Selection(this);
    this.#search = new SearchBox(this);
    this.#links = new Links(this);
    this.#chrome = new Chrome(this);
    this.#input = new Input(this);
  }

  get view() {
    return this.#layout.view;
  }
  get model() {
    return this.view.model;
  }
  // The page data of the file on show (header, panel, delegates).
  get data() {
    return this.model.data;
  }

  get engine() {
    return this.#layout.engine;
  }
  get engineError() {
    return this.#layout.engineError;
  }
  get engineSettled() {
    return this.#layout.engineSettled;
  }
  timings = () => ({ firstPaint: this.#frame.firstPaint, ...this.#layout.timings() });
  defaultGraph = (file) => this.#layout.defaultGraph(file);
  selectGraph = (i) => this.#layout.selectGraph(i);
  relayout = () => this.#layout.relayout();
  toggleGroup = (g, screen) => this.#layout.toggleGroup(g, screen);
  setDepth = (level, folds) => this.#layout.setDepth(level, folds);
  setAllExpanded = (level) => this.#layout.setAllExpanded(level);
  stepDepth = (step) => this.#layout.stepDepth(step);
  toggleFlatten = (force) => this.#layout.toggleFlatten(force);

  get width() {
    return this.#frame.width;
  }
  get height() {
    return this.#frame.height;
  }
  get dpr() {
    return this.#frame.dpr;
  }
  get paneCount() {
    return this.#frame.paneCount;
  }
  get renderer() {
    return this.#frame.renderer;
  }
  get minimap() {
    return this.#frame.minimap;
  }
  get frameTimes() {
    return this.#frame.frameTimes;
  }
  get lastFrameStats() {
    return this.#frame.lastFrameStats;
  }
  resize = () => this.#frame.resize();
  requestRender = () => this.#frame.requestRender();
  invalidateOverview = () => this.#frame.invalidateOverview();
  frame = () => this.#frame.frame();
  frameState = (pane, k) => this.#frame.frameState(pane, k);
  paneAt = (x) => this.#frame.paneAt(x);
  hitAt = (x, y) => this.#frame.hitAt(x, y);
  isHidden = (i) => this.#frame.isHidden(i);

  initialView = () => this.#camera.initialView();
  placeCamera = (view) => this.#camera.placeCamera(view);
  fit = () => this.#camera.fit();
  zoomBy = (factor) => this.#camera.zoomBy(factor);
  zoomToNode = (i) => this.#camera.zoomToNode(i);
  zoomToGroup = (g) => this.#camera.zoomToGroup(g);
  cameraIsAuto = (view) => this.#camera.cameraIsAuto(view);

  get highlight() {
    return this.#selection.highlight;
  }
  selectNode = (i, options) => this.#selection.selectNode(i, options);
  selectEdge = (e) => this.#selection.selectEdge(e);
  selectGroup = (g) => this.#selection.selectGroup(g);
  clearSelection = () => this.#selection.clearSelection();
  refreshPanel = () => this.#selection.refreshPanel();
  factsModel = () => this.#selection.factsModel();

  searchFor = (query) => this.#search.searchFor(query);
  clearSearch = () => this.#search.clearSearch();
  focusSearch = () => this.#search.focusSearch();

  rememberSelection = (i) => this.#links.rememberSelection(i);
  copyNodeLink = (i) => this.#links.copyNodeLink(i);
  nodeLink = (i) => this.#links.nodeLink(i);
  resolveLink = (hash) => this.#links.resolveLink(hash);

  get theme() {
    return this.#chrome.theme;
  }
  toast = (text) => this.#chrome.toast(text);
  toggleTheme = () => this.#chrome.toggleTheme();
  togglePanel = () => this.#chrome.togglePanel();
  toggleHelp = (force) => this.#chrome.toggleHelp(force);
  toggleShapes = () => this.#chrome.toggleShapes();
  toggleQdq = () => this.#chrome.toggleQdq();
  foldLegendToFit = () => this.#chrome.foldLegendToFit();

  // What overlays may use (overlay.js).
  #overlayHostApi() {
    const app = this;
    return {
      get model() {
        return app.model;
      },
      get graphIndex() {
        return app.state.graph;
      },
      get theme() {
        return app.theme;
      },
      get selectedNode() {
        return app.state.node;
      },
      // The layout on show (a new object after every re-layout) and where node i is drawn in it.
      get layout() {
        return app.view.layout;
      },
      boxOf: (i) => app.view.boxOf(i),
      toast: (text) => app.toast(text),
      stage: $('stage'),
      dock: $('dock'),
      keys: this.keys,
      selectGraph: (i) => app.selectGraph(i),
      selectNode: (i, options) => app.selectNode(i, options),
      redraw: () => {
        app.#chrome.syncLegends();
        app.invalidateOverview();
      },
      refreshPanel: () => app.refreshPanel(),
      panesChanged: () => {
        app.invalidateOverview();
        app.resize();
        // Each pane is narrower (or wider) now: the first view again, for one pane.
        app.initialView();
      },
    };
  }

  start() {
    this.#chrome.start();
    // The viewer's keys first: overlays bind theirs after (the timeline's arrows call the walk).
    bindViewerKeys(this);
    // Each overlay is there when the page has its data (a profile with --etdump, a timeline
    // when the page steps, the memory plan when a method plans memory, the file's sizes, node
    // data with --node-data, numerics with --reference: first, so its colours win over the
    // profile's heat).
    for (const overlay of [
      NumericsOverlay,
      ProfileOverlay,
      TimelineOverlay,
      MemoryOverlay,
      SizeOverlay,
      NodeDataOverlay,
    ]) {
      const o = overlay.fromPage(document);
      if (o) this.overlays.add(o);
    }
    this.state.on((what) => this.#onStateChange(what));
    fillHelp(this.keys);
    this.selectGraph(this.defaultGraph());
    // The canvas follows the stage's size, and the first view the chrome over it too (legends,
    // the stepper, banners: overlays add theirs to the stage), until the camera is moved.
    const stage = $('stage');
    const sizes = new ResizeObserver(() => this.resize());
    const watch = () => {
      for (const el of stage.children)
        if (!['canvas', 'status', 'tooltip', 'toast', 'minimap'].includes(el.id)) sizes.observe(el);
    };
    sizes.observe(stage);
    watch();
    new MutationObserver(watch).observe(stage, { childList: true });
    this.resize();
    this.#links.openLink();
  }

  // The WebAssembly layout engine loads after the first paint (the embedded layout shows until
  // then); a link that asked for the flat reading is followed once it is there.
  loadEngine() {
    return this.#layout.loadEngine(() => this.#links.openFlatLink());
  }

  // An app page (app.js) replaces the viewer when it opens other files: this one lets go of the
  // window and stops drawing (its elements are gone with the old markup).
  dispose() {
    this.#frame.dispose();
    this.#input.dispose();
  }

  // One place reacts to what changed.
  #onStateChange(what) {
    if (what === 'graph') {
      this.#chrome.showGraph();
      this.overlays.graphChanged();
      this.#chrome.syncLegends();
      this.#selection.showSummary();
      this.#chrome.showGraphError();
      this.#layout.syncDepthControl();
      this.#search.graphChanged();
      this.invalidateOverview();
    } else if (what === 'categories' || what === 'display') {
      this.invalidateOverview();
    }
    this.requestRender();
  }
}

async function main() {
  let files;
  try {
    files = await readEmbeddedFiles(document);
  } catch (e) {
    document.body.textContent = `etviz: cannot read this page's graph data: ${e.message}`;
    throw e;
  }
  const app = new App(files);
  installTestFacade(window, app);
  app.start();
  await app.loadEngine();
  return app;
}

// An app page (`etviz app`, `view --app`: docs/app.md) opens files itself and starts the viewer
// on each page it makes; any other page shows its embedded data.
if (document.getElementById('etviz-app-module')) startApp(main);
else main();
