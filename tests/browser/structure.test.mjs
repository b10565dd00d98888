// Structure at a glance (docs/viewer.md, "Structure boxes"): folding and unfolding a repeated
// block, flatten (module boxes dissolved), the depth slider, the group panel's contents and
// profile time, tensor shapes on by default where they fit. After every toggle no two boxes
// overlap unless one holds the other.
// Env: ETVIZ_BIN, ETVIZ_GEN, ETVIZ_CORPUS_DIR, ETVIZ_ARTIFACTS,
// ETVIZ_STRUCTURE_CASE (fold|flatten|corpus|profile|shapes|shared).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { openViewer, waitForEngine } from './browser.mjs';
import { GEN, CORPUS, OUT, sharedBrowser, writePage } from './harness.mjs';

const ONLY = process.env.ETVIZ_STRUCTURE_CASE;

// A generated exported program: 6 blocks of layers.N (TransformerBlock), dim 64, hidden 128.
function exportedPage() {
  const pt2 = path.join(OUT, 'blocks6.pt2');
  execFileSync(GEN, ['export', '--blocks', '6', '--format', 'pt2', '-o', pt2], { stdio: 'ignore' });
  return writePage([pt2], 'structure_pt2');
}

// Boxes that overlap although neither holds the other: [] when the drawing is clean. Frames
// hold what is inside them (the `within` chain of every box), nothing else may intersect.
async function overlaps(page) {
  const boxes = await page.evaluate(() => window.etvizTest.drawnBoxes());
  const bad = [];
  const holds = (a, b) => a.group !== undefined && !a.collapsed && b.within.includes(a.group);
  const eps = 0.5;
  const sorted = boxes.slice().sort((a, b) => a.x - b.x);
  for (let i = 0; i < sorted.length; i++) {
    const a = sorted[i];
    for (let j = i + 1; j < sorted.length && sorted[j].x < a.x + a.w - eps; j++) {
      const b = sorted[j];
      if (b.y >= a.y + a.h - eps || a.y >= b.y + b.h - eps) continue;
      if (holds(a, b) || holds(b, a)) continue;
      bad.push(`${JSON.stringify(a)} x ${JSON.stringify(b)}`);
      if (bad.length > 3) return bad;
    }
  }
  return bad;
}

// Kinds of the boxes drawn now.
const drawnKinds = (page) =>
  page.evaluate(() => {
    const t = window.etvizTest;
    return [
      ...new Set(
        t
          .drawnBoxes()
          .filter((b) => b.group !== undefined)
          .map((b) => t.group(b.group).kind),
      ),
    ].sort();
  });

const browser = sharedBrowser();

test(
  'fold and unfold a repeated block; its panel tells its weights and ops',
  { skip: ONLY && ONLY !== 'fold' },
  async () => {
    const html = exportedPage();
    const { page, log, context } = await openViewer(browser, html);
    try {
      assert.equal(await waitForEngine(page), true);
      assert.deepEqual(await overlaps(page), [], 'initial layout');
      const run = await page.evaluate(() => {
        const t = window.etvizTest;
        for (let g = 0; g < t.groupCount(); g++) if (t.group(g).kind === 'repeat') return { g, ...t.group(g) };
        return null;
      });
      assert.ok(run, 'a repeat box');
      assert.match(run.label, /×6$/);
      // Fold: one box for the six layers; unfold: the six instances again.
      if (run.expanded) await page.evaluate((g) => window.etvizTest.toggleGroup(g), run.g);
      assert.ok((await page.evaluate(() => window.etvizTest.collapsedGroups())).includes(run.g), 'folded');
      assert.deepEqual(await overlaps(page), [], 'folded');
      await page.screenshot({ path: path.join(OUT, 'structure_folded.png') });
      await page.evaluate((g) => window.etvizTest.toggleGroup(g), run.g);
      const shown = await page.evaluate(
        (g) => window.etvizTest.drawnBoxes().filter((b) => b.within[0] === g).length,
        run.g,
      );
      assert.equal(shown, 6, 'unfolded: the six instances');
      assert.deepEqual(await overlaps(page), [], 'unfolded');

      // The folded box's panel: 6 x 41,088 parameters in 54 tensors (float32), 192 ops, 42 linear.
      await page.evaluate((g) => window.etvizTest.selectGroup(g), run.g);
      const contents = await page.evaluate((g) => window.etvizTest.groupContents(g), run.g);
      assert.equal(contents.parameters, 6 * 41088);
      assert.equal(contents.tensors, 54);
      assert.equal(contents.bytes, 4 * 6 * 41088);
      const params = await page.$eval('#panel .group-params', (e) => ({ text: e.textContent, title: e.title }));
      assert.match(params.text, /^246\.5 k in 54 tensors, 963\.0 KiB$/);
      assert.match(params.title, /^246,528 elements, 986,112 bytes/);
      const ops = await page.$$eval('#panel .group-ops tr', (trs) =>
        trs.slice(1).map((tr) => [tr.cells[0].textContent, Number(tr.cells[1].textContent)]),
      );
      assert.equal(
        ops.reduce((a, [, n]) => a + n, 0),
        192,
      );
      assert.ok(ops[0][0].includes('linear') && ops[0][1] === 42, `most frequent first: ${ops[0]}`);
      await page.screenshot({ path: path.join(OUT, 'structure_group_panel.png') });
      // Clicking an op finds its nodes.
      await page.click('#panel .group-ops tr:nth-child(2) button');
      assert.match(await page.textContent('#search-results .summary'), /^42 matches/);
      assert.deepEqual(log.errors, []);
      assert.deepEqual(log.requests, []);
    } finally {
      await context.close();
    }
  },
);

