#!/usr/bin/env node
// Diff and timeline benchmark (issue "Compiler passes and diffs"):
//   diff     `etviz diff A B --format json` of two generated programs (B lacks 5 of A's blocks:
//            ~200 ops removed, the rest matched), wall time and peak memory, at three sizes;
//            beside it the same run of `etviz info` on both files (reading alone) and the peer
//            users run today: GNU diff of the two programs printed as text
//            (`etviz delegation --graph`), timed apart from printing them.
//   trace    a 30-pass trace of a ~5k-node model (the generated trace's passes, repeated):
//            `etviz trace.json -o page.html` and the page's first paint in headless Chromium.
//   step     redraw after stepping between passes of a ~10k-node trace in Chromium (setStep
//            + the next frame), median and max over every step.
// Targets: diff of 100k nodes < 2 s; trace open < 3 s; step < 100 ms.
//
// usage: node bench/diff/run.mjs --etviz build/src/cli/etviz --gen build/tools/gen/etviz-gen
//                                [--out DIR] [--blocks 500,1000,2000] [--json]
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { launch, openViewer, waitForEngine } from '../../tests/browser/browser.mjs';

const args = Object.fromEntries(process.argv.slice(2).reduce((acc, a, i, all) => {
  if (a.startsWith('--')) acc.push([a.slice(2), all[i + 1] && !all[i + 1].startsWith('--') ? all[i + 1] : true]);
  return acc;
}, []));
const ETVIZ = args.etviz, GEN = args.gen;
if (!ETVIZ || !GEN) {
  console.error('usage: run.mjs --etviz PATH --gen PATH [--out DIR] [--blocks 500,1000,2000] [--json]');
  process.exit(2);
}
const OUT = args.out || fs.mkdtempSync('/tmp/etviz-bench-diff-');
fs.mkdirSync(OUT, { recursive: true });
const BLOCKS = String(args.blocks || '500,1000,2000').split(',').map(Number);
const log = (...a) => console.error(...a);

// Wall seconds and peak RSS (MiB) of a command, via /usr/bin/time.
function measure(cmd, argv, stdout = 'ignore') {
  const t0 = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-f', '%M', cmd, ...argv], { stdio: ['ignore', stdout === 'ignore' ? 'ignore' : 'pipe', 'pipe'], maxBuffer: 1 << 30 });
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  const lines = r.stderr.toString().trim().split('\n');
  return { s, mib: Number(lines[lines.length - 1]) / 1024, status: r.status, out: r.stdout };
}
const program = (blocks, file) => execFileSync(GEN, ['program', '--blocks', String(blocks), '--dim', '16', '--hidden', '32', '--vocab', '64', '-o', file], { stdio: 'ignore' });

const results = { diff: [], trace: null, step: null };
for (const blocks of BLOCKS) {
  const a = path.join(OUT, `a_${blocks}.pte`), b = path.join(OUT, `b_${blocks}.pte`);
  program(blocks, a);
  program(blocks - 5, b);
  // Reports go to a file in the bench's own folder: never a system path such as /dev/null.
  const read = measure(ETVIZ, ['info', a, '--json', '-o', path.join(OUT, 'info_a.json')]);
  const read2 = measure(ETVIZ, ['info', b, '--json', '-o', path.join(OUT, 'info_b.json')]);
  const diff = measure(ETVIZ, ['diff', a, b, '--format', 'json', '-o', path.join(OUT, `diff_${blocks}.json`)]);
  const full = JSON.parse(fs.readFileSync(path.join(OUT, `diff_${blocks}.json`), 'utf8'));
  const report = full.diffs[0];
  const nodes = full.graphs[0].nodes;
  fs.writeFileSync(path.join(OUT, `a_${blocks}.txt`), execFileSync(ETVIZ, ['delegation', a, '--graph'], { maxBuffer: 1 << 30 }));
  fs.writeFileSync(path.join(OUT, `b_${blocks}.txt`), execFileSync(ETVIZ, ['delegation', b, '--graph'], { maxBuffer: 1 << 30 }));
  const peer = measure('diff', [path.join(OUT, `a_${blocks}.txt`), path.join(OUT, `b_${blocks}.txt`)]);
  const row = { blocks, nodes, diff_s: diff.s, diff_mib: diff.mib, read_both_s: read.s + read2.s, gnu_diff_text_s: peer.s,
    same: report.same, changed: report.changed, added: report.added, removed: report.removed };
  results.diff.push(row);
  log(`diff ${nodes} nodes: ${diff.s.toFixed(2)} s, ${diff.mib.toFixed(0)} MiB (reading both: ${row.read_both_s.toFixed(2)} s; GNU diff of text dumps: ${peer.s.toFixed(2)} s); same ${report.same} changed ${report.changed} added ${report.added} removed ${report.removed}`);
}

