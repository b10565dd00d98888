// The profile overlay (`etviz PROGRAM --etdump RUN.etdp`) in headless Chromium: the corpus
// bundled program with the ETDump recorded from it, and a generated program with a generated
// ETDump holding delegate events.
// Env: ETVIZ_BIN, ETVIZ_GEN, ETVIZ_CORPUS_DIR, ETVIZ_ARTIFACTS, ETVIZ_PROFILE_CASE (corpus|generated).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { openViewer } from './browser.mjs';
import { GEN, CORPUS, OUT, sharedBrowser, writePage } from './harness.mjs';

const ONLY = process.env.ETVIZ_PROFILE_CASE;

const BP = () =>
  path.join(CORPUS, 'bpte', 'pytorch__executorch__docs__source__tutorials_source__bundled_program.a59a06e0.bp');
const ETDP = () => path.join(CORPUS, 'etdp', 'pytorch__executorch__docs__source__tutorials_source__etdump.etdp');

const browser = sharedBrowser();

// What the page shows for node i: op, instruction, and the timing section of the panel.
async function nodeFacts(page, i) {
  return page.evaluate((n) => window.etvizTest.node(n), i);
}

async function legendState(page) {
  return page.evaluate(() => {
    const l = document.getElementById('heat-legend');
    return {
      visible: !!l && l.offsetWidth > 0,
      mode: l && l.dataset.mode,
      title: l && l.querySelector('.heat-title').textContent,
      max: l && l.querySelector('.heat-max') ? l.querySelector('.heat-max').textContent : '',
      categoryLegendVisible: document.getElementById('legend').offsetWidth > 0,
    };
  });
}

test(
  'corpus: heat legend, hottest convolution, table jumps, modes',
  { skip: (ONLY && ONLY !== 'corpus') || !CORPUS },
  async () => {
    const html = writePage([BP(), '--etdump', ETDP()], 'profile_corpus');
    const { context, page, log } = await openViewer(browser, html);
    try {
      // The legend replaces the category legend and names the unit (raw ticks: no --source-unit).
      let legend = await legendState(page);
      assert.ok(legend.visible, 'heat legend shown');
      assert.equal(legend.categoryLegendVisible, false, 'category legend hidden while heat is on');
      assert.equal(legend.mode, 'avg');
      assert.match(legend.title, /avg.*ticks/);
      assert.match(legend.max, /ticks$/);

      // The hottest node is the second convolution (instruction 3), and it is drawn hottest.
      const hot = await page.evaluate(() => window.etvizTest.overlay('profile').hottest());
      assert.ok(hot >= 0);
      const facts = await nodeFacts(page, hot);
      assert.equal(facts.instr, 3);
      assert.match(facts.op, /convolution/);
      const bucket = await page.evaluate((n) => {
        const t = window.etvizTest;
        const p = t.overlay('profile');
        const total = t.graphs()[t.graph()].nodes;
        const all = [];
        for (let i = 0; i < total; i++) all.push(p.bucket(i));
        return { b: p.bucket(n), max: Math.max(...all.filter((x) => x < p.steps)) };
      }, hot);
      assert.equal(bucket.b, 7, 'top heat step');
      assert.equal(bucket.max, 7);

      // Table: sorted by total, top row is instruction 3's OPERATOR_CALL at 54.4%; clicking it
      // selects the convolution and the panel shows its timing.
      const rows = await page.$$eval('#profile-drawer tbody tr', (trs) =>
        trs.map((tr) => Array.from(tr.cells, (c) => c.textContent)),
      );
      assert.equal(rows.length, 28, 'every Execute event row');
      assert.equal(rows[0][0], 'OPERATOR_CALL');
      assert.equal(rows[0][1], '3');
      assert.equal(rows[0][7], '54.4%');
      await page.click('#profile-drawer tbody tr:first-child');
      const selected = await page.evaluate(() => window.etvizTest.selected().node);
      assert.equal(selected, hot, 'clicking the top row selects the convolution');
      const panel = await page.$eval('#panel', (p) => ({
        title: p.querySelector('.panel-title').textContent,
        timing: p.querySelector('.profile-timing') && p.querySelector('.profile-timing').textContent,
        share: p.querySelector('.profile-share') && p.querySelector('.profile-share').textContent,
        avg: p.querySelector('.profile-avg') && p.querySelector('.profile-avg').textContent,
      }));
      assert.ok(panel.timing, 'panel has a timing section');
      assert.equal(panel.share, '54.4%');
      assert.match(panel.avg, /^[\d,]+ ticks$/);
      assert.match(panel.timing, /OPERATOR_CALL/);
      await page.screenshot({ path: path.join(OUT, 'profile_corpus_light.png') });

      // native_call_<op> is logged inside OPERATOR_CALL: it is listed under it, without a share
      // of its own, so the shares add up to at most 100% (not ~200%).
      assert.match(rows[1][0], /^└ native_call_convolution\.out$/);
      assert.equal(rows[1][7], '');
      const shares = rows.map((r) => parseFloat(r[7]) || 0).reduce((a, b) => a + b, 0);
      assert.ok(shares <= 100.05 && shares > 99, `shares add up to ${shares}%`);
      // Sorting by event name keeps each nested row under its own row.
      await page.click('#profile-drawer th[data-key="name"]');
      const sorted = await page.$$eval('#profile-drawer tbody tr', (trs) => trs.map((tr) => tr.cells[0].textContent));
      assert.equal(sorted[0], 'OPERATOR_CALL');
      assert.match(sorted[1], /^└ native_call_/);

      // Modes: share shows percentages, p90 names itself, off brings the categories back.
      await page.click('#heat-legend button[data-mode="share"]');
      legend = await legendState(page);
      assert.equal(legend.mode, 'share');
      assert.match(legend.title, /share/);
      assert.equal(legend.max, '54.4%');
      await page.click('#heat-legend button[data-mode="p90"]');
      legend = await legendState(page);
      assert.match(legend.title, /p90/);
      assert.match(legend.max, /ticks$/);
      await page.click('#heat-legend button[data-mode="off"]');
      legend = await legendState(page);
      assert.equal(legend.categoryLegendVisible, true, 'off restores the category legend');
      assert.equal(await page.evaluate(() => window.etvizTest.nodeStylesActive()), false);
      await page.click('#heat-legend button[data-mode="avg"]');

      // Log scale: each step the same factor, so the small ops leave the first step; the
      // legend's ticks run from the smallest to the largest figure.
      const linearSteps = await page.evaluate(() => {
        const t = window.etvizTest,
          p = t.overlay('profile');
        const n = t.graphs()[t.graph()].nodes;
        const steps = new Set();
        for (let i = 0; i < n; i++) if (p.bucket(i) < p.steps) steps.add(p.bucket(i));
        return steps.size;
      });
      await page.click('#heat-legend button.heat-log');
      const logState = await page.evaluate(() => {
        const t = window.etvizTest,
          p = t.overlay('profile');
        const n = t.graphs()[t.graph()].nodes;
        const steps = new Set();
        for (let i = 0; i < n; i++) if (p.bucket(i) < p.steps) steps.add(p.bucket(i));
        return {
          scale: p.scale(),
          steps: steps.size,
          ticks: Array.from(document.querySelectorAll('#heat-legend .heat-ticks span'), (s) => s.textContent),
        };
      });
      assert.equal(logState.scale, 'log');
      assert.ok(
        logState.steps > linearSteps,
        `log scale spreads the nodes over more steps (${linearSteps} -> ${logState.steps})`,
      );
      assert.notEqual(logState.ticks[0], '0 ticks');
      await page.click('#heat-legend button.heat-log');
      // Dark theme: heat colours follow.
      await page.keyboard.press('t');
      await page.waitForTimeout(100);
      const dark = await page.evaluate(() => window.etvizTest.overlay('profile').styles()[7].fill);
      assert.equal(dark, '#c94132');
      await page.screenshot({ path: path.join(OUT, 'profile_corpus_dark.png') });

      assert.deepEqual(log.errors, []);
      assert.deepEqual(log.requests, []);
    } finally {
      await context.close();
    }
  },
);