test(
  'flatten and the depth slider: module boxes go and come back, every level shows',
  { skip: ONLY && ONLY !== 'flatten' },
  async () => {
    const html = exportedPage();
    const { page, log, context } = await openViewer(browser, html);
    try {
      assert.equal(await waitForEngine(page), true);
      const nodes = await page.evaluate(() => window.etvizTest.graphs()[0].nodes);
      // Depth slider: every level from the top to all of it, each drawn cleanly; the boxes
      // drawn are exactly the groups of depth < level (open) and = level (closed).
      const { levels } = await page.evaluate(() => window.etvizTest.depth());
      assert.ok(levels >= 4, `model, layers ×6, layers.N, attention...: ${levels}`);
      for (let level = 0; level <= levels; level++) {
        await page.evaluate((l) => window.etvizTest.setDepth(l), level);
        const d = await page.evaluate(() => window.etvizTest.depth());
        assert.equal(d.level, level, 'the slider shows the level set');
        const wrong = await page.evaluate((l) => {
          const t = window.etvizTest;
          return t
            .drawnBoxes()
            .filter(
              (b) =>
                b.group !== undefined && t.group(b.group).kind !== 'qdq_cluster' && t.group(b.group).kind !== 'other',
            )
            .filter((b) => (b.collapsed ? b.within.length !== l : b.within.length >= l))
            .map((b) => t.group(b.group).name);
        }, level);
        assert.deepEqual(wrong, [], `level ${level}: boxes at the wrong depth`);
        assert.deepEqual(await overlaps(page), [], `level ${level}`);
      }
      assert.equal(await page.evaluate(() => window.etvizTest.visibleNodes()), nodes, 'all levels: every node');
      // Keyboard: , one level up, . one down.
      await page.focus('#canvas');
      await page.keyboard.press(',');
      assert.equal((await page.evaluate(() => window.etvizTest.depth())).level, levels - 1);
      await page.keyboard.press('.');
      assert.equal((await page.evaluate(() => window.etvizTest.depth())).level, levels);

      // Flatten (l): no module or repeat box, every node laid out at the top level.
      await page.keyboard.press('l');
      assert.equal(await page.evaluate(() => window.etvizTest.flat()), true);
      assert.equal(await page.$eval('#btn-flatten', (b) => b.classList.contains('on')), true);
      assert.deepEqual(await drawnKinds(page), [], 'no box left in a model of modules only');
      assert.equal(await page.evaluate(() => window.etvizTest.visibleNodes()), nodes);
      assert.deepEqual(await overlaps(page), [], 'flat');
      assert.match(await page.textContent('#status'), /flat: module boxes hidden/, 'the status line says so');
      // Nothing to step through: the slider is disabled.
      assert.equal((await page.evaluate(() => window.etvizTest.depth())).disabled, true);
      await page.screenshot({ path: path.join(OUT, 'structure_flat.png') });
      // A link to a node made while flat reopens flat, with that node selected.
      const wq = (await page.evaluate(() => window.etvizTest.findNodes('aten::linear')))[0];
      await page.evaluate((i) => window.etvizTest.selectNode(i), wq);
      const url = page.url();
      assert.match(url, /&flat=1$/);
      const again = await context.newPage();
      await again.goto(url);
      await again.waitForSelector('body[data-ready="true"]');
      assert.equal(await waitForEngine(again), true);
      await again.waitForFunction(() => window.etvizTest.flat() && window.etvizTest.selected().node >= 0);
      assert.equal(await again.evaluate(() => window.etvizTest.selected().node), wq);
      assert.deepEqual(await drawnKinds(again), []);
      await again.close();
      // And back: the module boxes and their expand state return.
      await page.click('#btn-flatten');
      assert.equal(await page.evaluate(() => window.etvizTest.flat()), false);
      assert.doesNotMatch(page.url(), /flat=1/, 'the link follows');
      assert.deepEqual(await drawnKinds(page), ['module', 'repeat']);
      assert.deepEqual(await overlaps(page), [], 'unflattened');
      assert.equal((await page.evaluate(() => window.etvizTest.depth())).level, levels, 'the depth it had');
      assert.deepEqual(log.errors, []);
    } finally {
      await context.close();
    }

    // A program with delegates and two methods: delegate boxes stay when flat, flatten holds
    // across graph switches, each graph keeps its own depth.
    const pte = path.join(OUT, 'methods.pte');
    execFileSync(
      GEN,
      [
        'program',
        '--blocks',
        '4',
        '--dim',
        '16',
        '--hidden',
        '16',
        '--delegates',
        '--delegate-backend',
        'xnnpack',
        '--methods',
        '2',
        '-o',
        pte,
      ],
      { stdio: 'ignore' },
    );
    const { page: p2, log: log2, context: c2 } = await openViewer(browser, writePage([pte], 'structure_methods'));
    try {
      assert.equal(await waitForEngine(p2), true);
      const graphs = await p2.evaluate(() => window.etvizTest.graphs().length);
      assert.equal(graphs, 2);
      await p2.evaluate(() => window.etvizTest.setDepth(Infinity));
      assert.ok((await drawnKinds(p2)).includes('repeat'), 'block ×4 box');
      const flat = await p2.evaluate(() => window.etvizTest.setFlat(true));
      const kinds = await drawnKinds(p2);
      assert.ok(kinds.includes('delegate'), `delegates stay: ${kinds}`);
      assert.ok(!kinds.includes('repeat') && !kinds.includes('module'), `module boxes gone: ${kinds}`);
      assert.deepEqual(await overlaps(p2), [], 'flat with delegates');
      // The slider now steps through the delegates only: 0 closes them, 1 opens them.
      assert.equal((await p2.evaluate(() => window.etvizTest.depth())).levels, 1);
      await p2.evaluate(() => window.etvizTest.setDepth(0));
      assert.deepEqual(await overlaps(p2), [], 'flat, delegates closed');
      await p2.screenshot({ path: path.join(OUT, 'structure_flat_delegates.png') });
      const other = await p2.evaluate(() => 1 - window.etvizTest.graph());
      await p2.evaluate((g) => window.etvizTest.selectGraph(g), other);
      assert.equal(await p2.evaluate(() => window.etvizTest.flat()), true, 'flat in the other graph too');
      assert.ok(!(await drawnKinds(p2)).includes('repeat'));
      assert.deepEqual(await overlaps(p2), [], 'other graph, flat');
      await p2.evaluate((g) => window.etvizTest.selectGraph(g), 1 - other);
      assert.equal((await p2.evaluate(() => window.etvizTest.depth())).level, 0, 'the first graph kept its depth');
      await p2.evaluate(() => window.etvizTest.setFlat(false));
      assert.ok((await drawnKinds(p2)).includes('repeat'));
      assert.deepEqual(await overlaps(p2), [], 'unflattened with delegates');
      console.log(
        `flatten at ${await p2.evaluate(() => window.etvizTest.graphs()[0].nodes)} nodes: ${flat.layoutMs.toFixed(1)} ms`,
      );
      assert.deepEqual(log2.errors, []);
    } finally {
      await c2.close();
    }
  },
);

