// Issue 42, "every first view readable": a failed op is of its own category (colour in both
// themes, legend entry, panel, search), Model Explorer delegate calls are delegates, long labels
// stay readable in their boxes, and pane titles are cut at their end, never over a node.
// Facts are compared with an independent read of the input (JSON.parse of the file).
// Env: ETVIZ_BIN, ETVIZ_CORPUS_DIR, ETVIZ_ARTIFACTS, ETVIZ_CATEGORIES_CASE (error, delegate,
// labels, panes). Screenshots go to the artifacts directory.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { openViewer, waitForEngine } from './browser.mjs';
import { BIN, CORPUS, OUT, sharedBrowser, writePage } from './harness.mjs';

const ONLY = process.env.ETVIZ_CATEGORIES_CASE;

const browser = sharedBrowser();

// Every node of the shown graph as the facade reports it, with its index.
const nodes = (page) =>
  page.evaluate(() => {
    const t = window.etvizTest;
    return t.layout().nx.map((_, i) => ({ i, ...t.node(i) }));
  });

// A live trace whose forward pass raised (as etviz.trace_model writes it): two linears, the cat
// that failed with a message holding markup, and the output it never reached.
const MESSAGE = 'RuntimeError: Sizes of tensors must match <img src=x onerror="window.__pwned=1"> & "b"';
function failedTrace() {
  const fn = (id, target, details, category) => ({
    id,
    label: target.split('.').pop(),
    category,
    op_name: target,
    details: { op: 'call_function', target, ...details },
  });
  const nodesIn = [
    {
      id: 'x',
      label: 'x',
      category: 'placeholder',
      op_name: 'x',
      details: { op: 'placeholder', target: 'x', shape: '[2, 4]', dtype: 'torch.float32' },
    },
    fn('linear_1', 'F.linear', { shape: '[2, 6]', dtype: 'torch.float32' }, 'aten_compute'),
    fn('linear_2', 'F.linear', { shape: '[2, 5]', dtype: 'torch.float32' }, 'aten_compute'),
    fn('cat_3', 'torch.cat', { input_shapes: ['[2, 6]', '[2, 5]'], error: MESSAGE }, 'error'),
  ];
  const edges = [
    { source: 'x', target: 'linear_1' },
    { source: 'x', target: 'linear_2' },
    { source: 'linear_1', target: 'cat_3' },
    { source: 'linear_2', target: 'cat_3' },
  ];
  return {
    model_name: 'Broken',
    passes: [
      {
        metadata: {
          model_name: 'forward',
          source_type: 'etviz.trace_model',
          total_nodes: nodesIn.length,
          error: {
            pass_name: 'forward',
            message: 'RuntimeError at cat_3 (torch.cat): Sizes of tensors must match',
            traceback: '',
          },
        },
        nodes: nodesIn,
        edges,
      },
    ],
  };
}

