// The HTML viewer in real headless Chromium, on corpus programs and generated ones.
// Env: ETVIZ_BIN (etviz), ETVIZ_GEN (etviz-gen, optional), ETVIZ_CORPUS_DIR, ETVIZ_ARTIFACTS,
// ETVIZ_BROWSER_CASE (one case name, or all).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { openViewer, waitForEngine } from './browser.mjs';
import { BIN, GEN, CORPUS, OUT, sharedBrowser, writePage } from './harness.mjs';

const ONLY = process.env.ETVIZ_BROWSER_CASE;

const pte = (name) => path.join(CORPUS, 'pte', name);
const CASES = {
  portable: {
    file: () =>
      pte('pytorch__executorch__extension__android__executorch_android__src__androidTest__resources__xor.9c80c531.pte'),
    graph: 'forward',
    op: 'aten::addmm.out',
    search: 'addmm',
  },
  xnnpack: {
    file: () => pte('corey-cole__djl-executorch-engine__src__test__resources__models__stress__stress_mlp.d66ae531.pte'),
    graph: 'forward',
    op: 'aten::index_select.out',
    search: 'index_select',
    groups: true,
    decodedOp: 'XNNFullyConnected',
  },
  qnn: {
    file: () =>
      pte('pytorch__executorch__examples__qualcomm__oss_scripts__llama__artifacts__stories260k_hybrid_llama_qnn.pte'),
    graph: 'kv_forward',
    op: 'QnnBackend',
    search: 'qnn',
    groups: true,
    otherGraph: 'prefill_forward',
    graphCount: 29,
  },
  ethosu: {
    file: () => pte('fidel-makatia__ALIF_Executorch__executorch_mnist__mnist_ethos_u55.pte'),
    graph: 'forward',
    op: 'EthosUBackend',
    search: '/quantize_per_tensor/',
    groups: true,
    // The Ethos-U payload is a command stream: the panel must not promise decoded ops.
    decodedView: 'summary only',
  },
  generated: {
    file: () => generate('generated.pte', ['--blocks', '6', '--delegates']),
    graph: 'forward',
    op: 'aten::rms_norm.out',
    search: 'rms_norm',
    groups: true,
  },
};

function generate(name, args) {
  if (!GEN) return null;
  const out = path.join(OUT, name);
  execFileSync(GEN, ['program', ...args, '-o', out], { stdio: 'ignore' });
  return out;
}

function irNodeCount(file, graph) {
  const info = JSON.parse(execFileSync(BIN, ['info', '--json', file]).toString());
  const m = info.methods.find((x) => x.name === graph);
  assert.ok(m, `etviz info lists method ${graph}`);
  return m.node_count;
}

// Centre of node i on screen after bringing it into view, in page coordinates.
const nodeOnScreen = (page, i) => page.evaluate((n) => window.etvizTest.nodePoint(n), i);
const findNode = (page, op) => page.evaluate((o) => window.etvizTest.findNodes(o)[0] ?? -1, op);
const visibleCount = (page) => page.evaluate(() => window.etvizTest.visibleNodes());

const browser = sharedBrowser();