test(
  'corpus: every depth level and flatten of delegated programs draw cleanly',
  { skip: (ONLY && ONLY !== 'corpus') || !CORPUS },
  async () => {
    for (const [file, name] of [
      [
        'arm__pte-adapter-model-explorer__src__pte_adapter_model_explorer__tests__fixtures__mobilenet_v2_vgf__input.pte',
        'vgf',
      ],
      [
        'corey-cole__djl-executorch-engine__src__test__resources__models__stress__stress_mlp.d66ae531.pte',
        'stress_mlp',
      ],
      [
        'pytorch__executorch__examples__qualcomm__oss_scripts__llama__artifacts__stories260k_hybrid_llama_qnn.pte',
        'qnn',
      ],
    ]) {
      const { page, log, context } = await openViewer(
        browser,
        writePage([path.join(CORPUS, 'pte', file)], `structure_${name}`),
      );
      try {
        assert.equal(await waitForEngine(page), true);
        const { levels } = await page.evaluate(() => window.etvizTest.depth());
        assert.ok(levels >= 1, `${name}: the delegate is a level`);
        for (let level = 0; level <= levels; level++) {
          await page.evaluate((l) => window.etvizTest.setDepth(l), level);
          assert.equal((await page.evaluate(() => window.etvizTest.depth())).level, level, name);
          assert.deepEqual(await overlaps(page), [], `${name} level ${level}`);
        }
        // Flat: the delegates stay, module and repeat boxes (repeated op runs inside a payload)
        // go, and it still draws cleanly.
        await page.evaluate(() => window.etvizTest.setFlat(true));
        const kinds = await drawnKinds(page);
        assert.ok(
          kinds.includes('delegate') && !kinds.includes('module') && !kinds.includes('repeat'),
          `${name}: ${kinds}`,
        );
        assert.deepEqual(await overlaps(page), [], `${name} flat`);
        await page.screenshot({ path: path.join(OUT, `structure_${name}.png`) });
        assert.deepEqual(log.errors, []);
      } finally {
        await context.close();
      }
    }
  },
);

