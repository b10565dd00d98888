// The app page's worker (docs/app.md). app.js starts it from a blob: URL holding the
// WebAssembly readers' module (src/wasm, createEtvizApp) followed by this file, so the page
// never freezes while a file is read. It is not part of the viewer bundle (web/build.mjs):
// it runs in the worker's own scope.
//
// Messages in:  {type: 'init', wasm: ArrayBuffer}  (the module's wasm, first)
//               {type: 'options'}                  (the page options the module takes)
//               {type: 'open', id, files: [File], options: [[flag, value], ...]}
// Messages out: {type: 'progress', text}
//               {type: 'options', list: [{flag, help, kind}]}  (session/page_options.h)
//               {type: 'page', id, elements, meta, timings}  (timings: ms per step and the
//                 bytes read of the files; meta: how files were paired,
//                 warnings; elements: the page's data elements, a columns-raw one with its
//                 column bytes, transferred)
//               {type: 'error', id, error}               (the reader's message)
'use strict';

let modulePromise = null;
let moduleSpent = false; // holds memory it cannot give back: start afresh after this open
let wasmBinary = null; // the module's wasm, from the page ('init')

// Compiled from the bytes the page handed over (wasmBinary): the module never fetches its
// wasm, which the page's policy (connect-src 'none') would refuse.
function loadModule() {
  if (!wasmBinary) return Promise.reject(new Error('the page sent no WebAssembly module'));
  if (!modulePromise)
    modulePromise = createEtvizApp({ wasmBinary, onProgress: (text) => self.postMessage({ type: 'progress', text }) });
  return modulePromise.then((m) => m.etvizApp);
}

function mib(n) {
  return `${(n / 1048576).toFixed(n < 10485760 ? 1 : 0)} MiB`;
}

// A zip member's deflate stream, inflated by the browser, stopping one byte past the declared
// size (more is an error the C++ archive reports, as it does natively).
async function inflate(file, member) {
  const raw = file.slice(member.offset, member.offset + member.compressed);
  const reader = raw.stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader();
  const out = new Uint8Array(member.size + 1);
  let got = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const take = Math.min(value.length, out.length - got);
      out.set(value.subarray(0, take), got);
      got += take;
      if (got > member.size) break;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
  return out.subarray(0, got);
}

// The page's data elements, as the HTML parser would give them: a script element's text is
// raw (no entities), and the writer escapes '<' in the data, so it ends at the first
// '</script>'. Not DOMParser: parsing the whole page would apply its style element under this
// page's policy (a console error), and the data is all the viewer needs. `columns` is filled in
// for a columns-raw element: its bytes.
/** @returns {{id: string, encoding: string, text: string, columns?: Uint8Array}[]} */
function dataElements(html) {
  const out = [];
  const re =
    /<script type="application\/json" id="(etviz-[a-z0-9-]+)"(?: data-encoding="([a-z0-9-]+)")?>([\s\S]*?)<\/script>/g;
  for (const m of html.matchAll(re)) out.push({ id: m[1], encoding: m[2] || '', text: m[3] });
  return out;
}

let openCount = 0;
// Files of other kinds are read whole into module memory; past this the browser's
// ArrayBuffer and the module's 4 GiB memory run out.
const MAX_FILE_BYTES = 1536 * 1048576;
// Files from this size on are read in part (programs, bundled programs, weights, .pt2 and
// ETRecord archives): what the readers read to show them, never their weights (docs/app.md;
// src/wasm/partial_plan.h); up to what the module's memory can hold.
const PARTIAL_FROM_BYTES = 64 * 1048576;
const MAX_PARTIAL_BYTES = 3 * 1024 * 1048576;

// Reads what the readers need of a large file into module memory the size of the file,
// registered under `path`; false when the file is not a kind read in part (it is then read
// whole, and the reader says what it is). `count(n)`: bytes read.
function readInPart(app, reader, file, path, count) {
  const read = (begin, end) => {
    const bytes = new Uint8Array(reader.readAsArrayBuffer(file.slice(begin, end)));
    count(bytes.length);
    return bytes;
  };
  // Memory the size of the file, once its head and tail say it is a kind read in part: the
  // parts not read are pages never touched. It is never given back: the worker starts a fresh
  // module after this open (moduleSpent).
  const reserve = (size) => {
    if (size > MAX_PARTIAL_BYTES)
      throw new Error(`${file.name}: ${mib(size)}; the page holds files up to ${mib(MAX_PARTIAL_BYTES)}`);
    moduleSpent = true;
    const ptr = app.reserve(size);
    if (!ptr) throw new Error(`${file.name}: no memory for a ${mib(size)} file in this page`);
    return ptr;
  };
  const ptr = app.readInPart(file.size, read, reserve);
  if (!ptr) return false;
  app.registerMemoryFile(path, ptr, file.size);
  return true;
}

