// The node data overlay (`etviz FILE --node-data values.json`) in headless Chromium: nodes in
// the gradient's colours with a legend, the value in the panel, a sortable table that selects
// nodes, on/off; and the page and `etviz export` draw the same colours, for node data and for
// the profile's heat (one scale, analysis/heat_scale.h). Env: ETVIZ_BIN, ETVIZ_CORPUS_DIR,
// ETVIZ_ARTIFACTS.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { openViewer } from './browser.mjs';
import { BIN, CORPUS, OUT, sharedBrowser } from './harness.mjs';

const SIMPLE = () => path.join(CORPUS, 'pte', 'corey-cole__simple-torch-model__model.pte');
const BP = () =>
  path.join(CORPUS, 'bpte', 'pytorch__executorch__docs__source__tutorials_source__bundled_program.a59a06e0.bp');
const ETDP = () => path.join(CORPUS, 'etdp', 'pytorch__executorch__docs__source__tutorials_source__etdump.etdp');
const LOW = '#2166ac';
const HIGH = '#b2182b';

const browser = sharedBrowser();

function run(args) {
  execFileSync(BIN, args, { stdio: ['ignore', 'ignore', 'pipe'] });
}

// Node name -> fill of its box in an SVG written by `etviz export` (the browser's XML parser).
async function svgFills(page, file) {
  return page.evaluate(
    (text) => {
      const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
      const out = {};
      for (const g of doc.querySelectorAll('g')) {
        if (!(g.getAttribute('class') || '').startsWith('node')) continue;
        out[g.querySelector('title').textContent.split(' (')[0]] = g.querySelector('rect').getAttribute('fill');
      }
      return out;
    },
    fs.readFileSync(file, 'utf8'),
  );
}

// Node name -> the fill the page gives it now (overlay styles, by bucket).
async function pageFills(page, id) {
  return page.evaluate((id) => {
    const t = window.etvizTest,
      o = t.overlay(id);
    const styles = o.styles();
    const out = {};
    for (let i = 0; i < t.graphs()[t.graph()].nodes; i++) out[t.node(i).name] = styles[o.bucket(i)].fill;
    return out;
  }, id);
}

// The canvas pixel on node i's box, left of its label (CSS colour "#rrggbb").
async function pixelOn(page, i) {
  return page.evaluate(async (i) => {
    const t = window.etvizTest;
    t.selectNode(-1);
    const [cx, cy] = t.nodePoint(i);
    await t.frame();
    const L = t.layout();
    // The graph's canvas: the largest in the stage (the minimap has one too).
    const canvas = [...document.querySelectorAll('#stage canvas')].sort(
      (a, b) => b.width * b.height - a.width * a.height,
    )[0];
    const r = canvas.getBoundingClientRect();
    const dpr = canvas.width / r.width;
    const x = (cx - r.left - (L.nw[i] / 2 - 9) * t.zoom()) * dpr,
      y = (cy - r.top - 6 * t.zoom()) * dpr;
    const d = canvas.getContext('2d').getImageData(Math.round(x), Math.round(y), 1, 1).data;
    return '#' + [d[0], d[1], d[2]].map((v) => v.toString(16).padStart(2, '0')).join('');
  }, i);
}

