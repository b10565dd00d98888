#!/usr/bin/env node
// Viewer benchmark: for generated programs of ~1k, 10k and 100k nodes, measures
//   write   time for `etviz FILE -o page.html`
//   size    page size
//   paint   navigation start -> first complete paint (the frame after the first draw)
//   draw    median / p95 time of the viewer's drawing calls while panning and zooming
//   frame   median / p95 interval between animation frames while the page pans and zooms on
//           every frame (includes the browser's rasterisation; 16.7 ms = 60 Hz)
//   toggle  expand and collapse of five different groups: WebAssembly re-layout + next frame
//           (median; max in the JSON output)
//   flatten on and off, and every step of the depth slider (max), likewise
// in headless Chromium. Targets (issue 4): 10k paint < 1.5 s, 100k < 5 s, frame < 16 ms,
// toggle < 100 ms at 10k.
//
// usage: node bench/viewer/run.mjs --etviz build/src/cli/etviz --gen build/tools/gen/etviz-gen
//                                  [--out DIR] [--blocks 25,250,2500] [--json]
//        node bench/viewer/run.mjs --etviz ... --graphs A.json,B.json
// --graphs takes layout-bench graphs (bench/layout/gen_model_graphs.py: a U-Net or MoE of
// 100k nodes) instead of generated programs; they are opened as Model Explorer JSON, their
// module paths becoming nested groups.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { launch, openViewer } from '../../tests/browser/browser.mjs';

const args = Object.fromEntries(process.argv.slice(2).reduce((acc, a, i, all) => {
  if (a.startsWith('--')) acc.push([a.slice(2), all[i + 1] && !all[i + 1].startsWith('--') ? all[i + 1] : true]);
  return acc;
}, []));
const ETVIZ = args.etviz;
const GEN = args.gen;
if (!ETVIZ || (!GEN && !args.graphs)) {
  console.error('usage: run.mjs --etviz PATH --gen PATH [--out DIR] [--blocks 25,250,2500] [--json]');
  process.exit(2);
}
const OUT = path.resolve(args.out || 'viewer-bench');
fs.mkdirSync(OUT, { recursive: true });
const BLOCKS = String(args.blocks || '25,250,2500').split(',').map(Number);

// A layout-bench graph ({nodes: [{id, label, group}], edges: [{source, target}]}) as a Model
// Explorer GraphCollection: the dotted module path is the namespace.
function writeModelExplorerJson(graphPath, out) {
  const g = JSON.parse(fs.readFileSync(graphPath, 'utf8'));
  const inputs = new Map();
  for (const e of g.edges) {
    if (!inputs.has(e.target)) inputs.set(e.target, []);
    inputs.get(e.target).push(e.source);
  }
  const nodes = g.nodes.map((n) => ({
    id: n.id, label: n.label, namespace: (n.group || '').split('.').join('/'),
    incomingEdges: (inputs.get(n.id) || []).map((src, i) => ({ sourceNodeId: src, sourceNodeOutputId: '0', targetNodeInputId: String(i) })),
  }));
  fs.writeFileSync(out, JSON.stringify({ label: path.basename(graphPath), graphs: [{ id: 'graph', nodes }] }));
}
const INPUTS = args.graphs
  ? String(args.graphs).split(',').map((g) => ({ name: path.basename(g, '.json'), graph: g }))
  : BLOCKS.map((blocks) => ({ name: `gen_${blocks}`, blocks }));

const median = (a) => { const s = [...a].sort((x, y) => x - y); return s.length ? s[Math.floor(s.length / 2)] : NaN; };
const p95 = (a) => { const s = [...a].sort((x, y) => x - y); return s.length ? s[Math.min(s.length - 1, Math.floor(s.length * 0.95))] : NaN; };
const nextFrame = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