async function open(msg) {
  const app = await loadModule();
  const t0 = performance.now();
  // Each open gets its own directory, the working directory while it runs, so the readers'
  // messages and the page name files as the user knows them ("model.pte: ...").
  const dir = `/open/${++openCount}`;
  const paths = [];
  const inMemory = [];
  const taken = new Set();
  const reader = new FileReaderSync();
  const allocated = []; // module memory holding files read whole, freed after the open
  let bytesRead = 0; // of the files, for the page's timings (tests check what was read)
  const count = (n) => {
    bytesRead += n;
  };
  try {
    msg.files.forEach((file, k) => {
      // Two dropped files may share a name (from different folders): keep both.
      const path = taken.has(file.name) ? `${k}/${file.name}` : file.name;
      taken.add(file.name);
      paths.push(path);
      if (file.size >= PARTIAL_FROM_BYTES) {
        self.postMessage({
          type: 'progress',
          text: `Reading ${file.name} in part (${mib(file.size)}; not its weights)…`,
        });
        if (readInPart(app, reader, file, path, count)) {
          inMemory.push(path);
          return;
        }
      }
      if (file.size > MAX_FILE_BYTES)
        throw new Error(
          `${file.name}: ${mib(file.size)}; the page reads files of this kind up to ${mib(MAX_FILE_BYTES)} ` +
            '(larger ones: etviz FILE -o page.html on the command line)',
        );
      self.postMessage({ type: 'progress', text: `Reading ${file.name} (${mib(file.size)})…` });
      const bytes = new Uint8Array(reader.readAsArrayBuffer(file));
      count(bytes.length);
      // Straight into module memory, registered as the file (as large programs are): no copy
      // into Emscripten's file system and none by its mmap when the reader opens it.
      const ptr = app.alloc(bytes.length);
      if (ptr) {
        allocated.push(ptr);
        app.put(ptr, bytes);
        app.registerMemoryFile(path, ptr, bytes.length);
        inMemory.push(path);
        return;
      }
      app.writeFile(`${dir}/${path}`, bytes);
    });
    const t1 = performance.now();
    app.chdir(dir);
    for (let k = 0; k < paths.length; k++) {
      for (const member of app.zipPlan(paths[k])) {
        self.postMessage({ type: 'progress', text: `Inflating ${member.name}…` });
        let bytes = new Uint8Array(0);
        let error = '';
        try {
          bytes = await inflate(msg.files[k], member);
          count(member.compressed);
        } catch (e) {
          error = `the deflate stream is corrupt (${e.message || e})`;
        }
        app.provideMember(paths[k], member.name, bytes, error);
      }
    }
    const t2 = performance.now();
    self.postMessage({ type: 'progress', text: 'Building the page…' });
    const r = app.open(paths, msg.options);
    const t3 = performance.now();
    if (!r.ok) {
      self.postMessage({ type: 'error', id: msg.id, error: r.error });
      return;
    }
    // Each file's column bytes go with its data element (columns-raw, in file order), moved
    // to the page rather than copied.
    const elements = dataElements(r.html);
    let next = 0;
    for (const el of elements) if (el.encoding === 'columns-raw') el.columns = r.columns[next++];
    self.postMessage(
      {
        type: 'page',
        id: msg.id,
        elements,
        meta: r.meta,
        timings: { read: t1 - t0, inflate: t2 - t1, page: t3 - t2, bytesRead },
      },
      r.columns.map((c) => c.buffer),
    );
  } finally {
    app.forget();
    for (const p of inMemory) app.unregisterMemoryFile(p);
    for (const ptr of allocated) app.free(ptr);
    if (moduleSpent) {
      modulePromise = null;
      moduleSpent = false;
    }
    for (const p of paths) if (!inMemory.includes(p)) app.removeFile(`${dir}/${p}`);
  }
}

self.onmessage = (ev) => {
  const msg = ev.data;
  if (msg.type === 'init') wasmBinary = new Uint8Array(msg.wasm);
  if (msg.type === 'options') {
    loadModule()
      .then((app) => self.postMessage({ type: 'options', list: app.pageOptions() }))
      .catch((e) => self.postMessage({ type: 'options', list: [], error: String(e && e.message ? e.message : e) }));
    return;
  }
  if (msg.type !== 'open') return;
  open(msg).catch((e) => {
    const trap = e instanceof WebAssembly.RuntimeError || /abort|memory/i.test(String(e && e.message));
    // A trap (out of memory, a bug) leaves the module unusable: the next open starts afresh.
    if (trap) modulePromise = null;
    self.postMessage({
      type: 'error',
      id: msg.id,
      error: trap ? `The reader failed: ${e.message || e}` : String(e && e.message ? e.message : e),
    });
  });
};