for (const [name, c] of Object.entries(CASES)) {
  if (ONLY && ONLY !== name) continue;
  test(`viewer: ${name}`, async (t) => {
    const file = c.file();
    if (!file) {
      t.skip('etviz-gen not built');
      return;
    }
    const html = writePage(file, name);
    const { page, log, context } = await openViewer(browser, html);
    try {
      assert.ok(await waitForEngine(page), 'the WebAssembly layout engine loads');

      // Re-laying out the initial expand state in the page reproduces the embedded layout
      // exactly (same engine, same options, same sizes, same precision). Hidden nodes get a
      // zero-size box from the engine; their size is only compared where they are shown.
      const same = await page.evaluate(() => {
        const t = window.etvizTest;
        const a = t.embeddedLayout(),
          b = t.relayoutInitial();
        const shown = t.initiallyVisible();
        const diff = [];
        for (const key of ['nx', 'ny', 'gx', 'gy', 'gw', 'gh', 'ptOff', 'pts', 'share', 'shareN', 'lx', 'ly']) {
          if (a[key].length !== b[key].length) {
            diff.push(`${key}: length ${a[key].length} vs ${b[key].length}`);
            continue;
          }
          const k = a[key].findIndex((v, i) => !Object.is(v, b[key][i]));
          if (k >= 0) diff.push(`${key}[${k}]: ${a[key][k]} vs ${b[key][k]}`);
        }
        for (const key of ['nw', 'nh']) {
          const k = a[key].findIndex((v, i) => shown[i] && !Object.is(v, b[key][i]));
          if (k >= 0) diff.push(`${key}[${k}]: ${a[key][k]} vs ${b[key][k]}`);
        }
        return { diff, nodes: a.nx.length, points: a.pts.length / 2 };
      });
      assert.deepEqual(
        same.diff,
        [],
        `re-layout equals the embedded layout (${same.nodes} nodes, ${same.points} points)`,
      );

      // The header states the IR's node count of the graph on show.
      if (c.graphCount) assert.equal(await page.locator('#graph-select option').count(), c.graphCount);
      assert.equal(
        await page
          .inputValue('#graph-select')
          .then((v) => page.evaluate((k) => window.etvizTest.graphs()[k].name, Number(v))),
        c.graph,
      );
      const shown = Number(await page.getAttribute('#file-meta', 'data-nodes'));
      assert.equal(shown, irNodeCount(file, c.graph));
      assert.match(await page.textContent('#file-meta'), new RegExp(`${shown.toLocaleString('en-US')} nodes`));

      // Clicking a known node fills the panel with its op.
      const i = await findNode(page, c.op);
      assert.ok(i >= 0, `a node with op ${c.op}`);
      const [x, y] = await nodeOnScreen(page, i);
      await page.mouse.click(x, y);
      assert.equal((await page.textContent('#panel .op-name')).trim(), c.op);
      if (c.decodedView) assert.match(await page.textContent('#panel'), new RegExp(`decoded view\\s*${c.decodedView}`));
      // Arrow keys walk along edges: down to a consumer, up back to a producer.
      const walked = await page.evaluate(async (n) => {
        const t = window.etvizTest;
        const consumers = new Set(t.consumers(n));
        window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown' }));
        const down = t.selected().node;
        window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowUp' }));
        const producers = new Set(t.producers(down));
        return {
          hasConsumers: consumers.size > 0,
          ok: consumers.size === 0 || (consumers.has(down) && producers.has(t.selected().node)),
        };
      }, i);
      assert.ok(walked.ok, 'arrow keys follow edges');

      // Search lists the op and Enter jumps to a match.
      await page.keyboard.press('Escape');
      await page.keyboard.press('/');
      await page.keyboard.type(c.search);
      await page.waitForSelector('#search-results .res');
      const ops = await page.locator('#search-results .res .op').allTextContents();
      assert.ok(ops.length > 0, 'search lists results');
      assert.ok(
        ops.includes(c.op) || ops.some((o) => new RegExp(c.search.replace(/^\/|\/$/g, ''), 'i').test(o)),
        `results name the op: ${ops.slice(0, 5)}`,
      );
      await page.keyboard.press('Enter');
      const selected = await page.evaluate(() => window.etvizTest.selected().node);
      assert.ok(selected >= 0, 'Enter selects a match');
      const selectedText = await page.evaluate((n) => {
        const x = window.etvizTest.node(n);
        return `${x.op} ${x.name}`;
      }, selected);
      assert.match(selectedText, new RegExp(c.search.replace(/^\/|\/$/g, ''), 'i'));
      await page.keyboard.press('Escape');

      if (c.groups) {
        // Collapse every group, then expand one by clicking it: its children (nodes and
        // inner boxes) replace its box.
        await page.click('#btn-collapse');
        const before = await page.evaluate(() => window.etvizTest.visibleBoxes());
        const g = await page.evaluate(() => {
          const t = window.etvizTest;
          let best = -1,
            bestCount = -1;
          for (const k of t.collapsedGroups()) {
            const n = t.directNodes(k) + t.childGroups(k);
            if (n > bestCount) {
              best = k;
              bestCount = n;
            }
          }
          return best;
        });
        assert.ok(g >= 0, 'a collapsed group');
        const children = await page.evaluate(
          (k) => window.etvizTest.directNodes(k) + window.etvizTest.childGroups(k),
          g,
        );
        assert.ok(children > 0, 'the group holds something');
        const [gx, gy] = await page.evaluate((k) => window.etvizTest.groupPoint(k), g);
        await page.mouse.click(gx, gy);
        assert.equal(await page.evaluate((k) => window.etvizTest.group(k).expanded, g), true);
        assert.equal(
          await page.evaluate(() => window.etvizTest.visibleBoxes()),
          before - 1 + children,
          'expanding replaces the box by its children',
        );
        // The group stays under the pointer.
        const under = await page.evaluate(([k, px, py]) => window.etvizTest.groupContains(k, px, py), [g, gx, gy]);
        assert.ok(under, 'the expanded group is under the pointer');
        if (c.decodedOp) assert.ok((await findNode(page, c.decodedOp)) >= 0, `decoded delegate op ${c.decodedOp}`);
        await page.click('#btn-expand');
      }

      if (c.otherGraph) {
        const indexOf = (g) =>
          page.evaluate((nm) => String(window.etvizTest.graphs().findIndex((m) => m.name === nm)), g);
        await page.selectOption('#graph-select', await indexOf(c.otherGraph));
        assert.equal(await page.evaluate(() => window.etvizTest.graphs()[window.etvizTest.graph()].name), c.otherGraph);
        assert.equal(Number(await page.getAttribute('#file-meta', 'data-nodes')), irNodeCount(file, c.otherGraph));
        await page.selectOption('#graph-select', await indexOf(c.graph));
      }

      await page.keyboard.press('f');
      await page.screenshot({ path: path.join(OUT, `${name}-light.png`) });
      // Dark theme applies to the page and the canvas.
      await page.click('#btn-theme');
      assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
      const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      const [r, gg, b] = bg.match(/\d+/g).map(Number);
      assert.ok(r + gg + b < 150, `dark background, got ${bg}`);
      await page.evaluate(() => new Promise((res) => requestAnimationFrame(() => requestAnimationFrame(res))));
      const pixel = await page.evaluate(() => window.etvizTest.canvasPixel(2, 2));
      assert.ok(pixel[0] + pixel[1] + pixel[2] < 150, `dark canvas, got ${pixel}`);
      await page.screenshot({ path: path.join(OUT, `${name}-dark.png`) });

      assert.deepEqual(log.errors, [], 'no console errors');
      assert.deepEqual(log.requests, [], 'no network requests');
    } finally {
      await context.close();
    }
  });
}

