// Weights in a diff page (docs/diff.md "Values and weights", timeline overlay): a generated
// program against a copy with three weights edited (etviz-gen --edit-weights 3). The nodes
// holding them are coloured changed, and each one's panel lists its tensor's figures as
// `etviz diff --format json` states them (themselves checked against numpy by
// tests/diff/test_value_diff_oracle.py).
// Env: ETVIZ_BIN, ETVIZ_GEN, ETVIZ_ARTIFACTS.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { openViewer, waitForEngine } from './browser.mjs';
import { BIN, GEN, OUT, sharedBrowser, timelineEval } from './harness.mjs';

const SMALL = ['--blocks', '1', '--dim', '16', '--hidden', '24', '--heads', '2', '--seq', '4', '--vocab', '32'];

const browser = sharedBrowser();

const T = timelineEval;

test('weights: changed nodes carry their tensors and the figures etviz diff states', async () => {
  const a = path.join(OUT, 'a.pte');
  const b = path.join(OUT, 'b.pte');
  execFileSync(GEN, ['program', ...SMALL, '--fill-constants', '-o', a], { stdio: 'ignore' });
  execFileSync(GEN, ['program', ...SMALL, '--fill-constants', '--edit-weights', '3', '-o', b], { stdio: 'ignore' });
  const html = path.join(OUT, 'weights.html');
  execFileSync(BIN, ['diff', a, b, '-o', html]);
  const report = JSON.parse(execFileSync(BIN, ['diff', a, b, '--format', 'json']).toString());
  const forward = report.diffs[report.programs[0].methods.find((m) => m.name === 'forward').diff];
  const differ = forward.values.tensors.filter((t) => t.data === 'differ');
  assert.equal(differ.length, 3);
  const { page, log, context } = await openViewer(browser, html);
  try {
    assert.ok(await waitForEngine(page));
    assert.equal(await T(page, 't.step()'), 1);
    const legend = await T(page, 't.legend()');
    for (const key of ['same', 'changed', 'added', 'removed']) assert.equal(legend[key], forward[key], key);
    // Every tensor that differs is on a node of the page, and that node is coloured changed.
    const tensors = await T(page, 't.tensors()');
    const shown = Object.entries(tensors).flatMap(([node, list]) => list.map((t) => [Number(node), t]));
    assert.deepEqual(shown.map(([, t]) => t.name).sort(), differ.map((t) => t.name).sort());
    for (const [node, t] of shown) {
      assert.equal(await T(page, `t.status(${node})`), 'changed', t.name);
      const expected = differ.find((d) => d.name === t.name).stats;
      assert.equal(t.stats.differing, expected.differing);
      assert.equal(t.stats.elements, expected.positions);
      // The panel lists the figures.
      await page.evaluate((i) => window.etvizTest.selectNode(i), node);
      await page.evaluate(() => window.etvizTest.frame());
      const texts = await page.$$eval('#panel .timeline-tensor', (els) => els.map((e) => e.textContent));
      const mine = texts.find((x) => x.includes(t.name));
      assert.ok(mine, `panel of ${t.name}: ${texts}`);
      assert.ok(mine.includes(`${expected.differing} of ${expected.positions} elements`), mine);
      assert.ok(mine.includes('cosine') && mine.includes('SNR') && mine.includes('first'), mine);
      assert.ok(mine.includes(String(Number(expected.max_abs.toPrecision(6)))), mine);
    }
    await page.screenshot({ path: path.join(OUT, 'weights-panel.png') });
    // The step before (A itself) has nothing to say about weights.
    assert.deepEqual(await T(page, 't.tensors(0)'), {});
    assert.deepEqual(log.errors, []);
    assert.deepEqual(log.requests, []);
  } finally {
    await context.close();
  }
});
