// Passes and diffs in the page (timeline overlay, web/src/timeline_overlay.js): stepping
// through a generated pass trace with known edits, the failed pass's banner, nodes that never
// move, panes side by side sharing selection and search, a diff page that counts what
// `etviz diff --format json` counts, and each step's own data (the precision pass's float32
// before it and float16 after it, on the edge labels and in the panel).
// Env: ETVIZ_BIN, ETVIZ_GEN, ETVIZ_CORPUS_DIR, ETVIZ_ARTIFACTS, ETVIZ_TIMELINE_CASE.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { openViewer, waitForEngine } from './browser.mjs';
import { BIN, GEN, CORPUS, OUT, sharedBrowser, timelineEval } from './harness.mjs';

const ONLY = process.env.ETVIZ_TIMELINE_CASE;

// A generated trace (tools/gen/trace_model.h): 2 blocks, six passes, the fifth failed.
function traceFiles() {
  const json = path.join(OUT, 'trace.json');
  const html = path.join(OUT, 'trace.html');
  execFileSync(GEN, ['trace', '--blocks', '2', '--dim', '16', '--hidden', '32', '-o', json], { stdio: 'ignore' });
  execFileSync(BIN, [json, '-o', html, '-q']);
  const report = JSON.parse(execFileSync(BIN, ['diff', '--stages', json, '--format', 'json']).toString());
  return { json, html, report };
}

const browser = sharedBrowser();

const T = timelineEval;

test(
  'trace: steps with the counts the CLI reports, a banner for the failed pass, nothing moves',
  { skip: ONLY && ONLY !== 'trace' },
  async () => {
    const { html, report } = traceFiles();
    const { page, log, context } = await openViewer(browser, html);
    try {
      assert.ok(await waitForEngine(page));
      const steps = await T(page, 't.steps()');
      assert.equal(steps.length, 6);
      assert.deepEqual(
        steps.map((s) => s.name.replace(/^\d+: /, '')),
        [
          '1_post_export',
          '2_DecomposeLinearPass',
          '3_FuseSiluMulPass',
          '4_HalfPrecisionPass',
          '5_TagChannelsLastPass',
          '6_MemoryPlanningPass',
        ],
      );
      assert.equal(await T(page, 't.step()'), 0);
      assert.equal(await T(page, 't.banner()'), null);
      const layout0 = await page.evaluate(() => window.etvizTest.layout());
      // The terminal's diff of consecutive passes (the failed pass has no graph: `diff --stages`
      // compares it like any other, the page compares the next pass with the last one that has a
      // graph) and the page's legend say the same.
      const diffs = report.diffs;
      for (let k = 1; k <= 3; k++) {
        await page.keyboard.press(']');
        await page.evaluate(() => window.etvizTest.frame());
        assert.equal(await T(page, 't.step()'), k);
        const legend = await T(page, 't.legend()');
        for (const key of ['same', 'changed', 'added', 'removed'])
          assert.equal(legend[key], diffs[k - 1][key], `step ${k} ${key}`);
        // Stepping never moves a node: the layout is the union's, the same at every step.
        assert.deepEqual(await page.evaluate(() => window.etvizTest.layout()), layout0, `layout at step ${k}`);
      }
      // Known edits: pass 2 made 14 addmm from linears and added 14 permutes.
      assert.deepEqual([steps[1].counts.added, steps[1].counts.changed], [14, 14]);
      assert.deepEqual([steps[2].counts.removed, steps[2].counts.changed], [2, 2]);
      await page.screenshot({ path: path.join(OUT, 'trace-step4.png') });
      // → with nothing selected steps on: the failed pass shows its error.
      await page.keyboard.press('ArrowRight');
      assert.equal(await T(page, 't.step()'), 4);
      const banner = await T(page, 't.banner()');
      assert.match(banner, /5_TagChannelsLastPass failed: .*expected a 4-D input/);
      assert.ok(await page.isVisible('#timeline-error'));
      await page.screenshot({ path: path.join(OUT, 'trace-failed.png') });
      await page.keyboard.press('ArrowRight');
      assert.equal(await T(page, 't.step()'), 5);
      assert.equal(await T(page, 't.banner()'), null);
      const last = await T(page, 't.legend()');
      assert.deepEqual([last.added, last.removed, last.changed], [0, 0, 0]);
      // Back to pass 2 and click a changed node: the panel shows before and after.
      await page.evaluate(() => window.etvizTest.overlay('timeline').setStep(1));
      const addmm = (await page.evaluate(() => window.etvizTest.findNodes('aten::addmm')))[0];
      assert.equal(await T(page, `t.status(${addmm})`), 'changed');
      const [x, y] = await page.evaluate((i) => window.etvizTest.nodePoint(i), addmm);
      await page.mouse.click(x, y);
      assert.equal((await page.evaluate(() => window.etvizTest.selected())).node, addmm);
      const change = await page.$eval('#panel .timeline-changes li', (li) => li.textContent);
      assert.match(change, /op aten::linear → aten::addmm/);
      assert.match(await page.$eval('#panel .timeline-status', (e) => e.textContent), /changed since 1_post_export/);
      await page.screenshot({ path: path.join(OUT, 'trace-changed-node.png') });
      // With a node selected, ← walks the graph instead of stepping.
      await page.keyboard.press('ArrowLeft');
      assert.equal(await T(page, 't.step()'), 1);
      assert.deepEqual(log.errors, []);
      assert.deepEqual(log.requests, []);
    } finally {
      await context.close();
    }
  },
);

