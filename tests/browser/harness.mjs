// What every browser test file shares: the environment tests/browser/CMakeLists.txt gives it,
// one Chromium per file, pages written by the etviz binary. (browser.mjs is the launcher the
// benchmarks use too; this file is for node:test files only: it registers hooks.)
import { before, after } from 'node:test';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { launch } from './browser.mjs';

export const BIN = process.env.ETVIZ_BIN; // the etviz binary
export const GEN = process.env.ETVIZ_GEN; // etviz-gen (tools/gen): generated programs
export const CORPUS = process.env.ETVIZ_CORPUS_DIR; // ../shared/corpus, read in place
// Where pages and screenshots go (one folder per ctest case).
export const OUT = process.env.ETVIZ_ARTIFACTS || path.resolve('browser-artifacts');
fs.mkdirSync(OUT, { recursive: true });

// One browser for the file: launched before its first test, closed after its last. What it
// returns stands for the browser (openViewer(browser, ...), browser.newContext(...)).
export function sharedBrowser() {
  let browser = null;
  before(async () => {
    browser = await launch();
  });
  after(async () => {
    if (browser) await browser.close();
  });
  return {
    newContext: (options) => {
      if (!browser) throw new Error('sharedBrowser: used outside a test');
      return browser.newContext(options);
    },
  };
}

// `etviz ARGS -o OUT/NAME.html -q`; ARGS is one path or the argument list. Returns the page's
// path.
export function writePage(args, name) {
  const html = path.join(OUT, `${name}.html`);
  execFileSync(BIN, [...[args].flat(), '-o', html, '-q']);
  return html;
}

// An expression over the timeline overlay's test interface `t` (web/src/timeline_overlay.js), on a
// diff or pass page.
export const timelineEval = (page, expr) =>
  page.evaluate(`(() => { const t = window.etvizTest.overlay('timeline'); return ${expr}; })()`);
