// A first-time reader's view of corpus pages (the "readable at first sight" issue): the side
// panel keeps keys and values apart and can be resized and hidden, the chrome leaves most of
// a 1024x700 window to the graph, parameters are named by their fully qualified names.
// Env: ETVIZ_BIN, ETVIZ_CORPUS_DIR, ETVIZ_ARTIFACTS, ETVIZ_READABILITY_CASE.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { openViewer, waitForEngine } from './browser.mjs';
import { BIN, GEN, CORPUS, OUT, sharedBrowser, writePage } from './harness.mjs';

const ONLY = process.env.ETVIZ_READABILITY_CASE;

const QNN = () =>
  path.join(
    CORPUS,
    'pte',
    'pytorch__executorch__examples__qualcomm__oss_scripts__llama__artifacts__stories260k_hybrid_llama_qnn.pte',
  );
const PT2 = () => path.join(CORPUS, 'pt2', 'pytorch__executorch__extension__pt2_archive__test__linear.6f89131a.pt2');
// A training program: four methods, three named like __et_training_parameters_index_forward.
const XOR = () =>
  path.join(
    CORPUS,
    'pte',
    'pytorch__executorch__extension__android__executorch_android__src__androidTest__resources__xor.9c80c531.pte',
  );
// A generated ETRecord (2023 schema form: inputs_to_parameters maps placeholder -> fqn).
const ETRECORD = () => {
  const out = path.join(OUT, 'generated.etrecord');
  execFileSync(GEN, ['export', '--blocks', '2', '--schema1', '--format', 'etrecord', '-o', out], { stdio: 'ignore' });
  return out;
};

// Panel texts whose letters run past their own box (a heading cut at the panel's edge):
// scrollWidth beyond clientWidth, for every element that does not scroll on purpose.
async function panelTextCut(page) {
  return page.$$eval('#panel *', (all) =>
    all
      .filter((e) => {
        const o = getComputedStyle(e).overflowX;
        return e.clientWidth > 0 && o !== 'auto' && o !== 'scroll' && e.scrollWidth > e.clientWidth + 1;
      })
      .map((e) => `${e.tagName.toLowerCase()}: ${e.textContent.slice(0, 60)} (${e.scrollWidth} > ${e.clientWidth})`),
  );
}

// Every key/value row of the panel: the key's box ends before the value's begins.
async function panelRowsOverlap(page) {
  return page.$$eval('#panel .kv', (rows) =>
    rows.flatMap((r) => {
      const k = r.querySelector('.k'),
        v = r.querySelector('.v');
      if (!k || !v) return [];
      const a = k.getBoundingClientRect(),
        b = v.getBoundingClientRect();
      return a.right > b.left + 0.5 && a.bottom > b.top && b.bottom > a.top
        ? [`${k.textContent} | ${v.textContent}`]
        : [];
    }),
  );
}

const browser = sharedBrowser();