test(
  'panes: four steps side by side share camera, selection and search; absent nodes are not there',
  { skip: ONLY && ONLY !== 'panes' },
  async () => {
    const { html } = traceFiles();
    const { page, log, context } = await openViewer(browser, html, { width: 1600, height: 900 });
    try {
      assert.ok(await waitForEngine(page));
      await page.evaluate(() => window.etvizTest.overlay('timeline').setStep(3));
      await page.keyboard.press('4');
      await page.evaluate(() => window.etvizTest.frame());
      assert.deepEqual(await T(page, 't.panes()'), [0, 1, 2, 3]);
      const titles = await page.$$eval('#pane-titles .pane-title', (els) =>
        els.map((e) => [e.textContent, e.classList.contains('current')]),
      );
      assert.equal(titles.length, 4);
      assert.deepEqual(titles[3], ['4/6 4_HalfPrecisionPass', true]);
      const width = await page.$eval('#canvas', (c) => c.getBoundingClientRect().width);
      const pane = width / 4;
      await page.screenshot({ path: path.join(OUT, 'panes-4.png') });
      // A permute exists from pass 2 on: in pane 1 (pass 1) its place is empty, in pane 2 it is
      // the node; the same spot in both panes, one camera.
      const permute = (await page.evaluate(() => window.etvizTest.findNodes('aten::permute_copy')))[0];
      assert.equal(await T(page, `t.status(${permute}, 0)`), 'absent');
      assert.equal(await T(page, `t.status(${permute}, 1)`), 'added');
      const [x, y] = await page.evaluate((i) => window.etvizTest.nodePoint(i), permute);
      const box = await page.$eval('#canvas', (c) => {
        const r = c.getBoundingClientRect();
        return { left: r.left };
      });
      const local = x - box.left; // nodePoint answers for the first pane
      assert.ok(local >= 0 && local < pane, `node on screen in pane 1 (${local})`);
      await page.mouse.click(x, y);
      assert.notEqual(
        (await page.evaluate(() => window.etvizTest.selected())).node,
        permute,
        'absent in pass 1: nothing to click',
      );
      await page.mouse.click(x + pane, y);
      assert.equal((await page.evaluate(() => window.etvizTest.selected())).node, permute, 'clicked in pane 2');
      // Search finds what the current step holds (pass 4 has 14 permutes); pass 1 has none.
      await page.fill('#search', 'op:permute_copy');
      await page.waitForFunction(() =>
        /14 matches/.test(document.querySelector('#search-results .summary').textContent),
      );
      await page.keyboard.press('Escape');
      await page.evaluate(() => window.etvizTest.overlay('timeline').setStep(0));
      await page.fill('#search', 'op:permute_copy');
      await page.waitForFunction(() =>
        /^0 matches/.test(document.querySelector('#search-results .summary').textContent),
      );
      // Back to one pane: the canvas is one view again.
      await page.keyboard.press('Escape');
      await page.click('#timeline-bar [data-panes="1"]');
      await page.evaluate(() => window.etvizTest.frame());
      assert.deepEqual(await T(page, 't.panes()'), [0]);
      assert.equal(await page.isVisible('#pane-titles'), false);
      assert.deepEqual(log.errors, []);
      assert.deepEqual(log.requests, []);
    } finally {
      await context.close();
    }
  },
);