test(
  'error: the failed op has its own colour, legend entry, panel and search',
  { skip: ONLY && ONLY !== 'error' },
  async () => {
    const trace = failedTrace();
    const file = path.join(OUT, 'broken.json');
    fs.writeFileSync(file, JSON.stringify(trace));
    const want = trace.passes[0].nodes.filter((n) => n.category === 'error').map((n) => n.id);
    const html = writePage([file], 'error');
    for (const scheme of ['light', 'dark']) {
      const { page, log, context } = await openViewer(browser, html, { width: 1200, height: 760, colorScheme: scheme });
      try {
        assert.ok(await waitForEngine(page));
        const all = await nodes(page);
        const failed = all.filter((n) => n.category === 'error');
        assert.deepEqual(
          failed.map((n) => n.name),
          want,
        );
        const i = failed[0].i;
        // One table: the page's categories hold error once, in a colour no other category has.
        const cats = await page.evaluate(() => window.etvizTest.categories());
        const error = cats.filter((c) => c.id === 'error');
        assert.equal(error.length, 1);
        assert.equal(cats.filter((c) => c.color === error[0].color).length, 1);
        // The legend lists it (the graph has one), with its count and colour.
        const item = page.locator('#legend .item[data-category="error"]');
        assert.equal(await item.isVisible(), true);
        assert.match(await item.textContent(), /Error\s*1/);
        const swatch = await item.locator('.sw').evaluate((e) => getComputedStyle(e).backgroundColor);
        const [r, g, b] = [1, 3, 5].map((k) => parseInt(error[0].color.slice(k, k + 2), 16));
        assert.equal(swatch, `rgb(${r}, ${g}, ${b})`);
        // The box is drawn in it: its strip (the left 3.5 units) in the category's colour.
        const strip = await page.evaluate((n) => {
          const t = window.etvizTest;
          t.nodePoint(n);
          const L = t.layout();
          const [x, y] = t.pagePoint(L.nx[n] + 1.75, L.ny[n] + L.nh[n] / 2);
          const c = document.getElementById('canvas').getBoundingClientRect();
          return { x: Math.round(x - c.left), y: Math.round(y - c.top) };
        }, i);
        await page.evaluate(() => window.etvizTest.frame());
        const px = await page.evaluate(({ x, y }) => window.etvizTest.canvasPixel(x, y), strip);
        assert.ok(
          Math.abs(px[0] - r) + Math.abs(px[1] - g) + Math.abs(px[2] - b) < 24,
          `strip ${px} vs ${error[0].color}`,
        );
        await page.screenshot({ path: path.join(OUT, `error-${scheme}.png`) });
        // The panel names the exception and its message, as text (the markup is not markup).
        await page.evaluate((n) => window.etvizTest.selectNode(n), i);
        const section = page.locator('#panel .panel-section', { has: page.locator('h3', { hasText: /^Error$/ }) });
        assert.equal(await section.count(), 1);
        const values = await section.locator('.kv .v, .v').allTextContents();
        assert.equal(values[0], 'RuntimeError');
        assert.equal(values[1], MESSAGE.slice('RuntimeError: '.length));
        assert.equal(await page.locator('#panel img').count(), 0);
        assert.equal(await page.evaluate(() => window.__pwned), undefined);
        await page.screenshot({ path: path.join(OUT, `error-panel-${scheme}.png`) });
        // Search by category.
        await page.fill('#search', 'category:error');
        await page.waitForTimeout(150);
        const results = await page.$$eval('#search-results .res', (els) => els.map((e) => Number(e.dataset.node)));
        assert.deepEqual(results, [i]);
        assert.deepEqual(log.errors, []);
        assert.deepEqual(log.requests, []);
      } finally {
        await context.close();
      }
    }
  },
);

// Model Explorer files Arm's .pte adapter wrote: the delegate call, by an independent read.
const ARM = (name) =>
  path.join(
    CORPUS,
    'json',
    `arm__pte-adapter-model-explorer__src__pte_adapter_model_explorer__tests__fixtures__${name}__expected_main.json`,
  );
function delegateCalls(file) {
  const out = [];
  for (const g of JSON.parse(fs.readFileSync(file, 'utf8')).graphs)
    for (const n of g.nodes) {
      const attrs = Object.fromEntries((n.attrs || []).map((a) => [a.key, a.value]));
      if (attrs['Instruction Type'] === 'DelegateCall' || n.label.includes('executorch_call_delegate')) out.push(n.id);
    }
  return out;
}

test(
  'delegate: Model Explorer delegate calls are coloured as delegates',
  { skip: ONLY && ONLY !== 'delegate' },
  async () => {
    for (const name of ['mobilenet_v2_ethosu', 'mobilenet_v2_vgf', 'mobilenet_v2_vgf_segments']) {
      const file = ARM(name);
      const want = delegateCalls(file);
      assert.equal(want.length, 1, name);
      const html = writePage([file], `delegate_${name}`);
      const { page, log, context } = await openViewer(browser, html, { width: 1100, height: 700 });
      try {
        assert.ok(await waitForEngine(page));
        const all = await nodes(page);
        assert.deepEqual(
          all.filter((n) => n.category === 'delegate').map((n) => n.name),
          want,
          name,
        );
        assert.equal(await page.locator('#legend .item[data-category="delegate"]').isVisible(), true);
        // No failed op here: no error entry in the legend.
        assert.equal(await page.locator('#legend .item[data-category="error"]').count(), 0);
        if (name === 'mobilenet_v2_vgf') await page.screenshot({ path: path.join(OUT, 'delegate-vgf.png') });
        assert.deepEqual(log.errors, []);
      } finally {
        await context.close();
      }
    }
  },
);

