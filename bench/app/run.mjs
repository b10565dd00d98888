// The app page's opening time against the CLI-written page of the same file (docs/app.md,
// figures): for each file, the CLI page from load to first picture, and a blank `etviz app`
// page from the file chooser to first picture (worker: read, inflate, page data; then the
// viewer). Usage: node bench/app/run.mjs ETVIZ_BIN OUT_DIR FILE...
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { launch, openViewer } from '../../tests/browser/browser.mjs';

const [bin, out, ...files] = process.argv.slice(2);
fs.mkdirSync(out, { recursive: true });
const app = path.join(out, 'etviz.html');
execFileSync(bin, ['app', '-o', app, '-q']);
const browser = await launch();
for (const file of files) {
  const html = path.join(out, `${path.basename(file)}.html`);
  execFileSync(bin, [file, '-o', html, '-q']);
  const t0 = Date.now();
  const cli = await openViewer(browser, html);
  const cliMs = Date.now() - t0;
  const nodes = await cli.page.evaluate(() => window.etvizTest.graphs().reduce((n, g) => n + g.nodes, 0));
  await cli.context.close();

  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  await page.goto('file://' + app);
  await page.waitForSelector('body[data-app-state="blank"]');
  const t1 = Date.now();
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.click('#app-open-landing')]);
  await chooser.setFiles([file]);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 300000 });
  const appMs = Date.now() - t1;
  const t = await page.evaluate(() => window.etvizAppTimings);
  await context.close();
  const size = fs.statSync(file).size;
  console.log(`${path.basename(file)}\t${(size / 1048576).toFixed(1)} MiB\t${nodes} nodes\tCLI page ${cliMs} ms\tapp ${appMs} ms ` +
    `(${t.bytesRead} bytes read; read ${t.read.toFixed(0)}, inflate ${t.inflate.toFixed(0)}, page data ${t.page.toFixed(0)}, to viewer ${t.total.toFixed(0)})`);
}
await browser.close();
