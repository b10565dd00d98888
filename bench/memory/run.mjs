#!/usr/bin/env node
// Memory plan benchmark (issue "Memory plan and size"): `etviz memory` on generated programs
// against reading them alone (`etviz info`, the peer in the same script), and the page's memory
// timeline draw time with the plan's tensors (target: memory < 1 s at 100k nodes; draw < 16 ms
// with 200k tensors).
// usage: node bench/memory/run.mjs --etviz build/src/cli/etviz --gen build/tools/gen/etviz-gen [--blocks 2400,5200]
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { launch, openViewer, waitForEngine } from '../../tests/browser/browser.mjs';

const args = Object.fromEntries(process.argv.slice(2).reduce((acc, a, i, all) => {
  if (a.startsWith('--')) acc.push([a.slice(2), all[i + 1] && !all[i + 1].startsWith('--') ? all[i + 1] : true]);
  return acc;
}, []));
const ETVIZ = args.etviz, GEN = args.gen;
const OUT = fs.mkdtempSync('/tmp/etviz-bench-memory-');
const time = (argv) => { const t0 = process.hrtime.bigint(); const r = spawnSync(ETVIZ, argv, { stdio: 'ignore' }); if (r.status) throw new Error(argv.join(' ')); return Number(process.hrtime.bigint() - t0) / 1e9; };
const browser = await launch();
for (const blocks of String(args.blocks || '2400,5200').split(',').map(Number)) {
  const pte = path.join(OUT, `p${blocks}.pte`);
  execFileSync(GEN, ['program', '--blocks', String(blocks), '--dim', '16', '--hidden', '32', '--vocab', '64', '-o', pte], { stdio: 'ignore' });
  const plan = JSON.parse(execFileSync(ETVIZ, ['memory', pte, '--format', 'json'], { maxBuffer: 1 << 30 }));
  const info = JSON.parse(execFileSync(ETVIZ, ['info', pte, '--json'], { maxBuffer: 1 << 30 }));
  const nodes = info.methods[0].node_count;
  // Reports go to a file in the bench's own folder: never a system path such as /dev/null.
  const sink = path.join(OUT, 'report.out');
  const mem = Math.min(time(['memory', pte, '-o', sink]), time(['memory', pte, '-o', sink]));
  const memJson = Math.min(time(['memory', pte, '--format', 'json', '-o', sink]), time(['memory', pte, '--format', 'json', '-o', sink]));
  const read = Math.min(time(['info', pte, '--json', '-o', sink]), time(['info', pte, '--json', '-o', sink]));
  const html = path.join(OUT, `p${blocks}.html`);
  execFileSync(ETVIZ, [pte, '-o', html, '-q']);
  const { page, context } = await openViewer(browser, html);
  await waitForEngine(page);
  // First render of the rectangles (on open, zoom or resize), then redraws on hover and
  // selection, which reuse the rendered rectangles.
  const [base, draws] = await page.evaluate(async () => {
    const m = window.etvizTest.overlay('memory');
    m.setOpen(true);
    const first = m.lastBaseMs();
    const out = [];
    for (let k = 0; k < 7; k++) { m.setOpen(true); out.push(m.lastDrawMs()); await window.etvizTest.frame(); }
    return [first, out];
  });
  await context.close();
  draws.sort((a, b) => a - b);
  console.log(`${nodes} nodes, ${plan.tensors.length} planned tensors: memory ${mem.toFixed(2)} s, --format json ${memJson.toFixed(2)} s (reading alone ${read.toFixed(2)} s, ${(mem / read).toFixed(2)}x); timeline first render ${base.toFixed(0)} ms, redraw median ${draws[3].toFixed(1)} ms, max ${draws[6].toFixed(1)} ms`);
}
await browser.close();
