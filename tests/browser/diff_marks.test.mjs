// Diff and pass pages that point at what changed (docs/viewer.md, "Passes and diffs"): every
// collapsed box holding changes carries "+added −removed ~changed", counted here independently
// from each node's status in the step and the groups' parents; j / k visit every change of the
// step exactly once, top to bottom, opening the boxes that hold it, and wrap around with a
// toast; a diff too big to read whole starts at its first change. Corpus pairs (dnf: XNNPACK
// against portable; stress_mlp: two XNNPACK versions), generated programs whose changes sit in
// folded blocks, and a generated pass trace (one pane and two).
// Env: ETVIZ_BIN, ETVIZ_GEN, ETVIZ_CORPUS_DIR, ETVIZ_ARTIFACTS.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { openViewer, waitForEngine } from './browser.mjs';
import { BIN, GEN, CORPUS, OUT, sharedBrowser, timelineEval } from './harness.mjs';

const pte = (name) => path.join(CORPUS, 'pte', name);
const SMALL = ['--dim', '16', '--hidden', '24', '--heads', '2', '--seq', '4', '--vocab', '32', '--fill-constants'];

const browser = sharedBrowser();

const T = timelineEval;

// Per group, the changed, added and removed nodes inside it at any depth, counted from each
// node's status in step k and the groups' parents (not from the badge code); and the changes.
function independentCounts(page, k) {
  return page.evaluate((k) => {
    const t = window.etvizTest;
    const tl = t.overlay('timeline');
    const n = t.graphs()[t.graph()].nodes;
    const groups = t.groupCount();
    const counts = Array.from({ length: groups }, () => ({ added: 0, removed: 0, changed: 0 }));
    const changes = [];
    for (let i = 0; i < n; i++) {
      const s = tl.status(i, k);
      if (s !== 'added' && s !== 'removed' && s !== 'changed') continue;
      changes.push(i);
      for (let g = t.node(i).group, d = 0; g >= 0 && d <= groups; g = t.group(g).parent, d++) counts[g][s]++;
    }
    return { counts, changes };
  }, k);
}

// The badge text a box with these counts must carry.
const badgeOf = (c) =>
  [
    c.added ? `+${c.added.toLocaleString('en-US')}` : '',
    c.removed ? `−${c.removed.toLocaleString('en-US')}` : '',
    c.changed ? `~${c.changed.toLocaleString('en-US')}` : '',
  ]
    .filter(Boolean)
    .join(' ');

// Badges and counts of every group, drawn badges on collapsed boxes, the panel and tooltip of one.
async function checkMarks(page, label) {
  const step = await T(page, 't.step()');
  const { counts, changes } = await independentCounts(page, step);
  const groups = counts.length;
  for (let g = 0; g < groups; g++) {
    assert.deepEqual(await T(page, `t.marks(${g})`), counts[g], `${label}: counts of group ${g}`);
    assert.equal(await T(page, `t.badge(${g})`), badgeOf(counts[g]), `${label}: badge of group ${g}`);
  }
  const collapsed = await page.evaluate(() => window.etvizTest.collapsedGroups());
  const marked = collapsed.filter((g) => badgeOf(counts[g]));
  return { counts, changes, collapsed, marked };
}

// The box standing for node i on screen now: its own, or its outermost collapsed group's.
function repBoxes(page, nodes) {
  return page.evaluate((nodes) => {
    const t = window.etvizTest;
    const boxes = t.drawnBoxes();
    const ofNode = new Map(),
      ofGroup = new Map();
    for (const b of boxes) {
      if (b.node !== undefined) ofNode.set(b.node, b);
      else if (b.collapsed) ofGroup.set(b.group, b);
    }
    return nodes.map((i) => {
      if (ofNode.has(i)) return ofNode.get(i);
      let rep = -1;
      for (let g = t.node(i).group; g >= 0; g = t.group(g).parent) if (!t.group(g).expanded) rep = g;
      return ofGroup.get(rep);
    });
  }, nodes);
}

