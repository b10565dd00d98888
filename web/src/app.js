// The page as an offline app (docs/app.md): an app page (`etviz app`, `etviz view --app`)
// carries the C++ readers compiled to WebAssembly as inert text (#etviz-app-module) and the
// worker's code (#etviz-app-worker, app_worker.js). Files dropped on the page or picked with
// Open… go to a Web Worker, which runs the same session code as `etviz FILES -o page.html`
// (companions paired as the CLI's --data/--etdump/--etrecord) and sends back that page's data
// elements; they replace (or join) the page's and the viewer starts again on them. Nothing
// is fetched: the worker comes from a blob: URL (CSP worker-src blob:), the files are read
// from the user's disk through File objects.

import { $ } from './dom.js';
import { gunzipBase64 } from './data.js';

export function startApp(startViewer) {
  const app = new PageApp(startViewer);
  app.install();
  return app;
}

class PageApp {
  constructor(startViewer) {
    this.startViewer = startViewer;
    this.viewer = null;
    this.worker = null;
    this.requests = 0;
    this.busy = false;
    this.lastFiles = []; // the files last opened, re-opened when the options change
    this.chosen = {}; // page options chosen: flag -> value (session/page_options.h)
    this.optionList = null; // what the module takes: [{flag, help, kind}]
    // The viewer's markup as written, to start each new viewer on fresh elements.
    this.markup = ['bar', 'main', 'help'].map((id) => /** @type {HTMLElement} */ ($(id).cloneNode(true)));
  }

  install() {
    document.body.dataset.app = 'true';
    this.buildChrome();
    this.bindDrop();
    if (this.hasData()) this.showViewer();
    else this.showLanding();
  }

  hasData() {
    return !!document.querySelector('script[type="application/json"][id^="etviz-data"]');
  }

  // ---- chrome: landing card, progress line, error banner, Open… ----------------------------
  buildChrome() {
    const input = document.createElement('input');
    input.type = 'file';
    input.multiple = true;
    input.id = 'app-file-input';
    input.hidden = true;
    input.addEventListener('change', () => {
      const files = Array.from(input.files || []);
      input.value = '';
      if (files.length) this.open(files);
    });
    document.body.appendChild(input);
    this.input = input;

    const landing = document.createElement('div');
    landing.id = 'app-landing';
    landing.className = 'app-landing';
    landing.hidden = true;
    landing.innerHTML =
      '<div class="app-card"><h1>etviz</h1>' +
      '<p>Drop files here, or <button id="app-open-landing" class="btn">Open…</button></p>' +
      '<p class="hint">ExecuTorch programs (.pte), bundled programs (.bpte), weights (.ptd), exported ' +
      'programs (.pt2), ETRecords, ETDump profiles (.etdp), pass traces and Model Explorer JSON. ' +
      'Drop a program with its .ptd, or with an .etdp and its ETRecord, together: they are paired; ' +
      'so are a categories or groups JSON file dropped with the files they colour or group.</p>' +
      '<p class="hint">Everything stays in this page: nothing is uploaded or fetched.</p></div>';
    document.body.appendChild(landing);

    const status = document.createElement('div');
    status.id = 'app-progress';
    status.className = 'app-progress';
    status.setAttribute('role', 'status');
    status.hidden = true;
    document.body.appendChild(status);

    const error = document.createElement('div');
    error.id = 'app-error';
    error.className = 'app-error';
    error.setAttribute('role', 'alert');
    error.hidden = true;
    error.innerHTML = '<span class="app-error-text"></span><button class="btn" title="Dismiss">×</button>';
    error.querySelector('button').addEventListener('click', () => {
      error.hidden = true;
    });
    document.body.appendChild(error);

    const drop = document.createElement('div');
    drop.id = 'app-drop';
    drop.className = 'app-drop';
    drop.hidden = true;
    drop.textContent = 'Drop to open';
    document.body.appendChild(drop);
    $('app-open-landing').addEventListener('click', () => this.input.click());
  }

  // The header's open button, beside the file name; the header is rebuilt with each viewer.
  // One character wide: the header's buttons must still fit a 1024 px window.
  addOpenButton() {
    const info = document.querySelector('#bar .file-info');
    if (!info || $('btn-open')) return;
    const button = (id, text, title, label, onClick) => {
      const b = document.createElement('button');
      b.id = id;
      b.className = 'btn app-open';
      b.textContent = text;
      b.title = title;
      b.setAttribute('aria-label', label);
      b.addEventListener('click', onClick);
      return b;
    };
    const open = button(
      'btn-open',
      '+',
      'Open more files (or drop them on the page); they join the file selector',
      'Open more files',
      () => this.input.click(),
    );
    const options = button(
      'btn-app-options',
      '⚙',
      "Page options (as etviz view takes them: --stages, the profile's --block and units)",
      'Page options',
      () => this.toggleOptions(),
    );
    info.after(open);
    open.after(options);
  }