// A Model Explorer graph of long generated labels (as Arm's TOSA views name ops) and short ones.
const LONG = [
  '0:quantized_decomposed_quantize_per_tensor_default',
  '1:quantized_decomposed_dequantize_per_tensor_default',
  '2:aten_convolution_default_quantized_decomposed_dequantize_per_channel_group_default_7',
  '3:aten_convolution_default_quantized_decomposed_dequantize_per_channel_group_default_8',
];
function longLabelGraph() {
  const labels = ['relu', ...LONG, 'add'];
  const nodesOut = labels.map((label, k) => ({
    id: `n${k}`,
    label,
    namespace: '',
    attrs: [],
    incomingEdges: k ? [{ sourceNodeId: `n${k - 1}`, sourceNodeOutputId: '0', targetNodeInputId: '0' }] : [],
    outputsMetadata: [{ id: '0', attrs: [{ key: 'tensor_shape', value: 'int8[1,16,8,8]' }] }],
  }));
  return { label: 'long labels', graphs: [{ id: 'main', nodes: nodesOut }] };
}

test(
  'labels: a long label is written on two lines, head and tail, the full text on hover',
  { skip: ONLY && ONLY !== 'labels' },
  async () => {
    const file = path.join(OUT, 'long_labels.json');
    const graph = longLabelGraph();
    fs.writeFileSync(file, JSON.stringify(graph));
    const html = writePage([file], 'labels');
    const { page, log, context } = await openViewer(browser, html, { width: 1200, height: 800 });
    try {
      assert.ok(await waitForEngine(page));
      const all = await nodes(page);
      const L = await page.evaluate(() => window.etvizTest.layout());
      const embedded = await page.evaluate(() => window.etvizTest.embeddedLayout());
      const seen = new Map();
      for (const n of all) {
        const label = graph.graphs[0].nodes.find((m) => m.id === n.name).label;
        assert.equal(n.label, label);
        const lines = await page.evaluate((i) => window.etvizTest.labelLines(i), n.i);
        // Widths are the C++ view model's (the page's layout keeps them); short labels stay narrow.
        assert.equal(L.nw[n.i], embedded.nw[n.i]);
        assert.ok(L.nw[n.i] <= 240, `${label}: ${L.nw[n.i]}`);
        if (!LONG.includes(label)) {
          assert.deepEqual(lines, [label]);
          assert.ok(L.nw[n.i] < 100, `${label} stays narrow: ${L.nw[n.i]}`);
          continue;
        }
        // Two lines: the head as written, the tail as written (after an ellipsis when cut).
        assert.equal(lines.length, 2, `${label}: ${lines}`);
        assert.ok(label.startsWith(lines[0]), `${label}: ${lines[0]}`);
        const tail = lines[1].replace(/^…/, '');
        assert.ok(label.endsWith(tail) && tail.length >= 12, `${label}: ${lines[1]}`);
        if (!lines[1].startsWith('…')) assert.equal(lines[0] + lines[1], label);
        seen.set(lines.join('|'), label);
      }
      // Each long label reads differently on the canvas.
      assert.equal(seen.size, LONG.length);
      // Hovering a box shows its full label.
      const long = all.find((n) => n.label === LONG[2]);
      const [x, y] = await page.evaluate((i) => window.etvizTest.nodePoint(i), long.i);
      await page.evaluate(() => window.etvizTest.frame());
      await page.mouse.move(x, y);
      await page.waitForSelector('#tooltip:not([hidden])');
      assert.equal((await page.textContent('#tooltip')).split('\n')[0], LONG[2]);
      await page.screenshot({ path: path.join(OUT, 'labels.png') });
      assert.deepEqual(log.errors, []);
    } finally {
      await context.close();
    }
  },
);

