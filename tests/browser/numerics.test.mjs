// The numerics overlay (`etviz PROGRAM --etdump RUN.etdp --debug-buffer RUN.bin --reference
// REF.etdp --reference-debug-buffer REF.bin`) in headless Chromium, on generated runs with a
// planted drift (from instruction 9) and a NaN/Inf (instruction 30, so the first divergent
// output): node colours by MSE, the first divergent node outlined and named in the legend, the
// panel's figures, statistics and histogram, the sortable table that selects nodes, on/off.
// The figures themselves are checked against numpy in tests/numerics. Env: ETVIZ_BIN,
// ETVIZ_GEN, ETVIZ_ARTIFACTS.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { openViewer } from './browser.mjs';
import { BIN, GEN, OUT, sharedBrowser } from './harness.mjs';

const browser = sharedBrowser();

function run(bin, args) {
  return execFileSync(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] }).toString();
}

test('numerics: gap colours, first divergent, panel, sortable table, on/off', async () => {
  const p = (name) => path.join(OUT, name);
  run(GEN, [
    'program',
    '--blocks',
    '1',
    '--dim',
    '16',
    '--hidden',
    '32',
    '--vocab',
    '32',
    '--heads',
    '2',
    '-o',
    p('n.pte'),
  ]);
  const common = ['etdump', '--program', p('n.pte'), '--runs', '1', '--outputs'];
  run(GEN, [...common, '--debug-buffer', p('ref.bin'), '-o', p('ref.etdp')]);
  run(GEN, [...common, '--drift-from', '9', '--nan-at', '30', '--debug-buffer', p('run.bin'), '-o', p('run.etdp')]);
  const html = p('numerics.html');
  const files = ['--etdump', p('run.etdp'), '--debug-buffer', p('run.bin'), '--reference', p('ref.etdp')];
  run(BIN, [p('n.pte'), ...files, '--reference-debug-buffer', p('ref.bin'), '-o', html, '-q']);

  for (const scheme of ['light', 'dark']) {
    const { page, log, context } = await openViewer(browser, html, { colorScheme: scheme });
    try {
      const t = (expr) => page.evaluate(`window.etvizTest.${expr}`);
      const o = (expr) => t(`overlay('numerics').${expr}`);
      assert.equal(await t('nodeStylesActive()'), true);
      const legend = await page.$eval('#numerics-legend', (el) => ({
        text: el.textContent,
        visible: el.getBoundingClientRect().width > 0,
      }));
      assert.ok(legend.visible);
      assert.match(legend.text, /Numerics · run\.etdp vs ref\.etdp/);
      assert.match(legend.text, /divergent when snr < 20 dB/);
      assert.match(legend.text, /First divergent: #30 .*dequantize_per_tensor.*non-finite/);

      // The planted NaN/Inf at instruction 30 is the first divergent output; its node is
      // outlined (the last style), nodes before the drift are "identical", after it heated.
      const first = await o('firstDivergent()');
      assert.equal(first, 30);
      assert.equal((await o(`row(${first})`)).instruction, 30);
      const node = await o('firstDivergentNode()');
      assert.ok(node >= 0, 'the first divergent row has a node');
      const styles = await o('styles()');
      assert.equal(await o(`bucket(${node})`), styles.length - 1, 'outlined');
      const buckets = await page.evaluate(() => {
        const t = window.etvizTest,
          n = t.overlay('numerics');
        const out = [];
        for (let i = 0; i < t.graphs()[t.graph()].nodes; i++) {
          const r = n.rowOf(i);
          if (r >= 0) out.push({ i, instr: n.row(r).instruction, bucket: n.bucket(i), mse: n.row(r).mse });
        }
        return out;
      });
      const heatSteps = styles.length - 3;
      for (const b of buckets) {
        if (b.i === node) continue;
        if (b.mse === 0) assert.equal(b.bucket, heatSteps, `identical output at ${b.instr}`);
        else assert.ok(b.bucket < heatSteps, `heated output at ${b.instr}`);
      }
      // Larger MSE, hotter step (log scale).
      const heated = buckets.filter((b) => b.mse > 0 && b.i !== node).sort((a, b) => a.mse - b.mse);
      for (let k = 1; k < heated.length; k++) assert.ok(heated[k].bucket >= heated[k - 1].bucket);

      // The panel: figures, both tensors' statistics, the differences' histogram.
      await t(`selectNode(${node})`);
      const panel = await page.$eval('#panel', (p) => {
        const s = p.querySelector('.numerics-section');
        return s
          ? {
              text: s.textContent,
              bars: s.querySelectorAll('.numerics-hist rect').length,
              stats: !!s.querySelector('.numerics-stats'),
            }
          : null;
      });
      assert.ok(panel, 'numerics section in the panel');
      assert.match(panel.text, /first divergent/);
      assert.match(panel.text, /MSE/);
      assert.match(panel.text, /NaN\/Inf.*run 1\/1/);
      assert.ok(panel.stats);
      assert.equal(panel.bars, 24);

      // The table: sorted by MSE (largest first after two clicks), a row selects its node.
      await page.keyboard.press('Escape');
      await page.keyboard.press('d');
      let rows = await o('tableRows()');
      assert.equal(rows[0].row, 0, 'execution order first');
      await o("sortBy('mse')");
      rows = await o('tableRows()');
      const mses = rows.map((r) => r.mse).filter((m) => typeof m === 'number');
      const sorted = [...mses].sort((a, b) => a - b);
      assert.ok(
        JSON.stringify(mses) === JSON.stringify(sorted) ||
          JSON.stringify(mses) === JSON.stringify([...sorted].reverse()),
        'sorted by MSE',
      );
      await o(`pickRow(${first})`);
      assert.equal((await t('selected()')).node, node, 'the row selects its node');
      await page.screenshot({ path: path.join(OUT, `numerics_${scheme}.png`) });

      // Off: category colours.
      await page.click('#numerics-legend .nd-toggle');
      assert.equal(await o('on()'), false);
      assert.deepEqual(log.errors, []);
      assert.deepEqual(log.requests, []);
    } finally {
      await context.close();
    }
  }
});