  // ---- page options (session/page_options.h) ----------------------------------------------
  // The module lists the options `etviz view` takes; the flags and texts among them are shown
  // here (the files among them come from the files dropped together). Applying re-opens the
  // files last opened with them, as `etviz FILES --flag value` would write the page; the module
  // checks them and says what is wrong in the CLI's words.
  async toggleOptions() {
    let panel = $('app-options');
    if (panel) {
      panel.remove();
      return;
    }
    if (!this.optionList) {
      try {
        const worker = await this.ensureWorker();
        this.optionList = await new Promise((resolve) => {
          this.onOptions = resolve;
          worker.postMessage({ type: 'options' });
        });
      } catch (e) {
        this.showError(e.message);
        return;
      }
    }
    panel = document.createElement('div');
    panel.id = 'app-options';
    panel.className = 'app-options';
    panel.setAttribute('role', 'dialog');
    panel.setAttribute('aria-label', 'Page options');
    const rows = this.optionList
      .filter((o) => o.kind !== 'file')
      .map((o) => {
        const id = `app-option-${o.flag.replace(/^-+/, '')}`;
        const value = this.chosen[o.flag] || '';
        const input =
          o.kind === 'flag'
            ? `<input type="checkbox" id="${id}" data-flag="${o.flag}"${value ? ' checked' : ''}>`
            : `<input type="text" id="${id}" data-flag="${o.flag}" size="12">`;
        return `<label><span class="app-option-flag">${o.flag}</span>${input}<span class="app-option-help"></span></label>`;
      });
    panel.innerHTML =
      '<div class="app-options-title">Page options <span class="hint">(as <code>etviz view</code> takes them)</span></div>' +
      rows.join('') +
      '<div class="app-options-buttons"><button class="btn" id="app-options-apply">Apply</button> ' +
      '<button class="btn" id="app-options-clear">Clear</button></div>';
    // Texts go in as text (never markup).
    const shown = this.optionList.filter((o) => o.kind !== 'file');
    panel.querySelectorAll('label').forEach((label, k) => {
      label.querySelector('.app-option-help').textContent = shown[k].help;
      const input = label.querySelector('input');
      if (input.type === 'text') input.value = this.chosen[shown[k].flag] || '';
    });
    document.body.appendChild(panel);
    $('app-options-apply').addEventListener('click', () => this.applyOptions());
    $('app-options-clear').addEventListener('click', () => {
      panel.querySelectorAll('input').forEach((i) => {
        if (i.type === 'checkbox') i.checked = false;
        else i.value = '';
      });
      this.applyOptions();
    });
  }

  applyOptions() {
    const chosen = {};
    $('app-options')
      .querySelectorAll('input[data-flag]')
      .forEach((/** @type {HTMLInputElement} */ i) => {
        const value = i.type === 'checkbox' ? (i.checked ? 'true' : '') : i.value.trim();
        if (value) chosen[i.dataset.flag] = value;
      });
    this.chosen = chosen;
    $('app-options').remove();
    if (this.lastFiles.length) this.open(this.lastFiles, { replace: true });
  }

  bindDrop() {
    const drop = $('app-drop');
    let depth = 0;
    const hasFiles = (ev) => ev.dataTransfer && Array.from(ev.dataTransfer.types || []).includes('Files');
    window.addEventListener('dragenter', (ev) => {
      if (!hasFiles(ev)) return;
      ev.preventDefault();
      depth++;
      drop.hidden = false;
    });
    window.addEventListener('dragover', (ev) => {
      if (!hasFiles(ev)) return;
      ev.preventDefault();
      ev.dataTransfer.dropEffect = 'copy';
    });
    window.addEventListener('dragleave', () => {
      if (--depth <= 0) {
        depth = 0;
        drop.hidden = true;
      }
    });
    window.addEventListener('drop', (ev) => {
      ev.preventDefault();
      depth = 0;
      drop.hidden = true;
      const files = Array.from((ev.dataTransfer && ev.dataTransfer.files) || []);
      if (files.length) this.open(files);
    });
  }

  showLanding() {
    $('bar').hidden = true;
    $('main').hidden = true;
    $('app-landing').hidden = false;
    document.body.dataset.appState = 'blank';
  }

  progress(text) {
    const p = $('app-progress');
    p.textContent = text;
    p.hidden = !text;
  }

  showError(text) {
    const e = $('app-error');
    e.querySelector('.app-error-text').textContent = text;
    e.hidden = false;
  }

