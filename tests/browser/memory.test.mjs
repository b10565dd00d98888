// The memory timeline (web/src/memory_overlay.js) on a corpus program: it draws, hover names
// the tensor under the pointer, a click selects the tensor's writer in the graph, and a node
// selected in the graph lights up the tensors it reads and writes. Figures match
// `etviz memory --format json`.
// Env: ETVIZ_BIN, ETVIZ_CORPUS_DIR, ETVIZ_ARTIFACTS.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { openViewer, waitForEngine } from './browser.mjs';
import { BIN, GEN, CORPUS, OUT, sharedBrowser } from './harness.mjs';

const browser = sharedBrowser();

const M = (page, expr) => page.evaluate(`(() => { const m = window.etvizTest.overlay('memory'); return ${expr}; })()`);

test('memory timeline: draws the plan the CLI reports; hover, click and selection agree with the graph', async () => {
  const pte = path.join(CORPUS, 'pte', 'berndporr__dnf_executorch__test__dnf_executorch5.8b726884.pte');
  const html = path.join(OUT, 'memory.html');
  execFileSync(BIN, [pte, '-o', html, '-q']);
  const report = JSON.parse(execFileSync(BIN, ['memory', pte, '--format', 'json']).toString());
  for (const scheme of ['light', 'dark']) {
    const { page, log, context } = await openViewer(browser, html, { colorScheme: scheme });
    try {
      assert.ok(await waitForEngine(page));
      const plan = await M(page, 'm.plan()');
      assert.equal(plan.tensors, report.tensors.length);
      assert.equal(plan.instructions, report.instructions);
      assert.deepEqual(
        plan.arenas.map((a) => [a.id, a.planned, a.peak, a.peakAt]),
        report.arenas.map((a) => [a.id, a.planned_bytes, a.peak_bytes, a.peak_instruction]),
      );
      assert.equal(await M(page, 'm.open()'), false, 'starts closed');
      await page.keyboard.press('m');
      assert.equal(await M(page, 'm.open()'), true);
      await page.evaluate(() => window.etvizTest.frame());
      // The largest tensor that an instruction writes: hover it, then click it.
      const tensors = report.tensors.map((t, i) => ({ ...t, i })).filter((t) => t.writer);
      tensors.sort((a, b) => b.bytes * (b.last - b.first + 1) - a.bytes * (a.last - a.first + 1));
      const pick = tensors[0];
      const info = await M(page, `m.tensor(${pick.i})`);
      assert.equal(info.name, pick.name);
      const [x, y] = await M(page, `m.tensorPoint(${pick.i})`);
      await page.mouse.move(x, y);
      const tip = await M(page, 'm.tooltip()');
      assert.ok(tip && tip.startsWith(pick.name), `tooltip: ${tip}`);
      assert.match(tip, /written by /);
      await page.screenshot({ path: path.join(OUT, `memory-hover-${scheme}.png`) });
      await page.mouse.click(x, y);
      const selected = (await page.evaluate(() => window.etvizTest.selected())).node;
      assert.equal(selected, info.node, 'a click selects the writer');
      assert.equal((await page.evaluate((i) => window.etvizTest.node(i), selected)).name, pick.writer);
      // Selected in the graph: its tensors light up in the timeline.
      assert.ok((await M(page, 'm.highlighted()')).includes(pick.i));
      assert.ok((await M(page, 'm.lastDrawMs()')) < 1000);
      assert.deepEqual(log.errors, []);
      assert.deepEqual(log.requests, []);
    } finally {
      await context.close();
    }
  }
});

test('size treemap: areas are byte counts, the embedding tables stand out, zoom and hover work', async () => {
  const pte = path.join(OUT, 'sized.pte');
  execFileSync(GEN, ['program', '--blocks', '2', '--delegates', '--delegate-backend', 'xnnpack', '-o', pte], {
    stdio: 'ignore',
  });
  const html = path.join(OUT, 'sized.html');
  execFileSync(BIN, [pte, '-o', html, '-q']);
  const report = JSON.parse(execFileSync(BIN, ['size', pte, '--format', 'json']).toString());
  const { page, log, context } = await openViewer(browser, html);
  try {
    assert.ok(await waitForEngine(page));
    const S = (expr) => page.evaluate(`(() => { const s = window.etvizTest.overlay('size'); return ${expr}; })()`);
    assert.equal(await S('s.open()'), false);
    await page.keyboard.press('b');
    assert.equal(await S('s.open()'), true);
    const rects = await S('s.rects()');
    const top = rects.filter((r) => r.depth === 0);
    assert.deepEqual(
      top.map((r) => r.name).sort(),
      report.tree.children
        .filter((c) => c.bytes > 0)
        .map((c) => c.name)
        .sort(),
    );
    // Areas in proportion to bytes (within 1% of the drawing).
    const area = top.reduce((a, r) => a + r.w * r.h, 0);
    for (const r of top) assert.ok(Math.abs((r.w * r.h) / area - r.bytes / report.bytes) < 0.01, `${r.name}`);
    // The biggest leaf is an embedding-sized table.
    const leaves = rects.filter((r) => r.depth === 1).sort((a, b) => b.bytes - a.bytes);
    assert.match(leaves[0].name, /^(output|tok_embeddings)\.weight$/);
    const [x, y] = await S(`s.point(${JSON.stringify(leaves[0].name)})`);
    await page.mouse.move(x, y);
    assert.match(await S('s.tooltip()'), /4,194,304 bytes/);
    await page.screenshot({ path: path.join(OUT, 'size-treemap.png') });
    await page.mouse.click(x, y); // into the constants segment
    assert.equal((await S('s.path()')).length, 2);
    assert.match((await S('s.path()'))[1], /constants/);
    assert.deepEqual(log.errors, []);
    assert.deepEqual(log.requests, []);
  } finally {
    await context.close();
  }
});
