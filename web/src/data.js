// The page's embedded data (written by src/render/html/page_data.cpp, its keys declared in
// page_data.js): decoding, and the per-graph model with typed arrays the renderer and the
// layout engine read directly.

/** @typedef {import('./page_data.js').PageData} PageData */
/** @typedef {import('./page_data.js').Column} Column */

// The page's files: one data element per file (`etviz A.pte B.pte -o page.html`), the first
// with id etviz-data, the others etviz-data-2, etviz-data-3, ... in order.
/** @returns {Promise<PageData[]>} */
export async function readEmbeddedFiles(doc) {
  const els = Array.from(doc.querySelectorAll('script[type="application/json"][id^="etviz-data"]'));
  if (!els.length) throw new Error('no graph data in this page');
  return (await Promise.all(els.map((el) => decodeData(el)))).map(showControls);
}

// Control characters and bidirectional overrides in model strings would reorder or hide what
// is drawn and read ("gnp.exe" shown for "exe.png"): every string of the page data shows them
// as visible escapes, ⟨U+202E⟩, the way the terminal reports show \u202e (line and paragraph
// separators too).
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
export function visibleControls(text) {
  return text.replace(CONTROLS, (c) => `⟨U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟩`);
}
export function showControls(value) {
  if (typeof value === 'string')
    return CONTROLS.test(value) ? ((CONTROLS.lastIndex = 0), visibleControls(value)) : value;
  if (ArrayBuffer.isView(value)) return value; // decoded columns of numbers
  if (Array.isArray(value)) {
    if (value.length && typeof value[0] === 'number') return value; // columns of numbers
    for (let i = 0; i < value.length; i++) if (typeof value[i] !== 'number') value[i] = showControls(value[i]);
    return value;
  }
  if (value && typeof value === 'object') for (const k of Object.keys(value)) value[k] = showControls(value[k]);
  return value;
}

// A page element's JSON (an overlay's data: etviz-profile, etviz-memory, ...), control
// characters shown; null when the page has no such element.
export function readPageElement(doc, id) {
  const node = doc.getElementById(id);
  return node ? showControls(JSON.parse(node.textContent)) : null;
}

export async function readEmbeddedData(doc) {
  return (await readEmbeddedFiles(doc))[0];
}

export async function decodeData(el) {
  const encoding = el.dataset.encoding || 'json';
  if (encoding === 'json') return JSON.parse(el.textContent);
  // The app's page (web/src/app.js): column bytes as they are, from its worker, on the element.
  if (encoding === 'columns-raw' && el.etvizColumns)
    return decodeColumns(JSON.parse(el.textContent), [() => el.etvizColumns], false);
  if (encoding === 'columns' || encoding === 'columns-raw') {
    const parts = Array.from(el.ownerDocument.querySelectorAll(`script[data-part-of="${el.id}"]`));
    // The page keeps no second copy of the data, except an app page (--app, web/src/app.js):
    // it starts its viewer again on the same elements when more files join.
    const keep = !!el.ownerDocument.getElementById('etviz-app-module');
    return decodeColumns(
      JSON.parse(el.textContent),
      parts.map((p) => () => {
        const text = p.textContent;
        if (!keep) p.textContent = '';
        return base64Bytes(text);
      }),
      encoding === 'columns',
    );
  }
  throw new Error(`unknown data encoding "${encoding}"`);
}

