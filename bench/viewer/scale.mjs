#!/usr/bin/env node
// Scale benchmark (the hostile-input issue, item 2): a generated program of --blocks N
// (25000 = 1,025,003 kernel calls, 1.25M graph nodes) through `etviz info` and `etviz view`,
// each under /usr/bin/time -v (wall and CPU seconds, peak resident memory), then the page in
// headless Chromium (opens or not, time to ready and to first paint, the page's JS heap).
// Targets: view < 30 s and < 1.5 GiB, info < 5 s and < 1 GiB, the page opens.
// `--before PATH` runs a second etviz binary (e.g. main's) on the same file for comparison.
//
// usage: node bench/viewer/scale.mjs --etviz build/src/cli/etviz --gen build/tools/gen/etviz-gen
//                                    [--blocks 25000] [--out DIR] [--before OTHER_ETVIZ] [--json]
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { launch, openViewer } from '../../tests/browser/browser.mjs';

const args = Object.fromEntries(process.argv.slice(2).reduce((acc, a, i, all) => {
  if (a.startsWith('--')) acc.push([a.slice(2), all[i + 1] && !all[i + 1].startsWith('--') ? all[i + 1] : true]);
  return acc;
}, []));
if (!args.etviz || !args.gen) {
  console.error('usage: scale.mjs --etviz PATH --gen PATH [--blocks 25000] [--out DIR] [--before PATH] [--json]');
  process.exit(2);
}
const OUT = path.resolve(args.out || 'scale-bench');
fs.mkdirSync(OUT, { recursive: true });
const BLOCKS = Number(args.blocks || 25000);
const pte = path.join(OUT, `gen_${BLOCKS}.pte`);
execFileSync(args.gen, ['program', '--blocks', String(BLOCKS), '-o', pte], { stdio: 'ignore' });

// One command under /usr/bin/time -v: exit code, wall and CPU seconds, peak RSS.
function timed(argv) {
  const r = spawnSync('/usr/bin/time', ['-v', ...argv], { encoding: 'utf8', maxBuffer: 1 << 30 });
  const field = (name) => {
    const m = r.stderr.match(new RegExp(`${name}: (.*)`));
    return m ? m[1].trim() : null;
  };
  const clock = field('Elapsed \\(wall clock\\) time \\(h:mm:ss or m:ss\\)').split(':').map(Number);
  const wall = clock.reduce((a, v) => a * 60 + v, 0);
  return {
    exit: Number(field('Exit status')), wall, cpu: Number(field('User time \\(seconds\\)')) + Number(field('System time \\(seconds\\)')),
    peakMiB: Number(field('Maximum resident set size \\(kbytes\\)')) / 1024,
    message: r.stderr.split('\n').filter((l) => l.startsWith('etviz:')).slice(-1)[0] || '',
  };
}

const browser = await launch();
const rows = [];
for (const [label, bin] of [['before', args.before], ['after', args.etviz]]) {
  if (!bin) continue;
  const info = timed([bin, 'info', pte, '-o', path.join(OUT, `info_${label}.txt`)]);
  const html = path.join(OUT, `gen_${BLOCKS}_${label}.html`);
  const view = timed([bin, pte, '-o', html]);
  const row = { label, info, view, pageMiB: fs.existsSync(html) ? fs.statSync(html).size / 1048576 : 0 };
  if (view.exit === 0) {
    const t0 = Date.now();
    try {
      const { page, context, log } = await openViewer(browser, html);
      row.readyMs = Date.now() - t0;
      row.paintMs = await page.evaluate(() => window.etvizTest.timings().firstPaint);
      row.nodes = await page.evaluate(() => window.etvizTest.graphs()[0].irNodes);
      row.heapMiB = await page.evaluate(() => (performance.memory ? performance.memory.usedJSHeapSize / 1048576 : null));
      row.errors = log.errors;
      await page.screenshot({ path: path.join(OUT, `gen_${BLOCKS}_${label}.png`) });
      await context.close();
    } catch (e) {
      row.openError = String(e.message || e).split('\n')[0];
    }
  }
  rows.push(row);
  fs.rmSync(html, { force: true });
}
await browser.close();

if (args.json) {
  console.log(JSON.stringify(rows, null, 2));
} else {
  const s = (t) => `${t.wall.toFixed(1)} s (${t.cpu.toFixed(1)} s CPU), ${(t.peakMiB / 1024).toFixed(2)} GiB${t.exit ? `, exit ${t.exit}` : ''}`;
  console.log(`${BLOCKS} blocks (${pte})`);
  console.log('| | info | view | page | opens in Chromium | ready | first paint | JS heap |');
  console.log('|--|--|--|--:|--|--:|--:|--:|');
  for (const r of rows) {
    const opens = r.openError ? `no: ${r.openError}` : r.readyMs !== undefined ? `yes (${r.nodes.toLocaleString('en-US')} nodes${r.errors.length ? `, errors: ${r.errors[0]}` : ''})` : 'no page';
    console.log(`| ${r.label} | ${s(r.info)} | ${s(r.view)} | ${r.pageMiB.toFixed(1)} MiB | ${opens} | ${r.readyMs ?? 'n/a'} ms | ${r.paintMs ? r.paintMs.toFixed(0) : 'n/a'} ms | ${r.heapMiB ? r.heapMiB.toFixed(0) + ' MiB' : 'n/a'} |`);
  }
}
