// The page's "SVG" and "PNG" buttons and links to a node: the downloads carry a valid SVG
// (parsed by the browser's XML parser; the same boxes, labels and theme as the canvas) and a
// PNG (decoded by the browser), with no network request; a node's link reopens the page with
// that node selected. Env: ETVIZ_BIN, ETVIZ_CORPUS_DIR, ETVIZ_ARTIFACTS.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { openViewer, waitForEngine } from './browser.mjs';
import { BIN, CORPUS, OUT, sharedBrowser } from './harness.mjs';

const browser = sharedBrowser();

const SIMPLE = 'pte/corey-cole__simple-torch-model__model.pte';

async function saved(page, button, tag) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
  const file = path.join(OUT, `${tag}-${download.suggestedFilename()}`);
  await download.saveAs(file);
  return { name: download.suggestedFilename(), file, bytes: fs.readFileSync(file) };
}

test('Save SVG and Save PNG: the graph as open now, valid files, no request', async () => {
  const html = path.join(OUT, 'simple.html');
  execFileSync(BIN, [path.join(CORPUS, SIMPLE), '-o', html, '-q']);
  for (const scheme of ['light', 'dark']) {
    const { page, log, context } = await openViewer(browser, html, { colorScheme: scheme });
    try {
      assert.ok(await waitForEngine(page));
      const T = (expr) => page.evaluate(`window.etvizTest.${expr}`);
      const visible = await T('visibleBoxes()');
      const svg = await saved(page, '#btn-save-svg', `open-${scheme}`);
      assert.match(svg.name, /^corey-cole__simple-torch-model__model-forward\.svg$/);
      // The browser's XML parser reads it; one labelled box per visible node.
      const facts = await page.evaluate((text) => {
        const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
        const error = doc.querySelector('parsererror');
        const texts = Array.from(doc.querySelectorAll('text'), (t) => t.textContent);
        return {
          error: error ? error.textContent : null,
          root: doc.documentElement.nodeName,
          texts,
          width: Number(doc.documentElement.getAttribute('width')),
        };
      }, svg.bytes.toString('utf8'));
      assert.equal(facts.error, null);
      assert.equal(facts.root, 'svg');
      const labels = [];
      for (let i = 0; i < (await T('graphs()'))[await T('graph()')].nodes; i++)
        labels.push((await T(`node(${i})`)).label);
      for (const op of ['XNNConv2d', 'XNNFullyConnected', 'alias'])
        assert.ok(facts.texts.includes(op), `${op} in ${facts.texts}`);
      assert.ok(facts.texts.length >= visible, `${facts.texts.length} texts for ${visible} boxes`);
      // Collapse everything: the next SVG shows the two payload boxes and not their insides.
      await page.click('#btn-collapse');
      await T('frame()');
      const collapsed = await saved(page, '#btn-save-svg', `collapsed-${scheme}`);
      const text2 = collapsed.bytes.toString('utf8');
      assert.ok(!text2.includes('>XNNConv2d<'));
      assert.equal((text2.match(/>▸ XnnpackBackend</g) || []).length, 2, 'two collapsed payloads');
      // Rendered by the browser: the picture is not blank.
      await page.click('#btn-expand');
      await T('frame()');
      const png = await saved(page, '#btn-save-png', `open-${scheme}`);
      assert.deepEqual([...png.bytes.subarray(1, 4)], [0x50, 0x4e, 0x47]);
      const dims = { w: png.bytes.readUInt32BE(16), h: png.bytes.readUInt32BE(20) };
      assert.ok(dims.w > 400 && dims.h > 400, JSON.stringify(dims));
      const pixels = await page.evaluate(async (b64) => {
        const img = new Image();
        img.src = `data:image/png;base64,${b64}`;
        await img.decode();
        const c = document.createElement('canvas');
        c.width = img.width;
        c.height = img.height;
        const ctx = c.getContext('2d');
        ctx.drawImage(img, 0, 0);
        const d = ctx.getImageData(0, 0, c.width, c.height).data;
        const colours = new Set();
        for (let k = 0; k < d.length; k += 4 * 7) colours.add((d[k] << 16) | (d[k + 1] << 8) | d[k + 2]);
        return { w: img.width, h: img.height, colours: colours.size };
      }, png.bytes.toString('base64'));
      assert.deepEqual([pixels.w, pixels.h], [dims.w, dims.h]);
      assert.ok(pixels.colours > 50, `${pixels.colours} colours`);
      // Look at it: the SVG as the browser draws it.
      const holder = path.join(OUT, `saved-svg-${scheme}.html`);
      fs.writeFileSync(
        holder,
        `<!doctype html><body style="margin:0"><img id="pic" src="${path.basename(svg.file)}"></body>`,
      );
      const view = await context.newPage();
      await view.goto('file://' + holder);
      const natural = await view.evaluate(async () => {
        const img = document.getElementById('pic');
        await img.decode();
        return img.naturalWidth;
      });
      assert.equal(natural, facts.width, 'the browser draws the SVG as an image at its width');
      await view.screenshot({ path: path.join(OUT, `saved-svg-${scheme}.png`), fullPage: true });
      await view.close();
      assert.deepEqual(log.requests, []);
      assert.deepEqual(log.errors, []);
    } finally {
      await context.close();
    }
  }
});

test('a link to a node reopens the page with that node selected', async () => {
  const html = path.join(OUT, 'simple.html');
  if (!fs.existsSync(html)) execFileSync(BIN, [path.join(CORPUS, SIMPLE), '-o', html, '-q']);
  const { page, log, context } = await openViewer(browser, html);
  try {
    assert.ok(await waitForEngine(page));
    const conv = (await page.evaluate(() => window.etvizTest.findNodes('XNNConv2d')))[0];
    assert.ok(conv >= 0);
    await page.evaluate((i) => window.etvizTest.selectNode(i), conv);
    const name = (await page.evaluate((i) => window.etvizTest.node(i), conv)).name;
    const url = page.url();
    assert.ok(url.includes('#graph=forward&node='), url);
    assert.ok(await page.isVisible('#panel .link-btn'));
    // A new page opened at the link selects the same node.
    const second = await context.newPage();
    await second.goto(url);
    await second.waitForSelector('body[data-ready="true"]');
    await second.waitForFunction(() => window.etvizTest && window.etvizTest.selected().node >= 0);
    const sel = await second.evaluate(() => window.etvizTest.selected().node);
    assert.equal((await second.evaluate((i) => window.etvizTest.node(i), sel)).name, name);
    // A link to a node the page does not hold says so.
    const third = await context.newPage();
    await third.goto(url.split('#')[0] + '#graph=forward&node=nope');
    await third.waitForSelector('body[data-ready="true"]');
    await third.waitForFunction(() => !document.getElementById('toast').hidden);
    assert.match(await third.textContent('#toast'), /node 'nope'/);
    assert.deepEqual(log.requests, []);
  } finally {
    await context.close();
  }
});