test(
  'panel: keys never overlap values, resize and hide give the canvas room',
  { skip: ONLY && ONLY !== 'panel' },
  async () => {
    const html = writePage(PT2(), 'readability_pt2');
    for (const [width, height, scheme] of [
      [1400, 900, 'light'],
      [1024, 700, 'dark'],
    ]) {
      const { page, log, context } = await openViewer(browser, html, { width, height, colorScheme: scheme });
      try {
        await waitForEngine(page);
        // The summary of a .pt2 has long keys (sample_inputs.model, archive_version).
        assert.deepEqual(await panelRowsOverlap(page), [], 'summary rows');
        // The graph keeps most of the window, even at 1024x700 with the panel shown.
        const canvas = await page.$eval('#canvas', (c) => c.getBoundingClientRect().width);
        assert.ok(canvas >= 0.65 * width, `canvas ${canvas}px of ${width}px`);
        // Hiding the panel (button or i) gives the canvas the whole width; showing it again
        // brings it back.
        await page.keyboard.press('i');
        await page.waitForTimeout(100);
        assert.equal(await page.$eval('#panel', (p) => p.hidden), true);
        const wide = await page.$eval('#canvas', (c) => c.getBoundingClientRect().width);
        assert.equal(wide, width, 'hidden panel: full-width canvas');
        await page.click('#btn-panel');
        // Dragging the panel's edge resizes it.
        const handle = await page.$eval('#panel-resize', (h) => {
          const r = h.getBoundingClientRect();
          return [r.left + r.width / 2, r.top + 200];
        });
        const before = await page.$eval('#panel', (p) => p.getBoundingClientRect().width);
        await page.mouse.move(handle[0], handle[1]);
        await page.mouse.down();
        await page.mouse.move(handle[0] - 120, handle[1], { steps: 4 });
        await page.mouse.up();
        const after = await page.$eval('#panel', (p) => p.getBoundingClientRect().width);
        assert.ok(Math.abs(after - before - 120) <= 8, `panel ${before}px -> ${after}px`);
        await page.dblclick('#panel-resize');
        await page.screenshot({ path: path.join(OUT, `panel_${width}_${scheme}.png`) });
        assert.deepEqual(log.errors, []);
        assert.deepEqual(log.requests, []);
      } finally {
        await context.close();
      }
    }
    // Long names (a graph's, the file's) wrap inside the panel at the narrow width; the
    // summary's "Graph: NAME" heading used to run past its edge.
    const { page, log, context } = await openViewer(browser, writePage(XOR(), 'readability_xor'), {
      width: 1024,
      height: 700,
    });
    try {
      await waitForEngine(page);
      const graphs = await page.evaluate(() => window.etvizTest.graphs().map((g) => g.name));
      assert.ok(
        graphs.some((g) => g.length > 30),
        `a long graph name among ${graphs}`,
      );
      for (let g = 0; g < graphs.length; g++) {
        await page.evaluate((k) => window.etvizTest.selectGraph(k), g);
        await page.waitForFunction((k) => window.etvizTest.graph() === k, g);
        const heading = await page.$$eval('#panel h3', (hs) => hs.map((h) => h.textContent));
        assert.ok(heading.includes(`Graph: ${graphs[g]}`), `${heading}`);
        assert.deepEqual(await panelTextCut(page), [], graphs[g]);
      }
      // The size drawer's path starts at the file: its long name is cut with an ellipsis, its
      // size stays in view (it was clipped off with the name's end).
      await page.keyboard.press('b');
      const crumb = await page.$eval('#size-drawer .size-crumbs', (t) => {
        const c = t.querySelector('.crumb'),
          n = c.querySelector('.crumb-name');
        return {
          text: c.textContent,
          crumbRight: c.getBoundingClientRect().right,
          titleRight: t.getBoundingClientRect().right,
          cut: n.scrollWidth > n.clientWidth,
          ellipsis: getComputedStyle(n).textOverflow,
        };
      });
      assert.match(crumb.text, /^pytorch__.*xor\.9c80c531\.pte \(13\.5 KiB\)$/);
      assert.ok(crumb.crumbRight <= crumb.titleRight + 0.5, JSON.stringify(crumb));
      assert.ok(!crumb.cut || crumb.ellipsis === 'ellipsis', JSON.stringify(crumb));
      await page.screenshot({ path: path.join(OUT, 'panel_long_names.png') });
      assert.deepEqual(log.errors, []);
    } finally {
      await context.close();
    }
  },
);