// Bytes an element carries as base64 of their gzip (data-encoding="gzip-base64": the app
// module, src/render/html/html_page.cpp), inflated by the browser.
export async function gunzipBase64(text) {
  const stream = new Blob([base64Bytes(text)]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function base64Bytes(text) {
  if (Uint8Array.fromBase64) return Uint8Array.fromBase64(text.trim());
  const binary = atob(text.trim());
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

// The column encoding (src/render/html/page_data.h): `head.data` is the page data with each
// big column replaced by {$col: k} and the string table by {$strings: [k, ...]}; the columns'
// bytes, in directory order (`head.columns`: [type, count, bytes]), make one gzip stream cut
// into base64 parts. `parts` are functions returning each part's bytes, called one at a time,
// so only one part and one column are ever held besides the decoded arrays: no string or
// buffer grows with the whole page (a million-node graph is ~0.5 GiB of columns).
// `gzip` false: the parts are the column bytes as they are (columns-raw: the app's WebAssembly
// writer has no zlib, docs/app.md).
export async function decodeColumns(head, parts, gzip = true) {
  const dir = head.columns;
  let next = 0;
  const source = new ReadableStream({
    pull(ctl) {
      if (next < parts.length) ctl.enqueue(parts[next++]());
      else ctl.close();
    },
  });
  const reader = (gzip ? source.pipeThrough(new DecompressionStream('gzip')) : source).getReader();
  const cols = new Array(dir.length);
  let c = 0;
  /** @type {Uint8Array | null} */
  let buf = null;
  let filled = 0;
  const advance = () => {
    // Completes columns that are full (empty ones at once) and opens the next.
    for (;;) {
      if (buf && filled < buf.length) return;
      if (buf) {
        cols[c] = column(dir[c], buf);
        c++;
      }
      buf = null;
      if (c >= dir.length) return;
      buf = new Uint8Array(dir[c][2]);
      filled = 0;
    }
  };
  advance();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    for (let off = 0; off < value.length;) {
      if (!buf) throw new Error('the page data holds more bytes than its directory lists');
      const n = Math.min(buf.length - filled, value.length - off);
      buf.set(value.subarray(off, off + n), filled);
      filled += n;
      off += n;
      advance();
    }
  }
  if (c < dir.length) throw new Error(`the page data ends after ${c} of its ${dir.length} columns`);
  return resolveColumns(head.data, cols);
}

function column([type, count], bytes) {
  switch (type) {
    case 'i32':
      return new Int32Array(bytes.buffer, 0, count);
    case 'f64':
      return new Float64Array(bytes.buffer, 0, count);
    case 't32': {
      // reals in tenths
      const t = new Int32Array(bytes.buffer, 0, count);
      const out = new Float64Array(count);
      for (let i = 0; i < count; i++) out[i] = t[i] / 10;
      return out;
    }
    case 'json':
      return JSON.parse(new TextDecoder().decode(bytes));
    default:
      throw new Error(`unknown column type "${type}"`);
  }
}

function resolveColumns(value, cols) {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++)
      if (value[i] && typeof value[i] === 'object') value[i] = resolveColumns(value[i], cols);
    return value;
  }
  if (!value || typeof value !== 'object') return value;
  if ('$col' in value) return cols[value.$col];
  if ('$strings' in value) {
    const out = [];
    for (const k of value.$strings) for (const s of cols[k]) out.push(s);
    return out;
  }
  for (const k of Object.keys(value)) value[k] = resolveColumns(value[k], cols);
  return value;
}

// Columns arrive as typed arrays (column encoding) or plain arrays (JSON encoding).
/** @param {Column} a */
const i32 = (a) => (a instanceof Int32Array ? a : Int32Array.from(a));
/** @param {Column} a */
const f64 = (a) => (a instanceof Float64Array ? a : Float64Array.from(a));