const browser = await launch();
const rows = [];
for (const { name, blocks, graph } of INPUTS) {
  const input = path.join(OUT, graph ? `${name}.me.json` : `${name}.pte`);
  const html = path.join(OUT, `${name}.html`);
  if (graph) writeModelExplorerJson(graph, input);
  else execFileSync(GEN, ['program', '--blocks', String(blocks), '--dim', '8', '--hidden', '8', '--delegates', '-o', input], { stdio: 'ignore' });
  const t0 = process.hrtime.bigint();
  execFileSync(ETVIZ, [input, '-o', html, '-q']);
  const writeMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const size = fs.statSync(html).size;

  const { page, context, log } = await openViewer(browser, html, { width: 1400, height: 900 });
  const paintMs = await page.evaluate(() => window.etvizTest.timings().firstPaint);
  await page.evaluate(() => window.etvizTest.ready());
  const nodes = await page.evaluate(() => window.etvizTest.graphs()[window.etvizTest.graph()].irNodes);

  // Pan and zoom in three views: the initial one, a dense one (35%: labels on, many boxes)
  // and the whole graph (far level of detail).
  const box = await page.locator('#canvas').boundingBox();
  const cx = box.x + box.width / 2, cy = box.y + box.height / 2;
  const phases = {};
  const intervals = {};
  for (const [phase, setup] of [['initial', null], ['dense', 0.35], ['whole', 'fit']]) {
    if (setup === 'fit') await page.keyboard.press('f');
    else if (setup) await page.evaluate((s) => window.etvizTest.setZoom(s), setup);
    await nextFrame(page);
    await page.evaluate(() => window.etvizTest.clearFrameTimes());
    for (let k = 0; k < 30; k++) {
      await page.mouse.move(cx, cy);
      await page.mouse.down();
      await page.mouse.move(cx + 40 * Math.sin(k), cy - 30 * Math.cos(k), { steps: 2 });
      await page.mouse.up();
      await nextFrame(page);
    }
    for (let k = 0; k < 10; k++) { await page.mouse.wheel(0, 100); await nextFrame(page); }
    for (let k = 0; k < 10; k++) { await page.mouse.wheel(0, -100); await nextFrame(page); }
    phases[phase] = await page.evaluate(() => window.etvizTest.frameTimes());
    // Frame-to-frame interval while the page animates a pan and zoom on every frame: includes
    // the browser's rasterisation and compositing, not only the viewer's drawing calls.
    intervals[phase] = await page.evaluate(() => window.etvizTest.animate(120));
  }
  const frames = Object.values(phases).flat();
  const phaseMedians = Object.fromEntries(Object.entries(phases).map(([k, v]) => [k, median(v)]));

  // Expand then collapse five different groups (the page starts with them collapsed when
  // there are many), each time WebAssembly layout + the next frame. Different groups, so an
  // expand is never a repeat of a state the engine has cached; the collapse returns to the
  // initial state. Waits for the page's warm-up run first (as a user would: it runs while
  // the page is idle after load).
  await page.waitForFunction(() => window.etvizTest.timings().warmupMs !== null || !window.etvizTest.groupCount(),
    null, { timeout: 15000 }).catch(() => {});
  const warmupMs = await page.evaluate(() => window.etvizTest.timings().warmupMs);
  const toggle = await page.evaluate(async () => {
    const t = window.etvizTest;
    if (!(await t.ready()) || !t.groupCount()) return null;
    const n = t.groupCount();
    const groups = [...new Set([0, Math.floor(n / 4), Math.floor(n / 2), Math.floor((3 * n) / 4), n - 1])];
    const times = [];
    for (const g of groups) {
      for (let k = 0; k < 2; k++) {
        const r = await t.toggleGroup(g);
        times.push({ total: r.ms, layout: r.layoutMs, expanded: r.expanded ? 1 : 0 });
      }
    }
    return times;
  });
  // Flatten on and off, then the depth slider from the top to every level and back to the
  // initial level, each time layout + the next frame (docs/viewer.md, "Flatten and depth").
  let structureError = null;
  const structure = await page.evaluate(async () => {
    const t = window.etvizTest;
    if (!(await t.ready()) || !t.groupCount()) return null;
    const flatOn = await t.setFlat(true);
    const flatOff = await t.setFlat(false);
    const start = t.depth();
    const depth = [];
    for (let level = 0; level <= start.levels; level++) depth.push((await t.setDepth(level)).ms);
    depth.push((await t.setDepth(start.level)).ms);
    return { flatOn: flatOn.ms, flatOff: flatOff.ms, depth, levels: start.levels };
  }).catch((e) => {
    // A layout the module cannot finish (a 100k-node U-Net flattened aborts it) is a result
    // to report, not a reason to lose the rows measured so far.
    structureError = String(e.message).split('\n')[0];
    return null;
  });
  await page.screenshot({ path: path.join(OUT, `${name}.png`) });
  await context.close();
  const pick = (exp, part = 'total') => toggle && median(toggle.filter((t) => t.expanded === exp).map((t) => t[part]));
  rows.push({
    name, blocks, nodes, writeMs, size, paintMs, frameMedian: median(frames), frameP95: p95(frames), frames: frames.length, phaseMedians,
    intervalMedian: median(Object.values(intervals).flat()), intervalP95: p95(Object.values(intervals).flat()),
    intervalMedians: Object.fromEntries(Object.entries(intervals).map(([k, v]) => [k, median(v)])),
    expandMs: pick(1), collapseMs: pick(0),
    // Of which the WebAssembly layout (the rest: the page's rebuild and the next frame).
    expandLayoutMs: pick(1, 'layout'), collapseLayoutMs: pick(0, 'layout'),
    expandMaxMs: toggle && Math.max(...toggle.filter((t) => t.expanded === 1).map((t) => t.total)),
    collapseMaxMs: toggle && Math.max(...toggle.filter((t) => t.expanded === 0).map((t) => t.total)),
    warmupMs,
    flattenMs: structure && structure.flatOn, unflattenMs: structure && structure.flatOff,
    depthMaxMs: structure && Math.max(...structure.depth), depthMs: structure && structure.depth,
    errors: log.errors.length, structureError,
  });
}
await browser.close();

if (args.json) {
  console.log(JSON.stringify(rows, null, 2));
} else {
  const f = (v, d = 0) => (v === null || v === undefined || Number.isNaN(v) ? 'n/a' : v.toFixed(d));
  console.log('| nodes | etviz write | page size | first paint | draw median (p95) | frame interval median (p95) | expand | collapse | flatten on / off | depth step (max) |');
  console.log('|------:|-----------:|----------:|------------:|------------------:|----------------------------:|-------:|---------:|-----------------:|-----------------:|');
  for (const r of rows)
    console.log(`| ${r.nodes.toLocaleString('en-US')} | ${f(r.writeMs)} ms | ${(r.size / 1048576).toFixed(2)} MiB | ${f(r.paintMs)} ms | ${f(r.frameMedian, 1)} ms (${f(r.frameP95, 1)}) | ${f(r.intervalMedian, 1)} ms (${f(r.intervalP95, 1)}) | ${f(r.expandMs)} ms | ${f(r.collapseMs)} ms | ${f(r.flattenMs)} / ${f(r.unflattenMs)} ms | ${f(r.depthMaxMs)} ms |` +
                (r.structureError ? ` flatten failed: ${r.structureError}` : ''));
}