test(
  'names: parameters show their fully qualified names and search finds them',
  { skip: ONLY && ONLY !== 'names' },
  async () => {
    for (const [file, name, fqn] of [
      [PT2, 'names_pt2', 'linear.weight'],
      [ETRECORD, 'names_etrecord', 'layers.1.attention.wq.weight'],
    ]) {
      const html = writePage(file(), name);
      const { page, log, context } = await openViewer(browser, html);
      try {
        await waitForEngine(page);
        const labels = await page.evaluate(() => {
          const t = window.etvizTest;
          const out = [];
          for (let i = 0; i < t.graphs()[t.graph()].nodes; i++)
            if (t.node(i).kind === 'constant') out.push(t.node(i).label);
          return out;
        });
        assert.ok(labels.length > 0, 'the graph has parameters');
        for (const l of labels) assert.doesNotMatch(l, /^(arg\d+_\d+|p_\w+)$/, `placeholder name shown: ${l}`);
        if (fqn) {
          assert.ok(labels.includes(fqn), `${fqn} in ${labels}`);
          await page.keyboard.press('/');
          await page.keyboard.type(fqn);
          await page.waitForSelector('#search-results .res');
          assert.ok((await page.locator('#search-results .res').count()) >= 1, 'search finds the fqn');
          // The parameter has no module path of its own; module: finds it by its fqn (and in
          // its consumer's box), and a plain word finds a dtype as readers type it.
          const results = async (q) => {
            await page.fill('#search', q);
            await page.waitForTimeout(150);
            return page.locator('#search-results .res').allTextContents();
          };
          const owner = fqn.slice(0, fqn.lastIndexOf('.'));
          assert.ok(
            (await results(`module:${owner}`)).some((r) => r.includes(fqn)),
            `module:${owner} finds ${fqn}`,
          );
          assert.ok((await results('float32')).length >= 1, 'float32 as a plain word');
        }
        assert.deepEqual(log.errors, []);
        assert.deepEqual(log.requests, []);
      } finally {
        await context.close();
      }
    }
  },
);

test(
  'chrome at 1024x700: legend folded, header readable, graph selector titled',
  { skip: ONLY && ONLY !== 'chrome' },
  async () => {
    const html = writePage(QNN(), 'chrome_qnn');
    const { page, log, context } = await openViewer(browser, html, { width: 1024, height: 700 });
    try {
      await waitForEngine(page);
      assert.equal(
        await page.$eval('#legend', (l) => l.classList.contains('folded')),
        true,
        'legend starts folded on a narrow stage',
      );
      // Folded, the box shows a disclosure mark: its title alone read as an empty legend.
      const mark = () => page.$eval('#legend .legend-title', (t) => getComputedStyle(t, '::before').content);
      assert.equal(await mark(), '"▸"', 'a folded legend says it opens');
      await page.click('#legend .legend-title');
      assert.equal(await page.$eval('#legend', (l) => l.classList.contains('folded')), false, 'and unfolds on click');
      assert.equal(await mark(), '"▾"', 'an open legend says it closes');
      // Long graph names in the selector and the file name can be read in full (tooltips).
      const titles = await page.$$eval('#graph-select option', (os) => os.map((o) => o.title));
      assert.equal(titles.length, 29);
      assert.ok(titles.every((t) => t.length > 0));
      assert.ok((await page.getAttribute('#file-name', 'title')).endsWith('.pte'));
      // 13 inputs and 11 outputs fold into one box each (collapsed), so the first view is the
      // graph, not one row of inputs wider than the window; the status counts every box.
      const folded = await page.evaluate(() => {
        const t = window.etvizTest;
        return t.collapsedGroups().map((g) => t.group(g).label);
      });
      assert.ok(folded.includes('13 inputs'), `folded: ${folded}`);
      assert.ok(folded.includes('11 outputs'), `folded: ${folded}`);
      const status = await page.textContent('#status');
      assert.match(status, /boxes shown \(\d+ nodes, \d+ collapsed groups\)/);
      const visible = await page.evaluate(() => window.etvizTest.visibleBoxes());
      assert.match(status, new RegExp(`· ${visible} boxes shown`));
      // The minimap is smaller in a narrow window.
      // Every header button fits in the window (the bar does not push the last ones out).
      const cut = await page.$$eval('#bar .btn', (bs) =>
        bs.filter((b) => b.getBoundingClientRect().right > window.innerWidth).map((b) => b.textContent),
      );
      assert.deepEqual(cut, [], `buttons past the right edge: ${cut}`);
      const mm = await page.$eval('#minimap', (m) => m.getBoundingClientRect().width);
      assert.ok(mm <= 150, `minimap ${mm}px`);
      await page.screenshot({ path: path.join(OUT, 'chrome_qnn_1024.png') });
      assert.deepEqual(log.errors, []);
      assert.deepEqual(log.requests, []);
    } finally {
      await context.close();
    }
    // A page of two files adds the file selector; every button still fits from 1024 px up
    // (the header's narrow rules shrink the selectors and the search box first).
    const two = path.join(OUT, 'chrome_two_files.html');
    execFileSync(BIN, [QNN(), PT2(), '-o', two, '-q']);
    for (const width of [1024, 1200, 1280, 1440]) {
      const opened = await openViewer(browser, two, { width, height: 700 });
      try {
        assert.equal(await opened.page.isVisible('#file-select'), true, 'the file selector is shown');
        const past = await opened.page.$$eval('#bar .btn', (bs) =>
          bs.filter((b) => b.getBoundingClientRect().right > window.innerWidth).map((b) => b.textContent),
        );
        assert.deepEqual(past, [], `two files at ${width} px: buttons past the right edge: ${past}`);
        if (width === 1024) await opened.page.screenshot({ path: path.join(OUT, 'chrome_two_files_1024.png') });
      } finally {
        await opened.context.close();
      }
    }
  },
);