test(
  'diff: two corpus programs, the page counts what etviz diff --format json counts',
  { skip: ONLY && ONLY !== 'diff' },
  async () => {
    const a = path.join(CORPUS, 'pte', 'berndporr__dnf_executorch__dnf.47145c4a.pte');
    const b = path.join(CORPUS, 'pte', 'berndporr__dnf_executorch__dnf.d1aa57fe.pte');
    const html = path.join(OUT, 'diff.html');
    execFileSync(BIN, ['diff', a, b, '-o', html]);
    const report = JSON.parse(execFileSync(BIN, ['diff', a, b, '--format', 'json']).toString());
    const { page, log, context } = await openViewer(browser, html);
    try {
      assert.ok(await waitForEngine(page));
      assert.equal(await T(page, 't.step()'), 1, 'a diff of two opens on the second, coloured');
      const legend = await T(page, 't.legend()');
      for (const key of ['same', 'changed', 'added', 'removed']) assert.equal(legend[key], report.diffs[0][key], key);
      // The delegate calls of the XNNPACK program are gone from the portable one: ghosts.
      const calls = await page.evaluate(() => window.etvizTest.findNodes('XnnpackBackend'));
      assert.ok(calls.length > 0);
      for (const i of calls) assert.equal(await T(page, `t.status(${i})`), 'removed');
      await page.screenshot({ path: path.join(OUT, 'diff.png') });
      await page.keyboard.press('2');
      await page.evaluate(() => window.etvizTest.frame());
      await page.screenshot({ path: path.join(OUT, 'diff-panes.png') });
      assert.deepEqual(log.errors, []);
      assert.deepEqual(log.requests, []);
    } finally {
      await context.close();
    }
  },
);

// The panel's first output card type ("float32 [1, 8, 16]") and its op row, as shown.
const panelFacts = (page) =>
  page.evaluate(() => {
    const sections = [...document.querySelectorAll('#panel section.panel-section')];
    const outputs = sections.find((sec) => sec.querySelector('h3').textContent.startsWith('Outputs'));
    const op = document.querySelector('#panel .op-name');
    return { output: outputs ? outputs.querySelector('.arg-type').textContent : null, op: op ? op.textContent : null };
  });