test('viewer: hostile names render as text and run no script', async (t) => {
  if (ONLY && ONLY !== 'hostile') {
    t.skip();
    return;
  }
  const file = generate('hostile.pte', ['--blocks', '2', '--hostile-names']);
  if (!file) {
    t.skip('etviz-gen not built');
    return;
  }
  for (const compress of [true, false]) {
    const html = path.join(OUT, `hostile${compress ? '' : '-plain'}.html`);
    execFileSync(BIN, [file, '-o', html, '-q', ...(compress ? [] : ['--no-compress'])]);
    const text = fs.readFileSync(html, 'utf8');
    assert.ok(!text.includes('<img src=x'), 'no raw markup from the model in the page');
    const { page, log, context } = await openViewer(browser, html);
    try {
      await waitForEngine(page);
      assert.equal(await page.locator('img').count(), 0, 'no injected elements');
      assert.deepEqual(log.dialogs, [], 'no alert ran');
      const i = await page.evaluate(() => {
        const t = window.etvizTest;
        const total = t.graphs()[t.graph()].nodes;
        for (let k = 0; k < total; k++) if (t.node(k).op.includes('</script>')) return k;
        return -1;
      });
      assert.ok(i >= 0, 'a node whose op contains </script>');
      const [x, y] = await nodeOnScreen(page, i);
      await page.mouse.click(x, y);
      const op = await page.textContent('#panel .op-name');
      assert.ok(op.includes('</script><img src=x onerror=alert(1)>'), `the op shows as text: ${op}`);
      await page.keyboard.press('/');
      await page.keyboard.type('onerror');
      await page.waitForSelector('#search-results .res');
      assert.equal(await page.locator('img').count(), 0);
      await page.screenshot({ path: path.join(OUT, `hostile${compress ? '' : '-plain'}.png`) });
      assert.deepEqual(log.errors, []);
      assert.deepEqual(log.requests, []);
      assert.deepEqual(log.dialogs, []);
    } finally {
      await context.close();
    }
  }
});