// Every label the first view shows that the floating legend covers: drawn boxes (nodes,
// collapsed groups, expanded groups' title bars) in page coordinates against the legend's box.
async function labelsUnderLegend(page) {
  return page.evaluate((header) => {
    const t = window.etvizTest;
    const legend = ['legend', 'heat-legend'].map((id) => document.getElementById(id)).find((e) => e && e.offsetWidth);
    const l = legend.getBoundingClientRect();
    const c = document.getElementById('canvas').getBoundingClientRect();
    const out = [];
    for (const b of t.drawnBoxes()) {
      const [x0, y0] = t.pagePoint(b.x, b.y);
      const [x1, y1] = t.pagePoint(b.x + b.w, b.y + (b.group !== undefined && !b.collapsed ? header : b.h));
      const onCanvas = x1 > c.left && y1 > c.top && x0 < c.right && y0 < c.bottom;
      if (onCanvas && x0 < l.right && x1 > l.left && y0 < l.bottom && y1 > l.top)
        out.push(b.node !== undefined ? t.node(b.node).label : t.group(b.group).label);
    }
    return out;
  }, 18);
}

test(
  'legend: the first view puts no label under the floating legend',
  { skip: ONLY && ONLY !== 'legend' },
  async () => {
    // Tall graphs start at their top: the keyword-spotting program's input (1024x700, the legend
    // folded) and the VGF program's backend group title (1400x900, the legend open) were hidden.
    const kws = writePage(
      path.join(CORPUS, 'pte', 'pytorch__executorch__examples__arduino__examples__KeywordSpotting__model.pte'),
      'legend_kws',
    );
    const vgf = writePage(
      path.join(
        CORPUS,
        'pte',
        'arm__pte-adapter-model-explorer__src__pte_adapter_model_explorer__tests__fixtures__mobilenet_v2_vgf__input.pte',
      ),
      'legend_vgf',
    );
    for (const [html, width, height, scheme, first] of [
      [kws, 1024, 700, 'dark', 'input_0'],
      [vgf, 1400, 900, 'light', 'VgfBackend'],
      [kws, 1400, 900, 'light', 'input_0'],
      [vgf, 1024, 700, 'dark', 'VgfBackend'],
    ]) {
      const { page, log, context } = await openViewer(browser, html, { width, height, colorScheme: scheme });
      try {
        await waitForEngine(page);
        const name = `${path.basename(html, '.html')}_${width}`;
        await page.screenshot({ path: path.join(OUT, `${name}.png`) });
        assert.deepEqual(await labelsUnderLegend(page), [], `${name}: labels under the legend`);
        // The first view still starts at the top: the graph's first label is on screen.
        const top = await page.evaluate((label) => {
          const t = window.etvizTest;
          const c = document.getElementById('canvas').getBoundingClientRect();
          return t
            .drawnBoxes()
            .filter((b) => (b.node !== undefined ? t.node(b.node).label : t.group(b.group).label) === label)
            .some((b) => {
              const [x, y] = t.pagePoint(b.x, b.y);
              return x >= c.left && y >= c.top && x < c.right && y < c.bottom;
            });
        }, first);
        assert.ok(top, `${name}: ${first} on screen`);
        // Folding or opening the legend and fitting (f) keeps the labels clear of it too.
        await page.click('#legend .legend-title');
        await page.keyboard.press('f');
        await page.evaluate(() => window.etvizTest.frame());
        assert.deepEqual(await labelsUnderLegend(page), [], `${name}: labels under the legend after f`);
        assert.deepEqual(log.errors, []);
        assert.deepEqual(log.requests, []);
      } finally {
        await context.close();
      }
    }
  },
);