test(
  'precision: each step shows its own dtypes on the edges and in the panel',
  { skip: ONLY && ONLY !== 'precision' },
  async () => {
    const { html } = traceFiles();
    const { page, log, context } = await openViewer(browser, html);
    try {
      assert.ok(await waitForEngine(page));
      const steps = await T(page, 't.steps()');
      const precision = steps.findIndex((s) => s.name.endsWith('4_HalfPrecisionPass'));
      assert.equal(precision, 3);
      await page.evaluate((k) => window.etvizTest.overlay('timeline').setStep(k), precision);
      const changed = await page.evaluate((k) => {
        const m = window.etvizTest;
        const out = [];
        for (let i = 0; i < m.graphs()[m.graph()].nodes; i++)
          if (m.overlay('timeline').status(i, k) === 'changed') out.push(i);
        return out;
      }, precision);
      assert.ok(changed.length > 10, `the precision pass changed ${changed.length} nodes`);
      // The label the last frame wrote on value v's edges (labels go only where they fit), with
      // `panes` steps side by side and the node centred.
      const drawn = async (n, v, panes) => {
        await page.keyboard.press(String(panes));
        await page.evaluate((i) => window.etvizTest.selectNode(i), n);
        await page.evaluate(() => window.etvizTest.frame());
        return (await page.evaluate(() => window.etvizTest.edgeLabels())).find((l) => l.value === v);
      };
      // A node the precision pass changed whose output is labelled on its edge both alone and
      // beside the step before.
      let node = -1,
        value = -1;
      for (const i of changed) {
        const v = (await T(page, `t.node(${i}).outputs`))[0].value;
        if ((await drawn(i, v, 2)) && (await drawn(i, v, 1))) {
          node = i;
          value = v;
          break;
        }
      }
      assert.ok(node >= 0, 'a changed node with its output labelled on screen');
      // The precision pass (and the union, whose copy is the last step's) says float16.
      const after = await drawn(node, value, 1);
      assert.match(after.text, / float16$/);
      const afterPanel = await panelFacts(page);
      assert.match(afterPanel.output, /^float16 \[/);
      assert.equal((await T(page, `t.value(${value})`)).dtype, 'float16');
      await page.screenshot({ path: path.join(OUT, 'precision-after.png') });
      // One step back, before the precision pass: the same edge and the same panel say float32,
      // with the same shape; nothing moved and the selection stays.
      const layout = await page.evaluate(() => window.etvizTest.layout());
      await page.keyboard.press('[');
      await page.evaluate(() => window.etvizTest.frame());
      assert.equal(await T(page, 't.step()'), precision - 1);
      assert.equal((await page.evaluate(() => window.etvizTest.selected())).node, node);
      const before = (await page.evaluate(() => window.etvizTest.edgeLabels())).find((l) => l.value === value);
      assert.ok(before, 'the label is still written');
      assert.equal(before.text, after.text.replace(/ float16$/, ' float32'));
      const beforePanel = await panelFacts(page);
      assert.equal(beforePanel.output, afterPanel.output.replace(/^float16/, 'float32'));
      assert.equal((await T(page, `t.value(${value})`)).dtype, 'float32');
      assert.deepEqual(await page.evaluate(() => window.etvizTest.layout()), layout);
      await page.screenshot({ path: path.join(OUT, 'precision-before.png') });
      // Forward again: float16.
      await page.keyboard.press(']');
      await page.evaluate(() => window.etvizTest.frame());
      assert.equal(
        (await page.evaluate(() => window.etvizTest.edgeLabels())).find((l) => l.value === value).text,
        after.text,
      );
      assert.match((await panelFacts(page)).output, /^float16 \[/);
      // Side by side: each pane writes its own step's label (the current pane's is reported).
      assert.equal((await drawn(node, value, 2)).text, after.text);
      assert.deepEqual(await T(page, 't.panes()'), [precision - 1, precision]);
      assert.equal(await T(page, `t.valueLabel(${value}, ${precision - 1})`), before.text);
      assert.equal(await T(page, `t.valueLabel(${value}, ${precision})`), after.text);
      await page.screenshot({ path: path.join(OUT, 'precision-panes.png') });
      await page.keyboard.press('1');
      // The node's own op in each step: a linear in the first pass, addmm once decomposed.
      const addmm = (await page.evaluate(() => window.etvizTest.findNodes('aten::addmm')))[0];
      await page.evaluate((n) => window.etvizTest.selectNode(n), addmm);
      await page.evaluate(() => window.etvizTest.overlay('timeline').setStep(0));
      const linear = await panelFacts(page);
      assert.equal(linear.op, 'aten::linear');
      assert.match(linear.output, /^float32 /);
      assert.equal((await T(page, `t.node(${addmm})`)).op, 'aten::linear');
      await page.evaluate(() => window.etvizTest.overlay('timeline').setStep(1));
      assert.equal((await panelFacts(page)).op, 'aten::addmm');
      assert.deepEqual(log.errors, []);
      assert.deepEqual(log.requests, []);
    } finally {
      await context.close();
    }
  },
);