test('node data: gradient colours, legend, panel, sortable table, on/off, same as export', async () => {
  // The node names, from a page without node data.
  const plain = path.join(OUT, 'nd_plain.html');
  run([SIMPLE(), '-o', plain, '-q']);
  let names;
  {
    const { page, context } = await openViewer(browser, plain);
    names = await page.evaluate(() => {
      const t = window.etvizTest;
      const out = [];
      for (let i = 0; i < t.graphs()[t.graph()].nodes; i++) {
        const n = t.node(i);
        if (n.kind === 'kernel' || n.kind === 'delegate') out.push(n.name);
      }
      return out;
    });
    await context.close();
  }
  assert.ok(names.length >= 3, `ops: ${names}`);
  const results = {};
  names.forEach((n, k) => {
    results[n] = { value: k * 1.5 };
  });
  results.no_such_node = { value: 99 };
  const nd = path.join(OUT, 'nd_values.json');
  fs.writeFileSync(
    nd,
    JSON.stringify({
      results,
      gradient: [
        { stop: 0, bgColor: LOW },
        { stop: 1, bgColor: HIGH },
      ],
    }),
  );
  const html = path.join(OUT, 'nd.html');
  run([SIMPLE(), '--node-data', nd, '-o', html, '-q']);
  const svg = path.join(OUT, 'nd.svg');
  run(['export', SIMPLE(), '--node-data', nd, '-o', svg, '-q']);

  for (const scheme of ['light', 'dark']) {
    const { page, log, context } = await openViewer(browser, html, { colorScheme: scheme });
    try {
      const t = (expr) => page.evaluate(`window.etvizTest.${expr}`);
      assert.equal(await t('nodeStylesActive()'), true);
      const legend = await page.$eval('#node-data-legend', (el) => ({
        text: el.textContent,
        scale: el.dataset.scale,
        visible: el.getBoundingClientRect().width > 0,
      }));
      assert.ok(legend.visible);
      assert.equal(legend.scale, 'gradient');
      assert.match(legend.text, /Node data · nd_values\.json/);
      assert.match(legend.text, /1 key name no node/, 'the unmatched key is reported');
      assert.match(legend.text, new RegExp(`${names.length} with values`));
      assert.equal(
        await page.$eval('#legend', (el) => el.classList.contains('heat-hidden')),
        true,
        'category legend hidden',
      );

      // The smallest value takes stop 0's colour, the largest stop 1's; on the canvas too.
      const ids = await page.evaluate((names) => {
        const t = window.etvizTest;
        const byName = {};
        for (let i = 0; i < t.graphs()[t.graph()].nodes; i++) byName[t.node(i).name] = i;
        return names.map((n) => byName[n]);
      }, names);
      const lo = ids[0],
        hi = ids[ids.length - 1];
      const o = await page.evaluate(
        ([lo, hi]) => {
          const p = window.etvizTest.overlay('nodedata');
          const s = p.styles();
          return {
            lo: s[p.bucket(lo)].fill,
            hi: s[p.bucket(hi)].fill,
            loValue: p.datum(lo).value,
            hiValue: p.datum(hi).value,
          };
        },
        [lo, hi],
      );
      assert.equal(o.lo, LOW);
      assert.equal(o.hi, HIGH);
      assert.equal(o.loValue, 0);
      assert.equal(o.hiValue, (names.length - 1) * 1.5);
      if ((await t(`node(${hi})`)).visible) assert.equal(await pixelOn(page, hi), HIGH, 'drawn in its colour');

      // The page and `etviz export --node-data` give every node the same fill.
      const fromPage = await pageFills(page, 'nodedata');
      const fromSvg = await svgFills(page, svg);
      let compared = 0;
      for (const n of names)
        if (fromSvg[n]) {
          assert.equal(fromSvg[n], fromPage[n], n);
          compared++;
        }
      assert.ok(compared >= 2, `${compared} nodes compared`);

      // The panel shows the value; the table sorts by it and selects nodes.
      await t(`selectNode(${hi})`);
      const panel = await page.$eval('#panel', (p) => (p.querySelector('.node-data-value') || {}).textContent || '');
      assert.match(panel, new RegExp(`value.*${String((names.length - 1) * 1.5).replace('.', '\\.')}`));
      assert.match(panel, /by the file's gradient/);
      await page.keyboard.press('Escape');
      await page.keyboard.press('n'); // opens the table, sorted by value, largest first
      let rows = await t("overlay('nodedata').tableRows()");
      const sortedValues = rows.map((r) => r.value);
      assert.equal(rows.length, names.length);
      assert.deepEqual(
        sortedValues,
        [...sortedValues].sort((a, b) => b - a),
        'sorted by value, largest first',
      );
      await page.click('#node-data-drawer tbody tr:first-child');
      assert.equal((await t('selected()')).node, hi, 'the top row selects the largest value');
      await t("overlay('nodedata').sortBy('value')");
      rows = await t("overlay('nodedata').tableRows()");
      assert.equal(rows[0].node, lo, 'ascending after a second click');
      await page.screenshot({ path: path.join(OUT, `node_data_${scheme}.png`) });

      // Off: the category colours and legend come back.
      await page.click('#node-data-legend .nd-toggle');
      assert.equal(await t('nodeStylesActive()'), false);
      assert.equal(await page.$eval('#legend', (el) => el.classList.contains('heat-hidden')), false);
      assert.deepEqual(log.errors, []);
      assert.deepEqual(log.requests, []);
    } finally {
      await context.close();
    }
  }
});

test('profile heat: the page and `etviz export --etdump` colour every node alike', { skip: !CORPUS }, async () => {
  const html = path.join(OUT, 'nd_heat.html');
  run([BP(), '--etdump', ETDP(), '-o', html, '-q']);
  for (const [scheme, theme] of [
    ['light', 'light'],
    ['dark', 'dark'],
  ]) {
    for (const scale of ['linear', 'log']) {
      const svg = path.join(OUT, `nd_heat_${theme}_${scale}.svg`);
      run(['export', BP(), '--etdump', ETDP(), '--theme', theme, '--heat-scale', scale, '-o', svg, '-q']);
      const { page, context } = await openViewer(browser, html, { colorScheme: scheme });
      try {
        await page.evaluate((scale) => window.etvizTest.overlay('profile').setScale(scale), scale);
        const fromPage = await pageFills(page, 'profile');
        const fromSvg = await svgFills(page, svg);
        let heated = 0;
        for (const [n, fill] of Object.entries(fromSvg)) {
          if (!(n in fromPage)) continue;
          assert.equal(fill, fromPage[n], `${theme} ${scale}: ${n}`);
          heated++;
        }
        assert.ok(heated >= 5, `${heated} nodes compared`);
      } finally {
        await context.close();
      }
    }
  }
});