test('corpus: source unit converts times', { skip: (ONLY && ONLY !== 'corpus') || !CORPUS }, async () => {
  const html = writePage([BP(), '--etdump', ETDP(), '--source-unit', 'ns'], 'profile_corpus_us');
  const { context, page, log } = await openViewer(browser, html);
  try {
    const legend = await legendState(page);
    assert.match(legend.title, /µs/);
    const th = await page.$eval('#profile-drawer th[data-key="avg"]', (e) => e.textContent);
    assert.equal(th, 'avg (µs)');
    assert.deepEqual(log.errors, []);
    assert.deepEqual(log.requests, []);
  } finally {
    await context.close();
  }
});

test('generated: delegate time on the delegate node', { skip: (ONLY && ONLY !== 'generated') || !GEN }, async () => {
  const pte = path.join(OUT, 'profile_gen.pte');
  const etdp = path.join(OUT, 'profile_gen.etdp');
  execFileSync(GEN, ['program', '--blocks', '3', '--delegates', '-o', pte], { stdio: 'ignore' });
  execFileSync(GEN, ['etdump', '--program', pte, '--runs', '4', '--delegate-events', '3', '-o', etdp], {
    stdio: 'ignore',
  });
  const html = writePage([pte, '--etdump', etdp], 'profile_gen');
  const { context, page, log } = await openViewer(browser, html);
  try {
    const delegates = await page.evaluate(() => {
      const t = window.etvizTest;
      const p = t.overlay('profile');
      const out = [];
      const total = t.graphs()[t.graph()].nodes;
      for (let i = 0; i < total; i++) if (t.node(i).delegate >= 0) out.push({ i, t: p.timing(i) });
      return out;
    });
    assert.equal(delegates.length, 3, 'three delegate calls');
    for (const d of delegates) {
      assert.ok(d.t, 'delegate node has timing');
      assert.equal(d.t.event, 'DELEGATE_CALL');
      assert.equal(d.t.count, 4);
      assert.ok(d.t.share > 0);
    }
    // The panel of a delegate node shows its time and the backend's events inside it.
    await page.evaluate((n) => window.etvizTest.selectNode(n), delegates[0].i);
    const timing = await page.$eval('#panel .profile-timing', (s) => s.textContent);
    assert.match(timing, /DELEGATE_CALL/);
    assert.match(timing, /Events inside the delegate \(3\)/);
    // Rows of events inside the (opaque) payload are listed but join no node.
    const inner = await page.$$eval('#profile-drawer tbody tr', (trs) =>
      trs.filter((tr) => /\[\d+\]$/.test(tr.cells[0].textContent)).map((tr) => tr.className),
    );
    assert.equal(inner.length, 9);
    assert.ok(inner.every((c) => !c.includes('joined')));
    await page.screenshot({ path: path.join(OUT, 'profile_generated.png') });
    assert.deepEqual(log.errors, []);
    assert.deepEqual(log.requests, []);
  } finally {
    await context.close();
  }
});