// One graph of the page, with helpers that resolve string ids.
export class GraphModel {
  // `file`: which of the page's files the graph belongs to (index into the files).
  /** @param {PageData} data */
  constructor(data, index, file = 0) {
    this.file = file;
    const g = data.graphs[index];
    const S = data.strings;
    this.data = data;
    this.index = index;
    this.strings = S;
    this.name = g.name;
    this.kind = g.kind;
    this.irNodes = g.irNodes;
    this.attrs = g.attrs;
    this.arena = g.arena;
    const n = g.n;
    this.nodeCount = n.name.length;
    this.n = {
      name: i32(n.name),
      nameN: i32(n.nameN),
      op: i32(n.op),
      label: i32(n.label),
      kind: i32(n.kind),
      cat: i32(n.cat),
      group: i32(n.group),
      graph: i32(n.graph),
      w: f64(n.w),
      h: f64(n.h),
      deleg: i32(n.deleg),
      drawnAt: i32(n.drawnAt),
      stub: i32(n.stub),
      instr: i32(n.instr),
      chain: i32(n.chain),
      module: i32(n.module),
      stack: i32(n.stack),
      handles: i32(n.handles),
      inOff: i32(n.inOff),
      inName: i32(n.inName),
      inVal: i32(n.inVal),
      outOff: i32(n.outOff),
      outName: i32(n.outName),
      outVal: i32(n.outVal),
      atOff: i32(n.atOff),
      atKey: i32(n.atKey),
      atVal: i32(n.atVal),
    };
    const v = g.v;
    // Sizes and offsets may pass int32: float64.
    this.v = {
      name: i32(v.name),
      kind: i32(v.kind),
      dtype: i32(v.dtype),
      shape: i32(v.shape),
      dimOrder: i32(v.dimOrder),
      memId: i32(v.memId),
      memOff: f64(v.memOff),
      loc: i32(v.loc),
      key: i32(v.key),
      nbytes: f64(v.nbytes),
      lit: i32(v.lit),
      items: i32(v.items),
      quant: i32(v.quant),
      dyn: i32(v.dyn),
      prod: i32(v.prod),
    };
    this.valueCount = v.name.length;
    const e = g.e;
    this.edgeCount = e.src.length;
    this.e = {
      src: i32(e.src),
      dst: i32(e.dst),
      val: i32(e.val),
      sp: i32(e.sp),
      tp: i32(e.tp),
      structural: i32(e.structural),
      detached: i32(e.detached),
    };
    const gr = g.g;
    this.groupCount = gr.name.length;
    this.g = {
      name: i32(gr.name),
      label: i32(gr.label),
      kind: i32(gr.kind),
      parent: i32(gr.parent),
      owner: i32(gr.owner),
      count: i32(gr.count),
      cw: f64(gr.cw),
      ch: f64(gr.ch),
      atOff: i32(gr.atOff),
      atKey: i32(gr.atKey),
      atVal: i32(gr.atVal),
      badge: i32(gr.badge),
      opOff: i32(gr.opOff),
      opKey: i32(gr.opKey),
      opCount: i32(gr.opCount),
      ctens: f64(gr.ctens),
      params: f64(gr.params),
      pbytes: f64(gr.pbytes),
    };
    this.initialExpanded = Uint8Array.from(gr.expanded);
    this.groupKinds = Array.from(this.g.kind, (k) => this.s(k));
    // What the embedded layout was computed with; re-layout uses the same (page-wide).
    this.layoutOptions = Float64Array.from(data.layoutOptions);
    // World units at the top of an expanded group: its title, and a click there toggles it.
    // The layout keeps the band free (layout option groupTitle, C++ view::layout_options()).
    this.frameHeader = this.layoutOptions[data.layoutOptionNames.indexOf('groupTitle')];
    if (!(this.frameHeader >= 0)) throw new Error('page data: no groupTitle layout option');
    this.qdq = g.qdq;
    // The precomputed layout, in the shape the layout engine returns (layout_wasm.js).
    /** @type {import('./layout_wasm.js').Layout} */
    this.initialLayout = {
      nx: f64(n.x),
      ny: f64(n.y),
      nw: f64(n.w),
      nh: f64(n.h),
      gx: f64(gr.x),
      gy: f64(gr.y),
      gw: f64(gr.w),
      gh: f64(gr.h),
      ptOff: Uint32Array.from(e.ptOff),
      pts: f64(e.pts),
      lx: f64(e.lx),
      ly: f64(e.ly),
      share: Int32Array.from(e.share),
      shareN: Int32Array.from(e.shareN),
    };
    this.groupDepth = new Int32Array(this.groupCount);
    for (let i = 0; i < this.groupCount; i++) {
      let d = 0;
      for (let p = this.g.parent[i]; p >= 0 && d <= this.groupCount; p = this.g.parent[p]) d++;
      this.groupDepth[i] = d;
    }
    // Adjacency for keyboard walking and the edge panel.
    this.outEdges = buildIndex(this.nodeCount, this.e.src);
    // Uses drawn only on selection (edges left out of the layout), per source node.
    this.detachedOut = new Int32Array(this.nodeCount);
    for (let k = 0; k < this.edgeCount; k++) if (this.e.detached[k]) this.detachedOut[this.e.src[k]]++;
    this.detachedNodes = [];
    for (let i = 0; i < this.nodeCount; i++) if (this.detachedOut[i]) this.detachedNodes.push(i);
    this.inEdges = buildIndex(this.nodeCount, this.e.dst);
  }
  s(id) {
    return id >= 0 ? this.strings[id] : '';
  }
  // What a broadcast source's stub says of the uses it does not draw: how many and where they
  // go ("41 uses → layers.0 … layers.11 (12 boxes)"; view/view_model.h ViewModel::stubs).
  stubText(i) {
    return this.s(this.n.stub[i]);
  }
  // A node's name: a string id, plus a number when the page stored "prefix_12" as the prefix's
  // id and 12 (render/html/page_data.cpp: a million distinct names are not a million strings).
  nodeName(i) {
    const k = this.n.nameN[i];
    return k >= 0 ? `${this.s(this.n.name[i])}_${k}` : this.s(this.n.name[i]);
  }
  nodeOp(i) {
    return this.s(this.n.op[i]);
  }
  nodeLabel(i) {
    return this.s(this.n.label[i]);
  }
  nodeKind(i) {
    return this.s(this.n.kind[i]);
  }
  nodeModule(i) {
    return this.s(this.n.module[i]);
  }
  // Where the node came from (the panel reads these through the model, so a timeline step's
  // model can answer with the step's own: web/src/timeline_overlay.js).
  nodeInstr(i) {
    return this.n.instr[i];
  }
  nodeChain(i) {
    return this.n.chain[i];
  }
  nodeHandles(i) {
    return this.s(this.n.handles[i]);
  }
  nodeStack(i) {
    return this.s(this.n.stack[i]);
  }
  nodeDelegate(i) {
    return this.n.deleg[i];
  }
  // A call whose nested graph is drawn once, at another call: that call's node, else -1.
  nodeDrawnAt(i) {
    return this.n.drawnAt[i];
  }
  groupLabel(i) {
    return this.s(this.g.label[i]);
  }
  groupName(i) {
    return this.s(this.g.name[i]);
  }
  groupKind(i) {
    return this.s(this.g.kind[i]);
  }
  // What a collapsed box says of its size ("168 ops" for a delegate, else the nodes inside).
  groupBadge(i) {
    return this.g.badge[i] >= 0 ? this.s(this.g.badge[i]) : '';
  }
  inputs(i) {
    return argList(this, this.n.inOff, this.n.inName, this.n.inVal, i);
  }
  outputs(i) {
    return argList(this, this.n.outOff, this.n.outName, this.n.outVal, i);
  }
  attributes(i) {
    const out = [];
    for (let k = this.n.atOff[i]; k < this.n.atOff[i + 1]; k++)
      out.push([this.s(this.n.atKey[k]), this.s(this.n.atVal[k])]);
    return out;
  }
  // What the page says of a derived box (repeat run, QDQ cluster, partition).
  groupAttributes(g) {
    const out = [];
    for (let k = this.g.atOff[g]; k < this.g.atOff[g + 1]; k++)
      out.push([this.s(this.g.atKey[k]), this.s(this.g.atVal[k])]);
    return out;
  }
  // What group g holds (view_model.h, ViewGroup::ops and constants): [[op, count]] most
  // frequent first, and the constant tensors its nodes read, each once.
  groupContents(g) {
    const G = this.g;
    const ops = [];
    if (G.opOff.length > g + 1)
      for (let k = G.opOff[g]; k < G.opOff[g + 1]; k++) ops.push([this.s(G.opKey[k]), G.opCount[k]]);
    return { ops, tensors: G.ctens[g] || 0, parameters: G.params[g] || 0, bytes: G.pbytes[g] || 0 };
  }
  value(id) {
    const v = this.v;
    return {
      id,
      name: this.valueName(id),
      kind: this.s(v.kind[id]),
      dtype: this.s(v.dtype[id]),
      shape: this.s(v.shape[id]),
      dimOrder: this.s(v.dimOrder[id]),
      mem: memoryText(v.memId[id], v.memOff[id]),
      location: this.s(v.loc[id]),
      key: this.s(v.key[id]),
      nbytes: v.nbytes[id],
      literal: this.s(v.lit[id]),
      items: this.s(v.items[id]),
      quant: this.s(v.quant[id]),
      producer: v.prod[id],
    };
  }
  // A value's name: a string id, or -2 - k for "vk", the value's index in its graph (the page
  // writer leaves those out of the string table: render/html/page_data.cpp).
  valueName(id) {
    const k = this.v.name[id];
    return k <= -2 ? `v${-2 - k}` : this.s(k);
  }
  // Short text for an edge label: "1×16×32×32 int8".
  valueShort(id) {
    if (id < 0) return '';
    return tensorShort(this.s(this.v.shape[id]), this.s(this.v.dtype[id]));
  }
  // Groups from the outermost to `g` itself.
  groupPath(g) {
    const path = [];
    for (let p = g, steps = 0; p >= 0 && steps <= this.groupCount; p = this.g.parent[p], steps++) path.unshift(p);
    return path;
  }
}

