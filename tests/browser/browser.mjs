// Headless Chromium for the viewer's tests and benchmarks: Debian's chromium driven by
// playwright-core (web/node_modules). No network: pages come from file://.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '../../web/package.json'));
const { chromium } = require('playwright-core');

export const CHROMIUM = process.env.ETVIZ_CHROMIUM || '/usr/bin/chromium';
export const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

// `extra`: more Chromium flags.
export async function launch(extra = []) {
  return chromium.launch({ executablePath: CHROMIUM, args: [...FLAGS, ...extra], headless: true });
}

// Opens a page and records console errors, page errors and every non-file request.
export async function openViewer(browser, file, { width = 1400, height = 900, colorScheme = 'light' } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, colorScheme, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const log = { errors: [], requests: [], dialogs: [] };
  page.on('console', (m) => {
    if (m.type() === 'error') log.errors.push(m.text());
  });
  page.on('pageerror', (e) => log.errors.push(String(e)));
  page.on('dialog', async (d) => {
    log.dialogs.push(d.message());
    await d.dismiss();
  });
  page.on('request', (r) => {
    if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) log.requests.push(r.url());
  });
  const url = 'file://' + path.resolve(file);
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
  return { context, page, log };
}

// Waits for the page's WebAssembly layout engine; true when it loaded (docs/viewer.md, "Test
// facade": tests drive the page through window.etvizTest only).
export async function waitForEngine(page) {
  await page.waitForFunction(() => !!window.etvizTest, null, { timeout: 30000 });
  return page.evaluate(() => window.etvizTest.ready());
}
