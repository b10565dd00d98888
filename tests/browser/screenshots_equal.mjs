// Do two etviz builds show the same pages? Writes a fixed set of pages with each binary (a
// corpus program, delegated programs, a diff, a pass trace, a profile, the memory timeline and
// size treemap drawers, and interactions: a selection, a search, expand all, flatten, the dark
// theme, the help card), screenshots each at a fixed viewport in headless Chromium, and
// compares the screenshots byte for byte, and pixel for pixel where the bytes differ.
// For changes that must not change what a page shows (a refactoring of web/src): build the
// commit before and after, then
//   node tests/browser/screenshots_equal.mjs --before OLD/etviz --after NEW/etviz \
//     --gen build/tools/gen/etviz-gen [--corpus ../shared/corpus] [--out DIR] [--app] [--pages a,b]
// --app adds an app page (`etviz app`: both builds need the app's WebAssembly module); --pages
// takes only the pages named (portable, xnnpack, qnn, generated, diff, trace, memory, profile, app).
// Prints one line per screenshot and ends with "N passed, N failed"; exits 1 when any differs.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { launch, openViewer, waitForEngine } from './browser.mjs';

const { values: opts } = parseArgs({
  options: {
    before: { type: 'string' },
    after: { type: 'string' },
    gen: { type: 'string' },
    corpus: { type: 'string', default: process.env.ETVIZ_CORPUS_DIR || path.resolve('../shared/corpus') },
    out: { type: 'string', default: path.resolve('screenshots-equal') },
    app: { type: 'boolean', default: false },
    pages: { type: 'string' },
  },
});
if (!opts.before || !opts.after || !opts.gen) {
  console.error(
    'usage: screenshots_equal.mjs --before ETVIZ --after ETVIZ --gen ETVIZ_GEN [--corpus DIR] [--out DIR] [--app]',
  );
  process.exit(2);
}
const inputs = path.join(opts.out, 'inputs');
fs.mkdirSync(inputs, { recursive: true });
const corpus = (...p) => path.join(opts.corpus, ...p);
const gen = (name, args) => {
  const out = path.join(inputs, name);
  if (!fs.existsSync(out)) execFileSync(opts.gen, [...args, '-o', out], { stdio: 'ignore' });
  return out;
};

// Inputs are made once and shared by both builds; each page is the etviz command line after
// the binary, with OUT standing for the page's path.
const generated = gen('generated.pte', ['program', '--blocks', '6', '--delegates']);
const trace = gen('trace.json', ['trace', '--blocks', '2', '--dim', '16', '--hidden', '32']);
const profiled = gen('profiled.pte', ['program', '--blocks', '3', '--delegates']);
const etdump = gen('profiled.etdp', ['etdump', '--program', profiled, '--runs', '4', '--delegate-events', '3']);
const PAGES = {
  portable: [
    corpus(
      'pte',
      'pytorch__executorch__extension__android__executorch_android__src__androidTest__resources__xor.9c80c531.pte',
    ),
    '-o',
    'OUT',
  ],
  xnnpack: [
    corpus('pte', 'corey-cole__djl-executorch-engine__src__test__resources__models__stress__stress_mlp.d66ae531.pte'),
    '-o',
    'OUT',
  ],
  qnn: [
    corpus(
      'pte',
      'pytorch__executorch__examples__qualcomm__oss_scripts__llama__artifacts__stories260k_hybrid_llama_qnn.pte',
    ),
    '-o',
    'OUT',
  ],
  generated: [generated, '-o', 'OUT'],
  diff: [
    'diff',
    corpus('pte', 'berndporr__dnf_executorch__dnf.47145c4a.pte'),
    corpus('pte', 'berndporr__dnf_executorch__dnf.d1aa57fe.pte'),
    '-o',
    'OUT',
  ],
  trace: [trace, '-o', 'OUT'],
  memory: [corpus('pte', 'berndporr__dnf_executorch__test__dnf_executorch5.8b726884.pte'), '-o', 'OUT'],
  profile: [profiled, '--etdump', etdump, '-o', 'OUT'],
};
if (opts.app) PAGES.app = ['app', '-o', 'OUT'];
if (opts.pages) {
  const keep = new Set(opts.pages.split(','));
  for (const name of Object.keys(PAGES)) if (!keep.has(name)) delete PAGES[name];
}

// What is shown of each page: [shot name, what to do first]. Keys go to the page as typed.
const key = (k) => async (page) => page.keyboard.press(k);
const SHOTS = {
  portable: [
    ['open'],
    ['node', (p) => p.evaluate(() => window.etvizTest.selectNode(window.etvizTest.findNodes('aten::addmm.out')[0]))],
    [
      'search',
      async (p) => {
        await p.fill('#search', 'addmm');
        await p.press('#search', 'Enter');
      },
    ],
    // Out of the search box first: keys typed there are the query's.
    [
      'dark',
      async (p) => {
        await p.evaluate(() => /** @type {HTMLElement} */ (document.activeElement).blur());
        await p.keyboard.press('t');
      },
    ],
    ['help', key('?')],
  ],
  xnnpack: [
    ['open'],
    ['expand', key('e')],
    ['collapse', key('c')],
    ['group', (p) => p.evaluate(() => window.etvizTest.selectGroup(0))],
  ],
  qnn: [
    ['open'],
    [
      'graph',
      (p) =>
        p.evaluate(() =>
          window.etvizTest.selectGraph(window.etvizTest.graphs().findIndex((g) => g.name === 'prefill_forward')),
        ),
    ],
  ],
  generated: [
    ['open'],
    ['flatten', key('l')],
    ['depth', key(',')],
    [
      'walk',
      async (p) => {
        await p.keyboard.press('ArrowDown');
        await p.keyboard.press('ArrowDown');
      },
    ],
  ],
  diff: [['open'], ['step', key('[')], ['panes', key('2')]],
  trace: [['open'], ['next', key(']')], ['node', (p) => p.evaluate(() => window.etvizTest.selectNode(3))]],
  memory: [
    ['open'],
    ['memory', key('m')],
    [
      'size',
      async (p) => {
        await p.keyboard.press('m');
        await p.keyboard.press('b');
      },
    ],
  ],
  profile: [['open'], ['table', key('p')]],
  app: [['open']],
};