test(
  'first view: a graph wider than the window starts with no box cut at its left edge',
  { skip: ONLY && ONLY !== 'wide' },
  async () => {
    // The stress MLP programs (an XNNPACK partition whose weights stand side by side) are wider
    // than an 820 px window at the readable 45 %: a first view centred on the median box cut
    // input_0, index_select and the backend group's title at the left edge.
    for (const [hash, scheme] of [
      ['d66ae531', 'dark'],
      ['6d3450d6', 'light'],
    ]) {
      const html = writePage(
        path.join(
          CORPUS,
          'pte',
          `corey-cole__djl-executorch-engine__src__test__resources__models__stress__stress_mlp.${hash}.pte`,
        ),
        `wide_${hash}`,
      );
      const { page, log, context } = await openViewer(browser, html, { width: 820, height: 700, colorScheme: scheme });
      try {
        await waitForEngine(page);
        await page.screenshot({ path: path.join(OUT, `wide_${hash}_820.png`) });
        const seen = await page.evaluate(() => {
          const t = window.etvizTest;
          const c = document.getElementById('canvas').getBoundingClientRect();
          const out = { cut: [], shown: [], wider: false };
          let lo = Infinity,
            hi = -Infinity;
          for (const b of t.drawnBoxes()) {
            const [x0, y0] = t.pagePoint(b.x, b.y);
            const [x1, y1] = t.pagePoint(b.x + b.w, b.y + b.h);
            lo = Math.min(lo, x0);
            hi = Math.max(hi, x1);
            if (b.node === undefined || y1 <= c.top || y0 >= c.bottom) continue;
            const label = t.node(b.node).label;
            if (x0 < c.left && x1 > c.left) out.cut.push(label);
            if (x0 >= c.left && x1 <= c.right) out.shown.push(label);
          }
          out.wider = hi - lo > c.width;
          return out;
        });
        assert.ok(seen.wider, `${hash}: the drawing is wider than the canvas (the case under test)`);
        assert.deepEqual(seen.cut, [], `${hash}: boxes cut by the left edge`);
        for (const label of ['input_0', 'index_select', 'XnnpackBackend'])
          assert.ok(seen.shown.includes(label), `${hash}: ${label} wholly on screen (shown: ${seen.shown})`);
        assert.deepEqual(log.errors, []);
        assert.deepEqual(log.requests, []);
      } finally {
        await context.close();
      }
    }
  },
);

