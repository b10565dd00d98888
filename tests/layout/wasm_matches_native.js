// Runs the WebAssembly layout module under node on generated compound graphs and checks
// that every coordinate equals the native build's bit for bit.
//
//   node wasm_matches_native.js BUILD-WASM/etviz_layout.js PATH/TO/layout_dump
// Exits 77 (CTest: skipped) when the wasm module has not been built.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const {execFileSync} = require('child_process');

const [modulePath, dumpPath] = process.argv.slice(2);
if (!modulePath || !fs.existsSync(modulePath)) {
  console.log(`skipped: no wasm module at ${modulePath} (build it with scripts/build-wasm.sh)`);
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

// A model-like compound graph: mostly short edges, some long ones, a few back edges,
// nested groups (some collapsed), ports on some edges.
function makeGraph(n, seed) {
  const rnd = random(seed);
  const below = (k) => Math.floor(rnd() * k);
  const NONE = 0xFFFFFFFF;
  const nodeSizes = [], nodeGroups = [], edges = [];
  const groupParents = [], groupExpanded = [], groupCollapsedSizes = [];
  const open = [];
  for (let v = 0; v < n; ++v) {
    if (rnd() < 0.08) {
      open.length -= open.length ? below(open.length + 1) : 0;
      groupParents.push(open.length ? open[open.length - 1] : NONE);
      groupExpanded.push(rnd() < 0.2 ? 0 : 1);
      groupCollapsedSizes.push(90, 30);
      open.push(groupParents.length - 1);
    }
    nodeSizes.push(20 + below(100), 20 + below(20));
    nodeGroups.push(open.length ? open[open.length - 1] : NONE);
    if (v === 0) continue;
    const inputs = 1 + below(3);
    for (let i = 0; i < inputs; ++i) {
      const back = rnd() < 0.9 ? 1 + below(Math.min(v, 6)) : 1 + below(v);
      edges.push(v - back, v, rnd() < 0.2 ? below(3) : NONE, rnd() < 0.2 ? below(2) : NONE);
    }
    if (rnd() < 0.02) edges.push(v, below(v), NONE, NONE);  // closes a cycle
  }
  return {nodeSizes, nodeGroups, edges, groupParents, groupExpanded, groupCollapsedSizes};
}

function main() {
  const factory = require(path.resolve(modulePath));
  return factory().then((etviz) => {
    let failures = 0;
    for (const [n, seed, direction] of [[3000, 1, 'TB'], [800, 2, 'LR'], [1, 3, 'TB']]) {
      const g = makeGraph(n, seed);
      const file = path.join(os.tmpdir(), `etviz-layout-wasm-${process.pid}-${seed}.json`);
      fs.writeFileSync(file, JSON.stringify({...g, direction}));
      const native = JSON.parse(execFileSync(dumpPath, [file], {maxBuffer: 1 << 30}));
      fs.unlinkSync(file);
      const wasm = etviz.layout({
        nodeSizes: new Float64Array(g.nodeSizes), nodeGroups: new Uint32Array(g.nodeGroups),
        edges: new Uint32Array(g.edges), groupParents: new Uint32Array(g.groupParents),
        groupExpanded: new Uint8Array(g.groupExpanded),
        groupCollapsedSizes: new Float64Array(g.groupCollapsedSizes), options: {direction},
      });
      for (const key of ['nodes', 'groups', 'edgeRanges', 'points', 'labels', 'bounds']) {
        const a = native[key], b = wasm[key];
        let bad = a.length !== b.length ? 'length' : -1;
        for (let i = 0; bad === -1 && i < a.length; ++i) {
          if (!Object.is(a[i], b[i])) bad = i;
        }
        if (bad !== -1) {
          ++failures;
          console.log(`graph ${n}/${seed} ${key}: native and wasm differ at ${bad}` +
                      (bad === 'length' ? '' : ` (${a[bad]} vs ${b[bad]})`));
        }
      }
      console.log(`graph of ${n} nodes, ${g.edges.length / 4} edges (${direction}): compared`);
    }
    if (failures) process.exit(1);
    console.log('wasm layout matches native');
  });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