// A tensor as an edge label says it: "[1, 16, 32, 32]" and "int8" -> "1×16×32×32 int8".
export function tensorShort(shape, dtype) {
  return `${shape.replace(/^\[|\]$/g, '').replace(/, /g, '×')} ${dtype}`.trim();
}

// Where a planned tensor lives: "arena 1 @ 4096" ('' for memory id -1: not planned).
export function memoryText(memId, memOff) {
  return memId >= 0 ? `arena ${memId} @ ${memOff}` : '';
}

function argList(m, off, names, vals, i) {
  const out = [];
  for (let k = off[i]; k < off[i + 1]; k++) out.push({ name: m.s(names[k]), value: vals[k] });
  return out;
}

// CSR index: for each node, the edge ids whose `ends` entry is that node.
export function buildIndex(count, ends) {
  const start = new Uint32Array(count + 1);
  for (let i = 0; i < ends.length; i++) if (ends[i] >= 0 && ends[i] < count) start[ends[i] + 1]++;
  for (let i = 0; i < count; i++) start[i + 1] += start[i];
  const fill = start.slice(0, count);
  const items = new Uint32Array(start[count]);
  for (let i = 0; i < ends.length; i++) if (ends[i] >= 0 && ends[i] < count) items[fill[ends[i]]++] = i;
  return {
    start,
    items,
    of(n) {
      return items.subarray(start[n], start[n + 1]);
    },
  };
}

export function formatBytes(n) {
  if (!(n >= 0)) return '';
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let u = 0;
  while (n >= 1024 && u < units.length - 1) {
    n /= 1024;
    u++;
  }
  return `${u === 0 ? n : n.toFixed(n < 10 ? 2 : 1)} ${units[u]}`;
}