  // ---- the worker ------------------------------------------------------------------------
  // The module's JS glue and wasm are gzipped in the page (data-encoding="gzip-base64"): the
  // glue becomes the worker's script with the worker's code, the wasm's bytes go to the worker,
  // which compiles them itself (nothing is fetched).
  async ensureWorker() {
    if (this.worker) return this.worker;
    const glue = $('etviz-app-module').textContent;
    const code = $('etviz-app-worker').textContent;
    if (!glue.trim()) throw new Error('this page was written by an etviz build without the WebAssembly readers');
    const [module, wasm] = await Promise.all([gunzipBase64(glue), gunzipBase64($('etviz-app-wasm').textContent)]);
    const url = URL.createObjectURL(new Blob([module, '\n', code], { type: 'text/javascript' }));
    this.worker = new Worker(url);
    URL.revokeObjectURL(url);
    this.worker.postMessage({ type: 'init', wasm: wasm.buffer }, [wasm.buffer]);
    this.worker.addEventListener('message', (ev) => this.onWorkerMessage(ev.data));
    this.worker.addEventListener('error', (ev) => {
      ev.preventDefault();
      this.finish();
      this.showError(`The reader stopped: ${ev.message || 'unknown error'}`);
    });
    return this.worker;
  }

  // `replace`: the page's files are replaced, not joined (options re-open the same files).
  async open(files, { replace = false } = {}) {
    if (this.busy) {
      this.showError('Still opening the previous files; drop these again when it is done.');
      return;
    }
    this.busy = true;
    this.started = performance.now();
    $('app-error').hidden = true;
    document.body.dataset.appState = 'busy';
    this.progress(`Opening ${files.map((f) => f.name).join(', ')}…`);
    let worker;
    try {
      worker = await this.ensureWorker();
    } catch (e) {
      this.finish();
      document.body.dataset.appState = 'error';
      this.showError(e.message);
      return;
    }
    this.lastFiles = files;
    this.replace = replace;
    worker.postMessage({ type: 'open', id: ++this.requests, files, options: Object.entries(this.chosen) });
  }

  finish() {
    this.busy = false;
    this.progress('');
  }

  onWorkerMessage(msg) {
    if (msg.type === 'options') {
      if (msg.error) this.showError(msg.error);
      if (this.onOptions) this.onOptions(msg.list);
      this.onOptions = null;
      return;
    }
    if (msg.type === 'progress') {
      if (this.busy) this.progress(msg.text);
      return;
    }
    if (msg.id !== this.requests) return;
    this.finish();
    if (msg.type === 'error') {
      document.body.dataset.appState = 'error';
      this.showError(msg.error);
      return;
    }
    // How long the open took, for tests and benchmarks (docs/app.md, figures).
    /** @type {any} */ (window).etvizAppTimings = { ...msg.timings, total: performance.now() - this.started };
    this.showPage(msg.elements, msg.meta);
  }

  // ---- pages -----------------------------------------------------------------------------
  // The data elements of the page the worker wrote. They replace the page's when it is blank
  // or the new files carry a profile (which belongs to the page's first file); otherwise the
  // new files join the file selector, as `etviz A B -o page.html` shows several files.
  showPage(elements, meta) {
    const incoming = elements.map(({ id, encoding, text, columns }) => {
      const el = document.createElement('script');
      el.type = 'application/json';
      el.id = id;
      if (encoding) el.dataset.encoding = encoding;
      el.textContent = text;
      if (columns) /** @type {any} */ (el).etvizColumns = columns; // columns-raw: the bytes (web/src/data.js)
      return el;
    });
    const existing = Array.from(document.querySelectorAll('script[type="application/json"][id^="etviz-"]'));
    const join =
      !this.replace &&
      existing.length > 0 &&
      !incoming.some((el) => el.id === 'etviz-profile' || el.id === 'etviz-timeline') &&
      !existing.some((el) => el.id === 'etviz-timeline');
    const anchor = $('etviz-app-module');
    if (join) {
      let count = existing.filter((el) => el.id.startsWith('etviz-data')).length;
      for (const el of incoming) {
        if (!el.id.startsWith('etviz-data')) continue; // size and memory data describe the first file
        el.id = `etviz-data-${++count}`;
        anchor.before(el);
      }
    } else {
      existing.forEach((el) => el.remove());
      document.querySelectorAll('script[data-part-of]').forEach((el) => el.remove()); // their column parts
      for (const el of incoming) anchor.before(el);
    }
    this.showViewer(join ? this.fileCount() - 1 : 0);
    const said = [...(meta.notes || []), ...(meta.warnings || []).slice(0, 3)];
    if (said.length && this.viewer) this.viewer.toast(said.join(' · '));
  }

  fileCount() {
    return document.querySelectorAll('script[type="application/json"][id^="etviz-data"]').length;
  }

  // Starts a viewer on the page's data elements, on fresh markup (the previous viewer's
  // listeners and state go with its elements). `file`: the file to show first.
  async showViewer(file = 0) {
    if (this.viewer) this.viewer.dispose();
    for (const el of this.markup) $(el.id).replaceWith(el.cloneNode(true));
    $('app-landing').hidden = true;
    document.body.dataset.ready = 'false';
    const viewer = this.startViewer();
    this.addOpenButton();
    document.body.dataset.appState = 'shown';
    this.viewer = await viewer;
    if (file > 0 && this.viewer) this.viewer.selectGraph(this.viewer.defaultGraph(file));
  }
}
