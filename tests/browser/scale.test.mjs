// A large page opens (the hostile-input issue, item 2): a ~150k-node generated program's page
// carries its columns in several base64 parts (src/render/html/page_data.h) that the viewer
// decodes incrementally, and what it decodes equals the plain JSON encoding of the same page
// (--no-compress) number for number and string for string. The 1M-node figures are in
// bench/viewer/scale.mjs and docs/limits.md.
// Env: ETVIZ_BIN, ETVIZ_GEN, ETVIZ_ARTIFACTS.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { openViewer } from './browser.mjs';
import { BIN, GEN, OUT, sharedBrowser } from './harness.mjs';

const browser = sharedBrowser();

// Everything the rest of the viewer reads of the model, for a sample of nodes, values and edges.
const snapshot = () => {
  const t = window.etvizTest;
  const g = t.graphs()[t.graph()];
  const pick = (count, n) => Array.from({ length: n }, (_, k) => Math.floor((k * count) / n));
  return {
    graphs: t.graphs(),
    nodes: pick(g.nodes, 400).map((i) => [t.node(i), t.producers(i), t.consumers(i)]),
    groups: pick(g.groups, 100).map((k) => t.group(k)),
    // Every number of the embedded layout, digested in the page (copying ~1M numbers out
    // twice would dominate the test): length and an FNV-1a hash of the float64 bytes.
    layout: Object.entries(t.embeddedLayout()).map(([k, a]) => {
      const bytes = new Uint8Array(Float64Array.from(a).buffer);
      let h = 0x811c9dc5;
      for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 16777619) >>> 0;
      return [k, a.length, h];
    }),
    linear: t.findNodes('aten::linear.out').length,
  };
};

test('a 150k-node page: several parts, decoded equal to its JSON encoding', async () => {
  const pte = path.join(OUT, 'scale.pte');
  execFileSync(GEN, ['program', '--blocks', '3600', '--dim', '8', '--hidden', '8', '--delegates', '-o', pte]);
  const columns = path.join(OUT, 'scale.html');
  const json = path.join(OUT, 'scale-json.html');
  execFileSync(BIN, [pte, '-o', columns, '-q']);
  execFileSync(BIN, [pte, '-o', json, '-q', '--no-compress']);

  const html = fs.readFileSync(columns, 'utf8');
  const parts = [
    ...html.matchAll(/<script type="application\/octet-stream" data-part-of="etviz-data">([^<]*)<\/script>/g),
  ];
  assert.ok(parts.length >= 2, `columns come in several parts (${parts.length})`);
  for (const p of parts) assert.ok(p[1].length <= 16 * 1024 * 1024, 'no part over 16 MiB of text');
  assert.match(html, /data-encoding="columns"/);

  const open = async (file) => {
    const t0 = Date.now();
    const { page, log, context } = await openViewer(browser, file);
    const ms = Date.now() - t0;
    const snap = await page.evaluate(snapshot);
    return { page, log, context, ms, snap };
  };
  const a = await open(columns);
  const b = await open(json);
  try {
    assert.deepEqual(a.log.errors, []);
    assert.deepEqual(b.log.errors, []);
    assert.ok(a.snap.graphs[0].irNodes > 120000, `irNodes ${a.snap.graphs[0].irNodes}`);
    assert.ok(a.snap.linear > 0);
    assert.deepEqual(a.snap.graphs, b.snap.graphs, 'same graphs');
    assert.deepEqual(a.snap.nodes, b.snap.nodes, 'same nodes, names, ops, edges');
    assert.deepEqual(a.snap.groups, b.snap.groups, 'same groups');
    assert.deepEqual(a.snap.layout, b.snap.layout, 'same embedded layout, number for number');
    // The parts' text is released once decoded: the page keeps no second copy of the data.
    const left = await a.page.evaluate(() =>
      Array.from(document.querySelectorAll('script[data-part-of]'), (s) => s.textContent.length),
    );
    assert.ok(
      left.every((n) => n === 0),
      'parts emptied after decoding',
    );
    await a.page.screenshot({ path: path.join(OUT, 'scale.png') });
    console.log(`# opened in ${a.ms} ms (columns, ${parts.length} parts) and ${b.ms} ms (JSON)`);
  } finally {
    await a.context.close();
    await b.context.close();
  }
});
