// The first view (docs/viewer.md, "The first view"): every page kind opens the same way on every
// load and in every embedding, readable (at least the readable zoom, or readable at the
// graph's top), with no chrome (legend, stepper, banners, pane titles) over a node and no text
// over text on the canvas.
// Corpus pages, generated pages (program, diff, pass trace, panes) and a notebook-like iframe
// that gets its size late, at 1400x900 and 1024x700; with the app module built, an app page. Each case writes the first views it saw to
// first_views.json in its artifacts directory, and a screenshot per page and size.
// Env: ETVIZ_BIN, ETVIZ_GEN, ETVIZ_CORPUS_DIR, ETVIZ_ARTIFACTS, ETVIZ_FIRST_VIEW_CASE.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { openViewer, waitForEngine } from './browser.mjs';
import { BIN, GEN, CORPUS, OUT, sharedBrowser, writePage } from './harness.mjs';

const ONLY = process.env.ETVIZ_FIRST_VIEW_CASE;

const SIZES = [
  [1400, 900],
  [1024, 700],
];
const LOADS = 3;
const pte = (name) => path.join(CORPUS, 'pte', name);
const MLP = 'corey-cole__djl-executorch-engine__src__test__resources__models__stress__stress_mlp.d66ae531.pte';

const browser = sharedBrowser();

// What the first view shows, measured in the page (or frame) `where`: the camera, whether the
// whole drawing is on screen, whether the graph's top row is, and every drawn box (nodes,
// collapsed groups, expanded groups' title bars) that chrome covers. Chrome: every element
// floating over the canvas but the minimap, hover and passing notes; pane titles by their text.
// A view that shows the whole drawing must keep all chrome off it; a start view (the drawing
// goes on below the window) the chrome along the top (the minimap, the status line and pane
// titles at the bottom lie over the part the reader scrolls to).
function measure(where) {
  return where.evaluate(() => {
    const t = window.etvizTest;
    const stage = document.getElementById('stage');
    const c = document.getElementById('canvas').getBoundingClientRect();
    const chrome = [];
    const els = [...stage.children].filter(
      (e) => !['canvas', 'tooltip', 'toast', 'minimap', 'pane-titles'].includes(e.id),
    );
    els.push(...document.querySelectorAll('#pane-titles:not([hidden]) .pane-title > span'));
    for (const e of els) {
      // A pane title over a node hides itself (frame.js): not drawn, not over anything.
      if (e.hidden || !e.getClientRects().length || getComputedStyle(e).visibility === 'hidden') continue;
      const r = e.getBoundingClientRect();
      if (r.width < 1 || r.height < 1) continue;
      chrome.push({ id: e.id || e.className, x0: r.left, y0: r.top, x1: r.right, y1: r.bottom });
    }
    const panes = t.overlay('timeline') ? t.overlay('timeline').panes().length : 1;
    const paneW = c.width / Math.max(panes, 1);
    const boxes = t.drawnBoxes();
    let top = Infinity;
    for (const b of boxes) top = Math.min(top, b.y);
    const onScreen = [];
    let topShown = false,
      whole = true;
    for (const b of boxes) {
      const header = b.group !== undefined && !b.collapsed;
      const [x0, y0] = t.pagePoint(b.x, b.y);
      const [x1, y1] = t.pagePoint(b.x + b.w, b.y + (header ? 18 : b.h));
      const [, yb] = t.pagePoint(b.x, b.y + b.h);
      if (x0 < c.left - 0.5 || x1 > c.left + paneW + 0.5 || y0 < c.top - 0.5 || yb > c.bottom + 0.5) whole = false;
      if (b.y === top && x1 > c.left && x0 < c.left + paneW && y0 >= c.top && y1 <= c.bottom) topShown = true;
      if (x1 <= c.left || y1 <= c.top || x0 >= c.right || y0 >= c.bottom) continue;
      const label = b.node !== undefined ? t.node(b.node).label : t.group(b.group).label;
      onScreen.push({ label, x0, y0, x1, y1 });
    }
    const covered = [];
    for (const o of chrome) {
      const atTop = (o.y0 + o.y1) / 2 < (c.top + c.bottom) / 2;
      if (!whole && !atTop) continue;
      // Panes share the camera: a box is drawn at the same place in every pane.
      for (let k = 0; k < panes; k++)
        for (const b of onScreen) {
          const x0 = b.x0 + k * paneW,
            x1 = b.x1 + k * paneW;
          if (x0 < o.x1 && x1 > o.x0 && b.y0 < o.y1 && b.y1 > o.y0) covered.push(`${b.label} under ${o.id}`);
        }
    }
    const [ox, oy] = t.pagePoint(0, 0);
    return {
      zoom: t.zoom(),
      readable: t.readableZoom(),
      origin: [Math.round(ox - c.left), Math.round(oy - c.top)],
      canvas: [Math.round(c.width), Math.round(c.height)],
      whole,
      topShown,
      covered: [...new Set(covered)],
      minimap: !t.minimap().hidden,
      kept: t.firstViewKept(),
      status: document.getElementById('status').textContent,
    };
  });
}

