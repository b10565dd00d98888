// Runs the WebAssembly layout module under node on generated compound graphs and checks
// that every coordinate equals the native build's bit for bit.
//
//   node wasm_matches_native.js BUILD/layout-wasm/etviz_layout.js PATH/TO/layout_dump
// Exits 77 (CTest: skipped) when the wasm module has not been built.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const {execFileSync} = require('child_process');

const [modulePath, dumpPath] = process.argv.slice(2);
if (!modulePath || !fs.existsSync(modulePath)) {
  console.log(`skipped: no wasm module at ${modulePath} (the etviz build makes it when emcc is installed)`);
  process.exit(77);
}

// mulberry32: a small deterministic PRNG.
function random(seed) {
  return () => {
    seed = (seed + 0x6D2B79F5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// A model-like compound graph in the module's input form: mostly short edges, some long ones,
// a few back edges, nested groups (some collapsed), ports on some edges, some edges skipped.
// With `segments`, long edges are ordered as segments (Options::long_edges = kSegments, the
// last option; the others keep their defaults).
function makeGraph(n, seed, direction, segments) {
  const rnd = random(seed);
  const below = (k) => Math.floor(rnd() * k);
  const g = {nodeWidth: [], nodeHeight: [], nodeGroup: [], edgeSource: [], edgeTarget: [],
             edgeSourcePort: [], edgeTargetPort: [], edgeSkip: [], groupParent: [],
             groupExpanded: [], groupCollapsedWidth: [], groupCollapsedHeight: [],
             // encode_options() order: direction first (src/layout/options.cpp).
             options: [direction === 'LR' ? 1 : 0, 22, 34, 10, 12, 48]};
  if (segments) g.options.push(1, 2, 24, 1, 2, 1, 2);
  const open = [];
  const edge = (s, t, sp, tp) => {
    g.edgeSource.push(s); g.edgeTarget.push(t); g.edgeSourcePort.push(sp);
    g.edgeTargetPort.push(tp); g.edgeSkip.push(rnd() < 0.03 ? 1 : 0);
  };
  for (let v = 0; v < n; ++v) {
    if (rnd() < 0.08) {
      open.length -= open.length ? below(open.length + 1) : 0;
      g.groupParent.push(open.length ? open[open.length - 1] : -1);
      g.groupExpanded.push(rnd() < 0.2 ? 0 : 1);
      g.groupCollapsedWidth.push(90);
      g.groupCollapsedHeight.push(30);
      open.push(g.groupParent.length - 1);
    }
    g.nodeWidth.push(20 + below(1000) / 10);
    g.nodeHeight.push(20 + below(20));
    g.nodeGroup.push(open.length ? open[open.length - 1] : -1);
    if (v === 0) continue;
    const inputs = 1 + below(3);
    for (let i = 0; i < inputs; ++i) {
      const back = rnd() < 0.9 ? 1 + below(Math.min(v, 6)) : 1 + below(v);
      edge(v - back, v, rnd() < 0.2 ? below(3) : -1, rnd() < 0.2 ? below(2) : -1);
    }
    if (rnd() < 0.02) edge(v, below(v), -1, -1);  // closes a cycle
  }
  return g;
}

const typed = (g) => ({
  nodeWidth: Float64Array.from(g.nodeWidth), nodeHeight: Float64Array.from(g.nodeHeight),
  nodeGroup: Int32Array.from(g.nodeGroup), edgeSource: Int32Array.from(g.edgeSource),
  edgeTarget: Int32Array.from(g.edgeTarget), edgeSourcePort: Int32Array.from(g.edgeSourcePort),
  edgeTargetPort: Int32Array.from(g.edgeTargetPort), edgeSkip: Int32Array.from(g.edgeSkip),
  groupParent: Int32Array.from(g.groupParent), groupExpanded: Uint8Array.from(g.groupExpanded),
  groupCollapsedWidth: Float64Array.from(g.groupCollapsedWidth),
  groupCollapsedHeight: Float64Array.from(g.groupCollapsedHeight),
  options: Float64Array.from(g.options),
});

function main() {
  const factory = require(path.resolve(modulePath));
  // Given the wasm's bytes, as the page gives them (web/src/layout_wasm.js): the module then
  // never fetches it.
  const wasmBinary = fs.readFileSync(path.resolve(modulePath).replace(/\.js$/, '.wasm'));
  return factory({wasmBinary}).then((etviz) => {
    let failures = 0;
    for (const [n, seed, direction, segments] of
         [[3000, 1, 'TB'], [800, 2, 'LR'], [1, 3, 'TB'], [2000, 4, 'TB', true]]) {
      const g = makeGraph(n, seed, direction, segments);
      const file = path.join(os.tmpdir(), `etviz-layout-wasm-${process.pid}-${seed}.json`);
      fs.writeFileSync(file, JSON.stringify(g));
      const native = JSON.parse(execFileSync(dumpPath, [file], {maxBuffer: 1 << 30}));
      fs.unlinkSync(file);
      const wasm = etviz.etvizLayout(typed(g));
      for (const key of Object.keys(native)) {
        const a = native[key], b = wasm[key];
        let bad = !b || a.length !== b.length ? 'length' : -1;
        for (let i = 0; bad === -1 && i < a.length; ++i) {
          if (!Object.is(a[i], b[i])) bad = i;
        }
        if (bad !== -1) {
          ++failures;
          console.log(`graph ${n}/${seed} ${key}: native and wasm differ at ${bad}` +
                      (bad === 'length' ? '' : ` (${a[bad]} vs ${b[bad]})`));
        }
      }
      console.log(`graph of ${n} nodes, ${g.edgeSource.length} edges (${direction}` +
                  `${segments ? ', segments' : ''}): compared`);
    }
    if (failures) process.exit(1);
    console.log('wasm layout matches native');
  });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