test(
  'delegation in the page: the summary agrees with etviz delegation, ops are findable',
  { skip: ONLY && ONLY !== 'delegation' },
  async () => {
    const file = path.join(
      CORPUS,
      'pte',
      'corey-cole__djl-executorch-engine__src__test__resources__models__stress__stress_mlp.d66ae531.pte',
    );
    const report = JSON.parse(execFileSync(BIN, ['delegation', '--format', 'json', file]).toString());
    const html = writePage(file, 'delegation_stress_mlp');
    const { page, log, context } = await openViewer(browser, html);
    try {
      await waitForEngine(page);
      const rows = await page.$$eval('#panel .delegation .kv', (rs) =>
        rs.map((r) => [r.querySelector('.k').textContent, r.querySelector('.v').textContent]),
      );
      const value = (k) => (rows.find((r) => r[0] === k) || [])[1];
      assert.equal(value('delegated subgraphs'), String(report.num_delegated_subgraphs));
      assert.equal(value('delegated ops'), report.num_delegated_nodes.toLocaleString('en-US'));
      assert.equal(value('ops on the CPU'), report.num_non_delegated_nodes.toLocaleString('en-US'));
      const ops = await page.$$eval('#panel .delegation .op-table tr', (trs) =>
        trs.slice(1).map((tr) => Array.from(tr.cells, (c) => c.textContent)),
      );
      assert.equal(ops.length, report.operators.length, 'one row per operator');
      for (const o of report.operators) {
        const r = ops.find((x) => x[0] === o.op_type);
        assert.ok(r, o.op_type);
        assert.equal(r[1], o.occurrences_in_delegated_graphs ? String(o.occurrences_in_delegated_graphs) : '');
        assert.equal(r[2], o.occurrences_in_non_delegated_graphs ? String(o.occurrences_in_non_delegated_graphs) : '');
      }
      // A delegate's box says how many ops it holds, as the report does.
      const badges = await page.evaluate(() => {
        const t = window.etvizTest;
        const out = [];
        for (let g = 0; g < t.groupCount(); g++) if (t.group(g).kind === 'delegate') out.push(t.group(g));
        return out;
      });
      assert.equal(badges.length, report.delegates.length);
      assert.deepEqual(badges.map((b) => b.badge).sort(), report.delegates.map((d) => `${d.nodes} ops`).sort());
      // Clicking a delegated operator finds its nodes: they are selected and outlined.
      const delegatedOp = report.operators.find((o) => o.occurrences_in_delegated_graphs > 0).op_type;
      await page.click(`#panel .delegation .op-table button:text-is("${delegatedOp}")`);
      const picked = await page.evaluate(() => window.etvizTest.selected().node);
      assert.ok(picked >= 0);
      assert.equal(await page.evaluate((n) => window.etvizTest.node(n).op, picked), delegatedOp);
      await page.screenshot({ path: path.join(OUT, 'delegation_stress_mlp.png') });
      assert.deepEqual(log.errors, []);
      assert.deepEqual(log.requests, []);
    } finally {
      await context.close();
    }
  },
);

test(
  'several files in one page: a file selector beside the graph selector',
  { skip: ONLY && ONLY !== 'files' },
  async () => {
    const files = [
      path.join(CORPUS, 'pte', 'pytorch__executorch__add.42766462.pte'),
      PT2(),
      path.join(CORPUS, 'pte', 'corey-cole__executorch-numpy-runtime__tests__models__quantized.pte'),
    ];
    const html = path.join(OUT, 'files.html');
    execFileSync(BIN, [...files, '-o', html, '-q']);
    const { page, log, context } = await openViewer(browser, html);
    try {
      await waitForEngine(page);
      const names = await page.$$eval('#file-select option', (os) => os.map((o) => o.textContent));
      assert.deepEqual(
        names,
        files.map((f) => path.basename(f)),
      );
      assert.equal(await page.$eval('#file-select', (e) => e.hidden), false);
      // Each file keeps its own graphs, header and panel.
      for (let f = 0; f < files.length; f++) {
        await page.selectOption('#file-select', String(f));
        const header = await page.textContent('#file-name');
        assert.equal(header, path.basename(files[f]));
        const info = JSON.parse(execFileSync(BIN, ['info', '--json', files[f]]).toString());
        const expected = (info.methods && info.methods.length ? info.methods : info.programs).map((m) => m.name);
        const listed = await page.$$eval('#graph-select option', (os) =>
          os.map((o) => o.textContent.replace(/ \(\d+\)$/, '')),
        );
        assert.deepEqual(listed, expected, `graphs of ${files[f]}`);
        assert.equal(await page.textContent('#panel .panel-title'), path.basename(files[f]));
      }
      // A node of the third file's graph is clickable as usual.
      const i = await page.evaluate(() => window.etvizTest.findNodes('XNNFullyConnected')[0] ?? -1);
      assert.ok(i >= 0);
      assert.deepEqual(log.errors, []);
      assert.deepEqual(log.requests, []);
      await page.screenshot({ path: path.join(OUT, 'files.png') });
    } finally {
      await context.close();
    }
  },
);