// A 30-pass trace: the generated trace's six passes five times over.
function thirtyPassTrace(blocks, file) {
  const six = path.join(OUT, `trace6_${blocks}.json`);
  execFileSync(GEN, ['trace', '--blocks', String(blocks), '--dim', '16', '--hidden', '32', '-o', six], { stdio: 'ignore' });
  const t = JSON.parse(fs.readFileSync(six, 'utf8'));
  const passes = [];
  for (let k = 0; k < 30; k++) {
    const p = JSON.parse(JSON.stringify(t.passes[k % 6]));
    p.metadata.model_name = `${k + 1}_${p.metadata.model_name.replace(/^\d+_/, '')}`;
    passes.push(p);
  }
  fs.writeFileSync(file, JSON.stringify({ model_name: t.model_name, passes }));
  return t.passes[0].nodes.length;
}

const browser = await launch();
try {
  {
    const json = path.join(OUT, 'trace30.json'), html = path.join(OUT, 'trace30.html');
    const nodes = thirtyPassTrace(120, json);
    const write = measure(ETVIZ, [json, '-o', html, '-q']);
    const t0 = Date.now();
    const { page, context } = await openViewer(browser, html);
    const open = (Date.now() - t0) / 1000;
    const paint = await page.evaluate(() => window.etvizTest.timings().firstPaint / 1000);
    await context.close();
    results.trace = { passes: 30, nodes, write_s: write.s, write_mib: write.mib, page_mib: fs.statSync(html).size / 1048576, open_s: open, first_paint_s: paint };
    log(`trace 30 passes x ${nodes} nodes: written in ${write.s.toFixed(2)} s (${write.mib.toFixed(0)} MiB), page ${results.trace.page_mib.toFixed(1)} MiB, opened in ${open.toFixed(2)} s (first paint ${paint.toFixed(2)} s)`);
  }
  {
    const six = path.join(OUT, 'trace10k.json'), html = path.join(OUT, 'trace10k.html');
    execFileSync(GEN, ['trace', '--blocks', '240', '--dim', '16', '--hidden', '32', '-o', six], { stdio: 'ignore' });
    execFileSync(ETVIZ, [six, '-o', html, '-q']);
    const { page, context } = await openViewer(browser, html);
    await waitForEngine(page);
    const times = await page.evaluate(async () => {
      const t = window.etvizTest.overlay('timeline');
      const out = [];
      for (const k of [1, 2, 3, 5, 4, 3, 2, 1, 0]) {
        const t0 = performance.now();
        t.setStep(k);
        await window.etvizTest.frame();
        out.push(performance.now() - t0);
      }
      return out;
    });
    const nodes = await page.evaluate(() => window.etvizTest.overlay('timeline').steps()[1].nodes);
    await context.close();
    times.sort((x, y) => x - y);
    results.step = { nodes, median_ms: times[times.length >> 1], max_ms: times[times.length - 1] };
    log(`step between passes of ${nodes} nodes: median ${results.step.median_ms.toFixed(0)} ms, max ${results.step.max_ms.toFixed(0)} ms (includes two animation frames)`);
  }
} finally {
  await browser.close();
}
if (args.json) console.log(JSON.stringify(results, null, 2));
