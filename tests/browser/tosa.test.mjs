// An Ethos-U program with its TOSA side file (`etviz PROGRAM --tosa FILE`): the delegate's box
// holds the TOSA graph and expands into it, its panel keeps the command stream's NPU operations
// beside the TOSA operators, and the summary counts the TOSA operators as delegated.
// Env: ETVIZ_BIN, ETVIZ_CORPUS_DIR, ETVIZ_ARTIFACTS.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { openViewer, waitForEngine } from './browser.mjs';
import { BIN, CORPUS, OUT, sharedBrowser } from './harness.mjs';

const FIXTURE =
  'arm__pte-adapter-model-explorer__src__pte_adapter_model_explorer__tests__fixtures__mobilenet_v2_ethosu__';
const PTE = () => path.join(CORPUS, 'pte', `${FIXTURE}input.pte`);
const TOSA = () => path.join(CORPUS, 'tosa', `${FIXTURE}output_tag1_TOSA-1.0+INT+int16+u55.tosa`);

const browser = sharedBrowser();

test('an Ethos-U delegate expands into its TOSA graph', async () => {
  const html = path.join(OUT, 'ethosu_tosa.html');
  execFileSync(BIN, [PTE(), '--tosa', TOSA(), '-o', html, '-q']);
  const report = JSON.parse(execFileSync(BIN, ['delegation', PTE(), '--tosa', TOSA(), '--format', 'json']).toString());
  assert.equal(report.num_delegated_nodes, 203);
  const { context, page, log } = await openViewer(browser, html);
  try {
    assert.equal(await waitForEngine(page), true);
    const box = await page.evaluate(() => {
      const t = window.etvizTest;
      for (let g = 0; g < t.groupCount(); g++)
        if (t.group(g).kind === 'delegate') return { g, ...t.group(g), contents: t.groupContents(g) };
      return null;
    });
    assert.ok(box, 'a delegate box');
    assert.equal(box.badge, '203 ops');
    const attrs = Object.fromEntries(box.attributes);
    assert.equal(attrs.tosa_file, path.basename(TOSA()));
    assert.equal(attrs.npu_operations, report.delegates[0].npu_operations);
    assert.equal(attrs.tosa_operations, report.delegates[0].tosa_operations);
    const ops = Object.fromEntries(box.contents.ops);
    assert.equal(ops.Conv2D, 36);
    assert.equal(ops.Rescale, 83);
    // Collapsed, one box; expanded, its operators are on the canvas (repeated blocks inside
    // it start folded). A program this small opens expanded.
    const toggle = (g) => page.evaluate((x) => window.etvizTest.toggleGroup(x), g);
    if (box.expanded) assert.equal((await toggle(box.g)).expanded, false);
    const before = await page.evaluate(() => window.etvizTest.visibleNodes());
    assert.equal((await toggle(box.g)).expanded, true);
    const after = await page.evaluate(() => window.etvizTest.visibleNodes());
    assert.ok(after > before + 20, `expanding shows the TOSA operators (${before} -> ${after} nodes)`);
    const convs = await page.evaluate(() =>
      window.etvizTest.findNodes('Conv2D').map((i) => window.etvizTest.node(i).visible),
    );
    assert.equal(convs.length, 36);
    assert.ok(convs.some(Boolean), 'Conv2D nodes visible once expanded');
    // The group's panel: the NPU histogram beside what the group holds, the call's TOSA file.
    await page.evaluate((g) => window.etvizTest.selectGroup(g), box.g);
    const panel = await page.textContent('#panel');
    assert.match(panel, /npu_operations/);
    assert.match(panel, /CONV 158/);
    assert.match(panel, /TOSA graph/);
    await page.screenshot({ path: path.join(OUT, 'ethosu_tosa.png') });
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});