test(
  "flat programs: an op's own constants fold into one box above it",
  { skip: ONLY && ONLY !== 'constants' },
  async () => {
    const file = path.join(
      CORPUS,
      'pte',
      'pytorch__executorch__examples__arduino__examples__KeywordSpotting__model.pte',
    );
    const html = writePage(file, 'constants_kws');
    const { page, log, context } = await openViewer(browser, html);
    try {
      await waitForEngine(page);
      const folds = await page.evaluate(() => {
        const t = window.etvizTest;
        return t
          .collapsedGroups()
          .map((g) => ({ g, ...t.group(g), inside: t.directNodes(g) }))
          .filter((x) => /constants$/.test(x.label));
      });
      assert.equal(folds.length, 9, 'one box per convolution');
      for (const f of folds) {
        assert.equal(f.label, `${f.inside} constants`);
        assert.equal(f.badge, '', 'the count is in the label only');
        assert.ok(f.inside >= 3);
      }
      // Each box sits above the op it feeds: the op's consumer-side edge is short.
      const [gx, gy] = await page.evaluate((g) => window.etvizTest.groupPoint(g), folds[0].g);
      await page.mouse.click(gx, gy);
      assert.equal(
        await page.evaluate((g) => window.etvizTest.group(g).expanded, folds[0].g),
        true,
        'a click opens it',
      );
      await page.screenshot({ path: path.join(OUT, 'constants_kws.png') });
      assert.deepEqual(log.errors, []);
      assert.deepEqual(log.requests, []);
    } finally {
      await context.close();
    }
  },
);

test(
  'minimap: a tall graph keeps a usable width in the minimap, not a 1-px line',
  { skip: ONLY && ONLY !== 'minimap' },
  async () => {
    const pte = path.join(OUT, 'tall.pte');
    execFileSync(GEN, ['program', '--blocks', '40', '--dim', '16', '--hidden', '32', '--vocab', '64', '-o', pte], {
      stdio: 'ignore',
    });
    const html = writePage(pte, 'minimap_tall');
    const { page, log, context } = await openViewer(browser, html);
    try {
      assert.ok(await waitForEngine(page));
      await page.keyboard.press('e'); // everything expanded: thousands of px tall, a few hundred wide
      await page.evaluate(() => window.etvizTest.setZoom(1));
      await page.evaluate(() => window.etvizTest.frame());
      const layout = await page.evaluate(() => window.etvizTest.layout());
      const tall =
        Math.max(...layout.ny.map((y, i) => y + layout.nh[i])) / Math.max(...layout.nx.map((x, i) => x + layout.nw[i]));
      assert.ok(tall > 20, `the drawing is ${tall.toFixed(0)}x taller than wide`);
      const mm = await page.evaluate(() => window.etvizTest.minimap());
      assert.equal(mm.hidden, false, 'zoomed in on a tall graph, the minimap shows');
      assert.ok(mm.width >= 30, `drawing ${mm.width.toFixed(1)} px wide in the minimap`);
      await page.screenshot({ path: path.join(OUT, 'minimap-tall.png') });
      assert.deepEqual(log.errors, []);
    } finally {
      await context.close();
    }
  },
);