test('profile: a folded block tells its time and share', { skip: ONLY && ONLY !== 'profile' }, async () => {
  const pte = path.join(OUT, 'profiled.pte');
  const etdp = path.join(OUT, 'profiled.etdp');
  execFileSync(GEN, ['program', '--blocks', '4', '--dim', '16', '--hidden', '16', '-o', pte], { stdio: 'ignore' });
  execFileSync(GEN, ['etdump', '--program', pte, '--runs', '3', '-o', etdp], { stdio: 'ignore' });
  const { page, log, context } = await openViewer(browser, writePage([pte, '--etdump', etdp], 'structure_profile'));
  try {
    assert.equal(await waitForEngine(page), true);
    const r = await page.evaluate(() => {
      const t = window.etvizTest;
      const p = t.overlay('profile');
      let run = -1;
      const instances = [];
      for (let g = 0; g < t.groupCount(); g++) if (t.group(g).kind === 'repeat') run = g;
      for (let g = 0; g < t.groupCount(); g++) if (t.group(g).parent === run) instances.push(g);
      // Independently: the nodes' own figures summed over the nodes inside each instance.
      const sum = (g) => {
        let total = 0;
        for (let i = 0; i < t.graphs()[t.graph()].nodes; i++) {
          let inside = false;
          for (let h = t.node(i).group; h >= 0; h = t.group(h).parent) if (h === g) inside = true;
          const f = inside ? p.timing(i) : null;
          if (f) total += f.total;
        }
        return total;
      };
      return {
        run,
        runTiming: p.groupTiming(run),
        instances: instances.map((g) => ({ timing: p.groupTiming(g), sum: sum(g) })),
        runSum: sum(run),
      };
    });
    assert.ok(r.run >= 0);
    assert.equal(r.instances.length, 4);
    for (const x of r.instances) {
      assert.ok(x.timing.events > 0);
      assert.ok(Math.abs(x.timing.total - x.sum) <= 1e-6 * x.sum, `${x.timing.total} vs ${x.sum}`);
    }
    assert.ok(Math.abs(r.runTiming.total - r.runSum) <= 1e-6 * r.runSum);
    assert.ok(r.runTiming.share > 0 && r.runTiming.share <= 1, `share ${r.runTiming.share}`);
    // The panel of the folded box says it.
    await page.evaluate((g) => window.etvizTest.selectGroup(g), r.run);
    const total = await page.textContent('#panel .group-timing .profile-total');
    const share = await page.textContent('#panel .group-timing .profile-share');
    assert.ok(total.length > 0 && /%/.test(share), `${total} ${share}`);
    await page.screenshot({ path: path.join(OUT, 'structure_profile_panel.png') });
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }

  // Delegates whose backend logged events inside the call: the delegate box costs its
  // DELEGATE_CALL, the events inside it are not counted again.
  const dpte = path.join(OUT, 'profiled_delegates.pte');
  const detdp = path.join(OUT, 'profiled_delegates.etdp');
  execFileSync(GEN, ['program', '--blocks', '3', '--dim', '16', '--hidden', '16', '--delegates', '-o', dpte], {
    stdio: 'ignore',
  });
  execFileSync(GEN, ['etdump', '--program', dpte, '--runs', '3', '--delegate-events', '3', '-o', detdp], {
    stdio: 'ignore',
  });
  const d = await openViewer(browser, writePage([dpte, '--etdump', detdp], 'structure_profile_delegates'));
  try {
    assert.equal(await waitForEngine(d.page), true);
    const boxes = await d.page.evaluate(() => {
      const t = window.etvizTest,
        p = t.overlay('profile');
      const out = [];
      for (let g = 0; g < t.groupCount(); g++) {
        if (t.group(g).kind !== 'delegate') continue;
        let call = -1;
        for (let i = 0; i < t.graphs()[t.graph()].nodes; i++)
          if (t.node(i).group === g && t.node(i).delegate >= 0) call = i;
        out.push({ group: p.groupTiming(g), call: p.timing(call) });
      }
      return out;
    });
    assert.equal(boxes.length, 3);
    for (const b of boxes) {
      assert.equal(b.call.event, 'DELEGATE_CALL');
      assert.equal(b.group.total, b.call.total, 'the call, once');
      assert.equal(b.group.events, 1);
    }
    assert.deepEqual(d.log.errors, []);
  } finally {
    await d.context.close();
  }
});