// Two frames for the drawing, a pause for the minimap's overview and the drawers, two more.
const settle = async (page) => {
  const frames = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await frames();
  await page.waitForTimeout(400);
  await frames();
};

async function shoot(browser, bin, tag) {
  const dir = path.join(opts.out, tag);
  fs.mkdirSync(dir, { recursive: true });
  const shots = {};
  for (const [name, args] of Object.entries(PAGES)) {
    const html = path.join(dir, `${name}.html`);
    execFileSync(
      bin,
      args.map((a) => (a === 'OUT' ? html : a)),
      { stdio: 'ignore' },
    );
    const { context, page, log } =
      name === 'app' ? await openApp(browser, html) : await openViewer(browser, html, { width: 1280, height: 800 });
    if (name !== 'app') await waitForEngine(page);
    for (const [shot, action] of SHOTS[name]) {
      if (action) await action(page);
      await settle(page);
      const file = path.join(dir, `${name}-${shot}.png`);
      await page.screenshot({ path: file });
      shots[`${name}-${shot}`] = file;
    }
    if (log.errors.length) console.log(`${tag} ${name}: console errors: ${log.errors.join(' | ')}`);
    await context.close();
  }
  return shots;
}

async function openApp(browser, html) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const log = { errors: [] };
  page.on('pageerror', (e) => log.errors.push(String(e)));
  await page.goto('file://' + path.resolve(html));
  await page.waitForSelector('#app-landing:not([hidden])', { timeout: 30000 });
  return { context, page, log };
}

// Pixels that differ between two PNGs (decoded by the browser), and a picture of where.
async function pixelDiff(browser, a, b, out) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const url = (f) => `data:image/png;base64,${fs.readFileSync(f).toString('base64')}`;
  const r = await page.evaluate(
    async ([ua, ub]) => {
      const load = async (u) => createImageBitmap(await (await fetch(u)).blob());
      const [ia, ib] = await Promise.all([load(ua), load(ub)]);
      if (ia.width !== ib.width || ia.height !== ib.height)
        return { differ: -1, size: [ia.width, ia.height, ib.width, ib.height] };
      const c = new OffscreenCanvas(ia.width, ia.height);
      const x = c.getContext('2d');
      x.drawImage(ia, 0, 0);
      const da = x.getImageData(0, 0, ia.width, ia.height);
      x.drawImage(ib, 0, 0);
      const db = x.getImageData(0, 0, ia.width, ia.height);
      let differ = 0;
      for (let i = 0; i < da.data.length; i += 4) {
        const same =
          da.data[i] === db.data[i] &&
          da.data[i + 1] === db.data[i + 1] &&
          da.data[i + 2] === db.data[i + 2] &&
          da.data[i + 3] === db.data[i + 3];
        if (!same) differ++;
        db.data[i] = same ? da.data[i] >> 2 : 255;
        db.data[i + 1] = same ? da.data[i + 1] >> 2 : 0;
        db.data[i + 2] = same ? da.data[i + 2] >> 2 : 0;
        db.data[i + 3] = 255;
      }
      x.putImageData(db, 0, 0);
      const blob = await c.convertToBlob({ type: 'image/png' });
      const bytes = new Uint8Array(await blob.arrayBuffer());
      let s = '';
      for (const byte of bytes) s += String.fromCharCode(byte);
      return { differ, png: btoa(s) };
    },
    [url(a), url(b)],
  );
  if (r.png) fs.writeFileSync(out, Buffer.from(r.png, 'base64'));
  await context.close();
  return r;
}

// Every tile rastered whole: with partial raster, a button that changed (turned on, a pane
// button at a clipped edge) had its rounded corners drawn differently now and then, with one
// binary too.
const browser = await launch(['--disable-partial-raster']);
let passed = 0,
  failed = 0;
try {
  const before = await shoot(browser, opts.before, 'before');
  const after = await shoot(browser, opts.after, 'after');
  for (const name of Object.keys(before)) {
    const a = fs.readFileSync(before[name]),
      b = fs.readFileSync(after[name]);
    if (a.equals(b)) {
      console.log(`equal   ${name} (bytes)`);
      passed++;
      continue;
    }
    const d = await pixelDiff(browser, before[name], after[name], path.join(opts.out, `diff-${name}.png`));
    if (d.differ === 0) {
      console.log(`equal   ${name} (pixels; the PNG bytes differ)`);
      passed++;
    } else {
      console.log(
        `DIFFER  ${name}: ${d.differ < 0 ? `sizes ${d.size}` : `${d.differ} pixels`} (${path.join(opts.out, `diff-${name}.png`)})`,
      );
      failed++;
    }
  }
} finally {
  await browser.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