test(
  'controls: bidi overrides and control characters in model strings are shown, not obeyed',
  { skip: ONLY && ONLY !== 'controls' },
  async () => {
    // KWS with "cortex_m" -> ESC [2J, U+202E (right-to-left override), CR; "forward" -> ESC ]0;pw BEL.
    const kws = path.join(
      CORPUS,
      'pte',
      'pytorch__executorch__examples__arduino__examples__KeywordSpotting__model.pte',
    );
    let bytes = fs.readFileSync(kws);
    const patch = (from, to) => {
      const a = Buffer.from(from, 'latin1'),
        b = Buffer.from(to, 'latin1');
      assert.equal(a.length, b.length);
      for (let at = bytes.indexOf(a); at >= 0; at = bytes.indexOf(a, at + 1)) b.copy(bytes, at);
    };
    patch('cortex_m', '\x1b[2J\xe2\x80\xae\r');
    patch('forward', '\x1b]0;pw\x07');
    const pte = path.join(OUT, 'controls.pte');
    fs.writeFileSync(pte, bytes);
    const html = writePage(pte, 'controls');
    const { page, log, context } = await openViewer(browser, html);
    try {
      await waitForEngine(page);
      const graphs = await page.evaluate(() => window.etvizTest.graphs());
      assert.equal(graphs[0].name, '⟨U+001B⟩]0;pw⟨U+0007⟩');
      const conv = (
        await page.evaluate(() => {
          const out = [];
          for (let i = 0; i < 200; i++) {
            try {
              const n = window.etvizTest.node(i);
              if (n.op) out.push(n.op);
            } catch (e) {
              break;
            }
          }
          return out;
        })
      ).find((op) => op.includes('pad'));
      assert.equal(conv, '⟨U+001B⟩[2J⟨U+202E⟩⟨U+000D⟩::pad.out');
      const text = await page.evaluate(() => document.body.innerText);
      assert.ok(!/[\u202a-\u202e\u2066-\u2069\u001b]/.test(text), 'no raw control in the page text');
      await page.screenshot({ path: path.join(OUT, 'controls.png') });
      assert.deepEqual(log.errors, []);
    } finally {
      await context.close();
    }
  },
);

test(
  'damaged: a cut-off program is shown with the damage in the header and the panel',
  { skip: ONLY && ONLY !== 'damaged' },
  async () => {
    // The QNN llama cut at two thirds: its delegates' shared segment runs past the end.
    const whole = fs.readFileSync(QNN());
    const cut = path.join(OUT, 'cut_qnn.pte');
    fs.writeFileSync(cut, whole.subarray(0, Math.floor((whole.length * 2) / 3)));
    const html = path.join(OUT, 'cut_qnn.html');
    const run = spawnSync(BIN, [cut, '-o', html, '-q'], { encoding: 'utf8' });
    assert.equal(run.status, 1, 'the page is written and the run exits 1');
    assert.match(run.stderr, /etviz: error: .*cut_qnn\.pte: segment 1 \(QnnBackend payload x2\).*bytes are missing/);
    const { page, log, context } = await openViewer(browser, html);
    try {
      const meta = await page.$eval('#file-meta', (e) => ({
        text: e.textContent,
        damaged: e.classList.contains('damaged'),
      }));
      assert.ok(meta.damaged && meta.text.startsWith('✖ damaged'), `header: ${meta.text}`);
      const errors = await page.$$eval('#panel .diag.error', (ds) => ds.map((d) => d.textContent));
      assert.equal(errors.length, 1);
      assert.match(errors[0], /450048 of its bytes are missing/);
      // Both payloads are opaque now: the delegation section says so instead of an empty table.
      assert.equal(await page.$$eval('#panel .delegation .op-table', (t) => t.length), 0, 'no empty operator table');
      assert.match(await page.$eval('#panel .delegation .hint', (h) => h.textContent), /summarised, not decoded/);
      await page.screenshot({ path: path.join(OUT, 'cut_qnn.png') });
      assert.deepEqual(log.errors, []);
      assert.deepEqual(log.requests, []);
    } finally {
      await context.close();
    }
  },
);