// The first view of `html` at each size, LOADS times: the same each time, and readable.
async function checkPage(html, name, { setup } = {}) {
  const seen = {};
  for (const [width, height] of SIZES) {
    const views = [];
    for (let load = 0; load < LOADS; load++) {
      const { page, log, context } = await openViewer(browser, html, { width, height });
      try {
        await waitForEngine(page);
        if (setup) await setup(page);
        await page.evaluate(() => window.etvizTest.frame());
        const v = await measure(page);
        if (load === 0) v.textOverText = await page.evaluate(() => window.etvizTest.textOverText());
        views.push(v);
        if (load === 0) await page.screenshot({ path: path.join(OUT, `${name}_${width}.png`) });
        assert.deepEqual(log.errors, [], `${name} ${width}: console errors`);
        assert.deepEqual(log.requests, []);
      } finally {
        await context.close();
      }
    }
    const v = views[0];
    const key = (x) => JSON.stringify([x.zoom.toFixed(6), x.origin, x.canvas]);
    for (const w of views) assert.equal(key(w), key(v), `${name} ${width}: the same first view on every load`);
    assert.ok(v.kept, `${name} ${width}: the camera is the first view's`);
    assert.ok(
      v.zoom >= v.readable - 1e-9 || (v.topShown && !v.whole),
      `${name} ${width}: zoom ${v.zoom} below ${v.readable} and not a start view (${JSON.stringify(v)})`,
    );
    if (v.zoom < v.readable) assert.ok(v.minimap, `${name} ${width}: a start view shows the minimap`);
    assert.ok(v.topShown, `${name} ${width}: the graph's top row is on screen`);
    assert.deepEqual(v.covered, [], `${name} ${width}: chrome over nodes`);
    assert.deepEqual(v.textOverText, [], `${name} ${width}: text over text`);
    seen[width] = { zoom: Number(v.zoom.toFixed(3)), whole: v.whole, status: v.status };
  }
  const file = path.join(OUT, 'first_views.json');
  const all = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
  all[name] = seen;
  fs.writeFileSync(file, JSON.stringify(all, null, 1));
  return seen;
}

test('corpus pages: the same readable first view on every load', { skip: ONLY && ONLY !== 'corpus' }, async () => {
  for (const [file, name] of [
    [pte('pytorch__executorch__examples__arduino__examples__KeywordSpotting__model.pte'), 'kws'],
    [
      pte(
        'arm__pte-adapter-model-explorer__src__pte_adapter_model_explorer__tests__fixtures__mobilenet_v2_vgf__input.pte',
      ),
      'vgf',
    ],
    [pte(MLP), 'mlp'],
    [pte('kadu-v__yolox-executorch-ios__engine__models__yolox_nano_coreml.pte'), 'yolox'],
    [
      pte('pytorch__executorch__examples__qualcomm__oss_scripts__llama__artifacts__stories260k_hybrid_llama_qnn.pte'),
      'qnn',
    ],
    [pte('pytorch__executorch__add.42766462.pte'), 'add'],
    [path.join(CORPUS, 'pt2', 'pytorch__executorch__extension__pt2_archive__test__linear.6f89131a.pt2'), 'pt2'],
  ])
    await checkPage(writePage([file], `corpus_${name}`), `corpus_${name}`);
});

