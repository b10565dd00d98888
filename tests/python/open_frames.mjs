// Opens a page of etviz iframes (a notebook's output) in headless Chromium; prints how many
// frames drew (body[data-ready]), their node counts, console errors and network requests.
import path from 'node:path';
import { launch } from '../browser/browser.mjs';

const file = process.argv[2];
const browser = await launch();
const context = await browser.newContext({ viewport: { width: 1200, height: 1400 } });
const page = await context.newPage();
const errors = [];
const requests = [];
page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
page.on('pageerror', (e) => errors.push(String(e)));
page.on('request', (r) => { if (!/^(file|data|about|blob):/.test(r.url())) requests.push(r.url()); });
await page.goto('file://' + path.resolve(file));
const frames = page.frames().filter((f) => f !== page.mainFrame());
let ready = 0;
const nodes = [];
for (const f of frames) {
  await f.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
  ready++;
  nodes.push(await f.evaluate(() => window.etvizTest.graphs()[window.etvizTest.graph()].irNodes));
}
await page.screenshot({ path: file.replace(/\.html$/, '.png') });
console.log(JSON.stringify({ frames: frames.length, ready, nodes, errors, requests }));
await browser.close();
