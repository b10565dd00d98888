// "Which graph does a command mean?" has one answer, Document::default_graph (src/core/
// document.h): `etviz export` draws the graph the page opens on, for every corpus file. The
// page decides in its own code (web/src/layout_control.js, defaultGraph) from the page data; export in
// C++. The picture's graph is DOT's `digraph "NAME"`; the page's is the one on show after
// loading. A file the page cannot show, export cannot draw either. Env: ETVIZ_BIN,
// ETVIZ_CORPUS_DIR, ETVIZ_ARTIFACTS.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { openViewer } from './browser.mjs';
import { BIN, CORPUS, OUT, sharedBrowser } from './harness.mjs';

const browser = sharedBrowser();

function corpusFiles() {
  const files = [];
  for (const folder of fs.readdirSync(CORPUS).sort()) {
    const dir = path.join(CORPUS, folder);
    if (!fs.statSync(dir).isDirectory()) continue;
    for (const name of fs.readdirSync(dir).sort()) files.push(path.join(folder, name));
  }
  return files;
}

// The graph `etviz export` draws, from its DOT; null when it draws none (with its message).
function exported(file) {
  const r = spawnSync(BIN, ['export', path.join(CORPUS, file), '--format', 'dot', '-o', '-', '-q'], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  const m = /^digraph "((?:[^"\\]|\\.)*)" \{/m.exec(r.stdout || '');
  return m ? { graph: m[1].replace(/\\(.)/g, '$1') } : { graph: null, message: r.stderr };
}

// And, on the same pages (one open each: this file is the suite's slowest), a copied link opens
// the node it was copied from, for every node of every graph (node names repeat: a TOSA graph
// names two nodes aten_view_copy_default_2; a link counts which holder of a shared name it
// means, web/src/links.js).
test('export draws the graph the page opens on, and every node link opens its node', async () => {
  let compared = 0,
    linked = 0,
    shared = 0;
  const failures = [];
  for (const file of corpusFiles()) {
    const html = path.join(OUT, file.replace(/[/\\]/g, '__') + '.html');
    fs.rmSync(html, { force: true });
    // A damaged file exits 1 after writing its page: the page's existence says it was shown.
    spawnSync(BIN, [path.join(CORPUS, file), '-o', html, '-q'], { encoding: 'utf8' });
    const drawn = exported(file);
    if (!fs.existsSync(html)) {
      if (drawn.graph !== null) failures.push(`${file}: export drew '${drawn.graph}', the page shows nothing`);
      continue;
    }
    const { page, context } = await openViewer(browser, html);
    try {
      await page.waitForFunction(() => !!window.etvizTest, null, { timeout: 30000 });
      const graphs = await page.evaluate(() => window.etvizTest.graphs());
      const shown = graphs.length ? graphs[await page.evaluate(() => window.etvizTest.graph())].name : null;
      if (shown !== drawn.graph)
        failures.push(
          `${file}: the page opens on '${shown}', export draws '${drawn.graph}'` +
            (drawn.message ? ` (${drawn.message.trim()})` : ''),
        );
      if (shown !== null) ++compared;
      for (let g = 0; g < graphs.length; g++) {
        const links = await page.evaluate((k) => window.etvizTest.linkMisses(k), g);
        for (const m of links.misses.slice(0, 3))
          failures.push(`${file} ${graphs[g].name} node ${m.node}: ${m.link} opens ${JSON.stringify(m.opens)}`);
        linked += graphs[g].nodes;
        shared += links.shared;
      }
    } finally {
      await context.close();
    }
  }
  assert.deepEqual(failures, []);
  assert.ok(compared >= 40, `${compared} corpus files with a graph compared`);
  assert.ok(linked > 1000, `${linked} nodes' links checked`);
  assert.ok(shared > 0, 'some corpus node shares its name (the case a link must tell apart)');
});