test(
  'tensor shapes: on by default where they fit, s and the button toggle them',
  { skip: ONLY && ONLY !== 'shapes' },
  async () => {
    const html = exportedPage();
    const { page, log, context } = await openViewer(browser, html);
    try {
      assert.equal(await waitForEngine(page), true);
      assert.equal(await page.$eval('#btn-shapes', (b) => b.classList.contains('on')), true, 'on by default');
      const labels = async (zoom) => {
        await page.evaluate((z) => window.etvizTest.setZoom(z), zoom);
        await page.evaluate(() => window.etvizTest.frame());
        return (await page.evaluate(() => window.etvizTest.frameStats())).shapeLabels || 0;
      };
      assert.ok((await labels(1)) > 0, 'written at 100%');
      assert.equal(await labels(0.5), 0, 'too small to read at 50%: not written');
      await page.evaluate(() => window.etvizTest.setZoom(1));
      await page.screenshot({ path: path.join(OUT, 'structure_shapes.png') });
      await page.focus('#canvas');
      await page.keyboard.press('s');
      assert.equal(await labels(1), 0, 's turns them off');
      assert.equal(await page.$eval('#btn-shapes', (b) => b.classList.contains('on')), false);
      await page.click('#btn-shapes');
      assert.ok((await labels(1)) > 0, 'the button turns them on');
      assert.deepEqual(log.errors, []);
    } finally {
      await context.close();
    }
  },
);

// Nested graphs that link to the next several times (a Model Explorer JSON of 17 graphs, each
// with 4 nodes linking to the next: 4^16 copies inlined at every link) are drawn once each, at
// their first link; every other link is a plain box whose panel points at that drawing.
test(
  'shared: a nested graph reached from several links is drawn once',
  { skip: ONLY && ONLY !== 'shared' },
  async () => {
    const graphs = [];
    for (let g = 0; g < 17; g++) {
      const nodes = [];
      for (let k = 0; k < 4; k++)
        nodes.push({ id: String(k), label: 'op', ...(g < 16 ? { subgraphIds: [`g${g + 1}`] } : {}) });
      graphs.push({ id: `g${g}`, nodes });
    }
    const json = path.join(OUT, 'fan.json');
    fs.writeFileSync(json, JSON.stringify({ label: 'fan', graphs }));
    const html = writePage([json], 'structure_fan');
    const { page, log, context } = await openViewer(browser, html);
    try {
      await waitForEngine(page);
      const ids = await page.evaluate(() => window.etvizTest.findNodes('op'));
      assert.equal(ids.length, 17 * 4, 'each graph drawn once');
      const nodes = await page.evaluate((ids) => ids.map((i) => window.etvizTest.node(i)), ids);
      const pointing = ids.filter((_, k) => nodes[k].drawnAt >= 0);
      // Every graph but the first is drawn at one link: the other 3 links of graphs 0..15 point.
      assert.equal(pointing.length, 16 * 3);
      for (const i of pointing)
        assert.equal(nodes[ids.indexOf(nodes[ids.indexOf(i)].drawnAt)].drawnAt, -1, 'points at a drawing');
      const from = pointing[pointing.length - 1];
      const to = nodes[ids.indexOf(from)].drawnAt;
      await page.evaluate((i) => window.etvizTest.selectNode(i), from);
      const button = page.locator('#panel button.link', { hasText: 'drawn at' });
      assert.equal(await button.count(), 1);
      await button.click();
      assert.equal((await page.evaluate(() => window.etvizTest.selected())).node, to);
      assert.deepEqual(await overlaps(page), []);
      assert.deepEqual(log.errors, []);
    } finally {
      await context.close();
    }
  },
);
