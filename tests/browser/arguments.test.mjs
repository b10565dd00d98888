// A node's arguments in the panel, in real headless Chromium: each card is named by the
// operator's schema and shows the value as the runtime resolves it, then where it came from
// (docs/formats.md, "Argument values"). The facts were read with flatc from the tutorial CNN.
// Env: ETVIZ_BIN, ETVIZ_CORPUS_DIR, ETVIZ_ARTIFACTS.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { openViewer, waitForEngine } from './browser.mjs';
import { BIN, CORPUS, OUT, sharedBrowser } from './harness.mjs';

const TUTORIAL = path.join(
  CORPUS,
  'bpte',
  'pytorch__executorch__docs__source__tutorials_source__bundled_program.a59a06e0.bp',
);

const browser = sharedBrowser();

// The panel's argument cards of node `op` (the nth such node): name, head text and rows.
async function cards(page, op, nth = 0) {
  const i = await page.evaluate(([o, k]) => window.etvizTest.findNodes(o)[k] ?? -1, [op, nth]);
  assert.ok(i >= 0, `a node with op ${op}`);
  await page.evaluate((n) => window.etvizTest.selectNode(n), i);
  return page.evaluate(() =>
    [...document.querySelectorAll('#panel .arg')].map((card) => ({
      name: card.querySelector('.arg-name').textContent,
      type: card.querySelector('.arg-type')?.textContent ?? '',
      rows: Object.fromEntries(
        [...card.querySelectorAll('.arg-body .kv')].map((r) => [
          r.querySelector('.k').textContent,
          r.querySelector('.v')?.textContent ?? '',
        ]),
      ),
    })),
  );
}

test('arguments: named by the schema, values resolved through the values table', async () => {
  const html = path.join(OUT, 'tutorial.html');
  execFileSync(BIN, [TUTORIAL, '-o', html, '-q']);
  const { page, log, context } = await openViewer(browser, html, { width: 1400, height: 1000 });
  try {
    assert.ok(await waitForEngine(page));
    const conv = await cards(page, 'aten::convolution.out');
    const byName = Object.fromEntries(conv.map((c) => [c.name, c]));
    assert.deepEqual(
      conv.map((c) => c.name),
      ['input', 'weight', 'bias', 'stride', 'padding', 'dilation', 'transposed', 'output_padding', 'groups', 'out'],
    );
    // The value first (the card's head and its first row), where it came from after.
    assert.equal(byName.stride.type, '[1, 1]');
    assert.equal(byName.stride.rows.value, '[1, 1]');
    assert.equal(byName.stride.rows['value id'], 'v14');
    assert.equal(byName.stride.rows.items, 'v12, v13');
    assert.equal(byName.padding.rows.value, '[0, 0]');
    assert.equal(byName.dilation.rows.value, '[1, 1]');
    assert.equal(byName.groups.rows.value, '1');
    assert.equal(byName.weight.type, 'float32 [6, 1, 5, 5]');
    await page.screenshot({ path: path.join(OUT, 'arguments-convolution.png') });

    const permute = await cards(page, 'aten::permute_copy.out');
    assert.equal(permute.find((c) => c.name === 'dims').rows.value, '[1, 0]');
    const pool = Object.fromEntries((await cards(page, 'aten::max_pool2d_with_indices.out')).map((c) => [c.name, c]));
    assert.equal(pool.kernel_size.rows.value, '[2, 2]');
    assert.equal(pool.stride.rows.value, '[]');
    assert.ok(pool.indices, 'the second output is named indices');
    assert.deepEqual(log.errors, []);
    assert.deepEqual(log.requests, []);
  } finally {
    await context.close();
  }
});