// j through every change: each once, top to bottom by the boxes on show when the walk began,
// each made visible; then wrap-around both ways with a toast, and the status line.
async function checkWalk(page, changes, label) {
  const before = await repBoxes(page, changes);
  const boxOf = new Map(changes.map((i, k) => [i, before[k]]));
  await page.evaluate(() => /** @type {HTMLElement} */ (document.activeElement).blur());
  const visited = [];
  for (let k = 0; k < changes.length; k++) {
    await page.keyboard.press('j');
    const node = (await page.evaluate(() => window.etvizTest.selected())).node;
    visited.push(node);
    assert.ok((await page.evaluate((i) => window.etvizTest.node(i).visible, node)) === true, `${label}: ${node} shown`);
    const status = await page.$eval('#timeline-walk', (e) => e.textContent);
    assert.match(status, new RegExp(`^change ${(k + 1).toLocaleString('en-US')} of `), `${label}: status`);
  }
  assert.deepEqual(
    [...visited].sort((a, b) => a - b),
    [...changes].sort((a, b) => a - b),
    `${label}: every change once`,
  );
  for (let k = 1; k < visited.length; k++) {
    const p = boxOf.get(visited[k - 1]),
      q = boxOf.get(visited[k]);
    assert.ok(
      Math.round(p.y) <= Math.round(q.y),
      `${label}: ${visited[k - 1]} (y ${p.y}) before ${visited[k]} (y ${q.y})`,
    );
  }
  assert.equal(
    await page.$eval('#timeline-walk', (e) => e.textContent),
    `change ${changes.length.toLocaleString('en-US')} of ${changes.length.toLocaleString('en-US')} (j / k)`,
  );
  // Past the last: the first again, and a toast says so; k from the first: the last.
  await page.keyboard.press('j');
  assert.equal(
    (await page.evaluate(() => window.etvizTest.selected())).node,
    visited[0],
    `${label}: wraps to the first`,
  );
  assert.match(await page.$eval('#toast', (e) => (e.hidden ? '' : e.textContent)), /back to the first/);
  await page.keyboard.press('k');
  assert.equal((await page.evaluate(() => window.etvizTest.selected())).node, visited[visited.length - 1]);
  assert.match(await page.$eval('#toast', (e) => (e.hidden ? '' : e.textContent)), /on to the last/);
  if (visited.length > 1) {
    await page.keyboard.press('k');
    assert.equal((await page.evaluate(() => window.etvizTest.selected())).node, visited[visited.length - 2]);
  }
  // A change selected otherwise (a click, search) is where the walk stands.
  const k = Math.min(2, visited.length - 1);
  await page.evaluate((i) => window.etvizTest.selectNode(i), visited[k]);
  assert.match(await page.$eval('#timeline-walk', (e) => e.textContent), new RegExp(`^change ${k + 1} of `));
  if (visited.length > k + 1) {
    await page.keyboard.press('j');
    assert.equal((await page.evaluate(() => window.etvizTest.selected())).node, visited[k + 1]);
  }
  return visited;
}

// Collapses everything (c), checks the marks, and opens one marked box's panel and tooltip.
async function collapsedMarks(page, label) {
  await page.keyboard.press('Escape');
  await page.keyboard.press('c');
  await page.evaluate(() => window.etvizTest.frame());
  const m = await checkMarks(page, `${label} collapsed`);
  assert.ok(m.marked.length > 0, `${label}: a collapsed box holds changes`);
  assert.ok((await page.evaluate(() => window.etvizTest.frameStats().marks)) > 0, `${label}: badges drawn`);
  const g = m.marked[0];
  await page.evaluate((g) => window.etvizTest.selectGroup(g), g);
  const line = await page.$eval('#panel .timeline-marks', (e) => e.textContent);
  const c = m.counts[g];
  for (const kind of ['added', 'removed', 'changed'])
    if (c[kind]) assert.ok(line.includes(`${c[kind].toLocaleString('en-US')} ${kind}`), `${label} panel: ${line}`);
  const [x, y] = await page.evaluate((g) => window.etvizTest.groupPoint(g), g);
  await page.mouse.move(x, y);
  await page.waitForFunction(() => !document.getElementById('tooltip').hidden);
  const tip = await page.$eval('#tooltip', (e) => e.textContent);
  assert.match(tip, /changed inside: /, `${label} tooltip`);
  await page.mouse.move(5, 5);
  await page.keyboard.press('Escape');
  return m;
}