test(
  'panes: long pane titles are cut at their end, whole on hover, never over a node',
  { skip: ONLY && ONLY !== 'panes' },
  async () => {
    // Two programs under long names (a diff page's panes are titled by file).
    const long = 'a_program_exported_with_a_very_long_descriptive_file_name_that_no_pane_is_wide_enough_for';
    const a = path.join(OUT, `${long}_version_one.pte`);
    const b = path.join(OUT, `${long}_version_two.pte`);
    const src = (n) => path.join(CORPUS, 'pte', n);
    fs.copyFileSync(src('corey-cole__executorch-numpy-runtime__tests__models__multi.pte'), a);
    fs.copyFileSync(src('corey-cole__executorch-numpy-runtime__tests__models__const_methods.pte'), b);
    const html = path.join(OUT, 'panes.html');
    execFileSync(BIN, ['diff', a, b, '-o', html], { stdio: 'ignore' });
    const { page, log, context } = await openViewer(browser, html, { width: 1100, height: 700 });
    try {
      assert.ok(await waitForEngine(page));
      await page.keyboard.press('2');
      await page.evaluate(() => window.etvizTest.frame());
      await page.evaluate(() => window.etvizTest.frame());
      const titles = () =>
        page.$$eval('#pane-titles .pane-title', (els) =>
          els.map((t) => {
            const s = t.querySelector('span');
            const r = s.getBoundingClientRect();
            const p = t.getBoundingClientRect();
            return {
              text: s.textContent,
              title: s.title,
              cut: s.scrollWidth > s.clientWidth,
              overflow: getComputedStyle(s).textOverflow,
              left: r.left,
              right: r.right,
              top: r.top,
              bottom: r.bottom,
              paneLeft: p.left,
              paneRight: p.right,
              covering: s.classList.contains('covering'),
            };
          }),
        );
      const before = await titles();
      assert.equal(before.length, 2);
      for (const t of before) {
        assert.ok(t.text.includes(long), t.text);
        assert.equal(t.title, t.text, 'the whole title on hover');
        assert.ok(t.cut, 'longer than the pane');
        assert.equal(t.overflow, 'ellipsis');
        // Inside its pane: the start of the title is shown, the cut is at the end.
        assert.ok(t.left >= t.paneLeft - 0.5 && t.right <= t.paneRight + 0.5, JSON.stringify(t));
        assert.equal(t.covering, false, 'the first view keeps nodes clear of the titles');
      }
      await page.screenshot({ path: path.join(OUT, 'panes.png') });
      // Drag a node under the first title: the title gets out of the way.
      const boxes = await page.evaluate(() => window.etvizTest.drawnBoxes().filter((b) => b.node !== undefined));
      const [x, y] = await page.evaluate((i) => window.etvizTest.nodePoint(i), boxes[0].node);
      await page.evaluate(() => window.etvizTest.frame());
      const t0 = before[0];
      await page.mouse.move(x, y);
      await page.mouse.down();
      await page.mouse.move((t0.left + t0.right) / 2, (t0.top + t0.bottom) / 2, { steps: 8 });
      await page.mouse.up();
      await page.evaluate(() => window.etvizTest.frame());
      await page.evaluate(() => window.etvizTest.frame());
      const after = await titles();
      assert.equal(after[0].covering, true, 'a title over a node is hidden');
      assert.equal(await page.$eval('#pane-titles .pane-title span', (s) => getComputedStyle(s).visibility), 'hidden');
      await page.screenshot({ path: path.join(OUT, 'panes-covered.png') });
      assert.deepEqual(log.errors, []);
    } finally {
      await context.close();
    }
  },
);