test(
  'generated page kinds: program, diff, multi-method diff, pass trace, a failed trace, panes',
  { skip: ONLY && ONLY !== 'kinds' },
  async () => {
    const program = path.join(OUT, 'program.pte');
    execFileSync(GEN, ['program', '--blocks', '6', '--dim', '16', '--hidden', '32', '-o', program], {
      stdio: 'ignore',
    });
    await checkPage(writePage([program], 'program'), 'program');
    const diff = path.join(OUT, 'diff.html');
    execFileSync(BIN, [
      'diff',
      pte('berndporr__dnf_executorch__dnf.47145c4a.pte'),
      pte('berndporr__dnf_executorch__dnf.d1aa57fe.pte'),
      '-o',
      diff,
    ]);
    await checkPage(diff, 'diff');
    const multi = path.join(OUT, 'diff_multi.html');
    execFileSync(BIN, [
      'diff',
      pte('corey-cole__executorch-numpy-runtime__tests__models__multi.pte'),
      pte('corey-cole__executorch-numpy-runtime__tests__models__const_methods.pte'),
      '-o',
      multi,
    ]);
    await checkPage(multi, 'diff_multi');
    // Two panes of a graph that fits whole: the pane titles at the bottom stay clear of it.
    await checkPage(multi, 'diff_multi_panes', {
      setup: async (page) => {
        await page.keyboard.press('2');
        await page.evaluate(() => window.etvizTest.frame());
        assert.equal(await page.locator('.pane-title').count(), 2, 'two panes');
      },
    });
    const trace = path.join(OUT, 'trace.json');
    execFileSync(GEN, ['trace', '--blocks', '2', '--dim', '16', '--hidden', '32', '-o', trace], { stdio: 'ignore' });
    const traceHtml = writePage([trace], 'trace');
    await checkPage(traceHtml, 'trace');
    // A live trace whose forward pass raised (etviz.trace_model): one graph and a banner that
    // covered its first input.
    const failed = JSON.parse(fs.readFileSync(trace, 'utf8'));
    failed.passes = [failed.passes[0]];
    failed.passes[0].metadata.error = {
      pass_name: 'forward',
      message: 'RuntimeError: mat1 and mat2 shapes cannot be multiplied (1x16 and 32x16) at layers.0.mlp.fc1',
      traceback: 'Traceback (most recent call last):',
    };
    const failedJson = path.join(OUT, 'failed.json');
    fs.writeFileSync(failedJson, JSON.stringify(failed));
    const failedHtml = writePage([failedJson], 'failed');
    await checkPage(failedHtml, 'failed', {
      setup: async (page) => assert.equal(await page.isVisible('#graph-error'), true, 'the banner is shown'),
    });
    // Two panes side by side: the first view of one pane, pane titles clear of the nodes.
    await checkPage(traceHtml, 'trace_panes', {
      setup: async (page) => {
        await page.keyboard.press('2');
        await page.evaluate(() => window.etvizTest.frame());
      },
    });
  },
);

test(
  'notebook: an iframe that gets its size late opens as a page of its final size does',
  { skip: ONLY && ONLY !== 'notebook' },
  async () => {
    // The stress MLP opened small and off-centre: wider than the cell at a readable zoom.
    const html = writePage([pte(MLP)], 'notebook');
    const text = fs.readFileSync(html, 'utf8').replace(/&/g, '&amp;').replace(/"/g, '&quot;');
    // As etviz.show's cell (python/etviz/_page.py): a sandboxed srcdoc iframe, 100% wide; the
    // cell is laid out narrow first and widened while the page starts (as notebooks do).
    const host = path.join(OUT, 'notebook_host.html');
    fs.writeFileSync(
      host,
      `<!doctype html><html><body style="margin:0"><div id="cell" style="width:200px">` +
        `<iframe srcdoc="${text}" sandbox="allow-scripts allow-downloads" ` +
        `style="width:100%;height:640px;border:0;display:block" title="etviz"></iframe></div>` +
        `<script>for (const [ms, w] of [[30, '420px'], [120, '760px'], [400, '1000px']])` +
        ` setTimeout(() => { document.getElementById('cell').style.width = w; }, ms);</script></body></html>`,
    );
    const direct = path.join(OUT, 'notebook_direct.html');
    fs.copyFileSync(html, direct);
    // The page alone in a 1000x640 window: the view the cell must end on.
    const want = await (async () => {
      const { page, context } = await openViewer(browser, direct, { width: 1000, height: 640 });
      try {
        await waitForEngine(page);
        await page.evaluate(() => window.etvizTest.frame());
        return await measure(page);
      } finally {
        await context.close();
      }
    })();
    const key = (x) => JSON.stringify([x.zoom.toFixed(6), x.origin, x.canvas]);
    for (let load = 0; load < 5; load++) {
      const context = await browser.newContext({ viewport: { width: 1000, height: 700 }, deviceScaleFactor: 1 });
      try {
        const page = await context.newPage();
        await page.goto('file://' + host);
        await page.waitForTimeout(50);
        const frame = page.frames().find((f) => f !== page.mainFrame());
        await frame.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
        await frame.waitForFunction(() => !!window.etvizTest);
        await frame.evaluate(() => window.etvizTest.ready());
        await page.waitForTimeout(600); // after the last resize
        await frame.evaluate(() => window.etvizTest.frame());
        const got = await measure(frame);
        if (load === 0) await page.screenshot({ path: path.join(OUT, 'notebook_1000.png') });
        assert.equal(key(got), key(want), `load ${load}: ${JSON.stringify(got)} vs ${JSON.stringify(want)}`);
        assert.deepEqual(got.covered, []);
      } finally {
        await context.close();
      }
    }
  },
);

test('app: a page that opens more files opens on the same first view', { skip: ONLY !== 'app' }, async () => {
  await checkPage(writePage([pte(MLP), '--app'], 'app_mlp'), 'app_mlp');
});