for (const [name, a, b] of [
  ['dnf', 'berndporr__dnf_executorch__dnf.47145c4a.pte', 'berndporr__dnf_executorch__dnf.d1aa57fe.pte'],
  [
    'mlp',
    'corey-cole__djl-executorch-engine__src__test__resources__models__stress__stress_mlp.d66ae531.pte',
    'corey-cole__djl-executorch-engine__src__test__resources__models__stress__stress_mlp.6d3450d6.pte',
  ],
])
  test(`corpus ${name} diff: true counts on collapsed boxes, j / k through every change`, async () => {
    const html = path.join(OUT, `${name}.html`);
    execFileSync(BIN, ['diff', pte(a), pte(b), '-o', html]);
    for (const theme of ['light', 'dark']) {
      const { page, log, context } = await openViewer(browser, html, { colorScheme: theme });
      try {
        assert.ok(await waitForEngine(page));
        assert.equal(await T(page, 't.step()'), 1);
        const open = await checkMarks(page, name);
        assert.ok(open.changes.length > 0);
        const m = await collapsedMarks(page, name);
        await page.screenshot({ path: path.join(OUT, `${name}_collapsed_${theme}.png`) });
        if (theme === 'light') {
          await checkWalk(page, m.changes, name);
          await page.screenshot({ path: path.join(OUT, `${name}_walk.png`) });
        }
        assert.deepEqual(log.errors, []);
        assert.deepEqual(log.requests, []);
      } finally {
        await context.close();
      }
    }
  });

test('generated diff: changes inside folded blocks, a folded repeat box, the first view on the first change', async () => {
  const a = path.join(OUT, 'a.pte'),
    b = path.join(OUT, 'b.pte'),
    c = path.join(OUT, 'c.pte');
  execFileSync(GEN, ['program', '--blocks', '6', ...SMALL, '-o', a], { stdio: 'ignore' });
  // B: every mul a div (removed and added in each block) and three weights edited.
  execFileSync(
    GEN,
    ['program', '--blocks', '6', ...SMALL, '--edit-weights', '3', '--swap-op', 'aten::mul.out=aten::div.out', '-o', b],
    { stdio: 'ignore' },
  );
  // C: one block more, at the bottom.
  execFileSync(GEN, ['program', '--blocks', '7', ...SMALL, '-o', c], { stdio: 'ignore' });
  const html = path.join(OUT, 'blocks.html');
  execFileSync(BIN, ['diff', a, b, '-o', html]);
  const { page, log, context } = await openViewer(browser, html);
  try {
    assert.ok(await waitForEngine(page));
    // The blocks start folded inside their open repeat box: each marked with its changes.
    const m = await checkMarks(page, 'blocks');
    assert.ok(m.marked.length >= 6, `folded boxes with changes: ${m.marked.length} of ${m.collapsed.length}`);
    await page.screenshot({ path: path.join(OUT, 'blocks_folded.png') });
    const visited = await checkWalk(page, m.changes, 'blocks');
    assert.equal(visited.length, m.changes.length);
    // Everything folded: the repeat box holds every change of its blocks.
    const all = await collapsedMarks(page, 'blocks');
    const repeat = all.collapsed.find((g) => all.counts[g].removed >= 6);
    assert.ok(repeat !== undefined, 'a folded box holding the blocks');
    await page.screenshot({ path: path.join(OUT, 'blocks_all_folded.png') });
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
  // A diff too tall to read whole whose changes are all in its last block: the start view
  // begins there, readable, instead of at the top.
  const tall = path.join(OUT, 'tall.html');
  execFileSync(BIN, ['diff', a, c, '-o', tall]);
  for (const [width, height] of [
    [1400, 900],
    [1024, 700],
  ]) {
    const { page, log, context } = await openViewer(browser, tall, { width, height });
    try {
      assert.ok(await waitForEngine(page));
      await page.evaluate(() => window.etvizTest.frame());
      const first = await T(page, 't.firstChange()');
      assert.ok(first >= 0);
      const v = await page.evaluate((i) => {
        const t = window.etvizTest;
        const c = document.getElementById('canvas').getBoundingClientRect();
        const box = t.drawnBoxes().find((b) => b.node === i);
        const [x0, y0] = t.pagePoint(box.x, box.y);
        const [x1, y1] = t.pagePoint(box.x + box.w, box.y + box.h);
        const legend = document.getElementById('timeline-legend').getBoundingClientRect();
        const bar = document.getElementById('timeline-bar').getBoundingClientRect();
        const under = (r) => x0 < r.right && x1 > r.left && y0 < r.bottom && y1 > r.top;
        const top = Math.min(...t.drawnBoxes().map((b) => b.y));
        return {
          zoom: t.zoom(),
          readable: t.readableZoom(),
          kept: t.firstViewKept(),
          onScreen: x0 >= c.left && x1 <= c.right && y0 >= c.top && y1 <= c.bottom,
          covered: under(legend) || under(bar),
          topOnScreen: t.pagePoint(0, top)[1] >= c.top,
        };
      }, first);
      assert.ok(v.kept, 'the first view');
      assert.ok(v.zoom >= v.readable - 1e-9, `readable: ${v.zoom}`);
      assert.ok(v.onScreen && !v.covered, `${width}: first change on screen, clear of the chrome ${JSON.stringify(v)}`);
      assert.equal(v.topOnScreen, false, 'not the top: the changes are in the last block');
      await page.screenshot({ path: path.join(OUT, `tall_first_view_${width}.png`) });
      assert.deepEqual(log.errors, []);
    } finally {
      await context.close();
    }
  }
});

test('pass trace: each step its own marks and walk, also with two panes', async () => {
  const json = path.join(OUT, 'trace.json');
  const html = path.join(OUT, 'trace.html');
  execFileSync(GEN, ['trace', '--blocks', '2', '--dim', '16', '--hidden', '32', '-o', json], { stdio: 'ignore' });
  execFileSync(BIN, [json, '-o', html, '-q']);
  const { page, log, context } = await openViewer(browser, html);
  try {
    assert.ok(await waitForEngine(page));
    // The first pass has nothing to compare with: no marks, no walk.
    assert.equal(await T(page, 't.step()'), 0);
    await page.keyboard.press('c');
    const none = await checkMarks(page, 'trace step 1');
    assert.equal(none.marked.length, 0);
    assert.equal(await page.$eval('#timeline-walk', (e) => e.textContent), '');
    // DecomposeLinearPass: 14 linears became addmm, 14 permutes added, all inside layers.
    await page.keyboard.press(']');
    const m = await collapsedMarks(page, 'trace step 2');
    assert.equal(m.changes.length, 28);
    await page.screenshot({ path: path.join(OUT, 'trace_step2_collapsed.png') });
    await checkWalk(page, m.changes, 'trace step 2');
    // Two panes: each pane's step its own marks; the walk follows the current step (pass 3).
    await page.keyboard.press('Escape');
    await page.keyboard.press(']');
    await page.keyboard.press('2');
    await page.keyboard.press('c');
    await page.evaluate(() => window.etvizTest.frame());
    assert.deepEqual(await T(page, 't.panes()'), [1, 2]);
    const three = await independentCounts(page, 2);
    const two = await independentCounts(page, 1);
    for (let g = 0; g < three.counts.length; g++) {
      assert.deepEqual(await T(page, `t.marks(${g}, 2)`), three.counts[g]);
      assert.deepEqual(await T(page, `t.marks(${g}, 1)`), two.counts[g]);
    }
    await page.screenshot({ path: path.join(OUT, 'trace_panes.png') });
    await checkWalk(page, three.changes, 'trace step 3');
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('the help card lists the keys', async () => {
  const html = path.join(OUT, 'dnf.html');
  if (!fs.existsSync(html))
    execFileSync(BIN, [
      'diff',
      pte('berndporr__dnf_executorch__dnf.47145c4a.pte'),
      pte('berndporr__dnf_executorch__dnf.d1aa57fe.pte'),
      '-o',
      html,
    ]);
  const { page, context } = await openViewer(browser, html);
  try {
    await page.keyboard.press('?');
    const rows = await page.$$eval('#help-keys tr', (trs) => trs.map((tr) => tr.textContent));
    assert.ok(
      rows.some((r) => r.startsWith('j k') && /next \/ previous change/.test(r)),
      rows.join('\n'),
    );
  } finally {
    await context.close();
  }
});
