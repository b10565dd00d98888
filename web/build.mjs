// Bundles the viewer into one classic script plus its CSS and markup, for the C++ build to
// inline (src/render/html/CMakeLists.txt). Usage: node build.mjs OUT_DIR
// Uses esbuild (web/node_modules, installed by `npm ci`) to bundle and minify; without it, a
// plain concatenation of the modules in dependency order (they import only each other).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const src = path.join(here, 'src');
const out = path.resolve(process.argv[2] || path.join(here, 'dist'));
fs.mkdirSync(out, { recursive: true });

function writeIfChanged(file, text) {
  if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === text) {
    const now = new Date();
    fs.utimesSync(file, now, now); // newer than its inputs, so the build step is satisfied
    return;
  }
  fs.writeFileSync(file, text);
}

// Modules in dependency order, found by following relative imports from main.js.
function orderedModules(entry) {
  const seen = new Set();
  const order = [];
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = fs.readFileSync(file, 'utf8');
    for (const m of text.matchAll(/^import\s[^;]*?from\s+'(\.\/[^']+)';/gms))
      visit(path.join(path.dirname(file), m[1]));
    order.push(file);
  };
  visit(entry);
  return order;
}

function concatenate(entry) {
  const parts = orderedModules(entry).map((file) => {
    const text = fs
      .readFileSync(file, 'utf8')
      .replace(/^import\s[^;]*?from\s+'[^']+';\s*$/gms, '')
      .replace(/^export\s+(default\s+)?/gm, '');
    return `// ${path.basename(file)}\n${text}`;
  });
  return `(() => {\n'use strict';\n${parts.join('\n')}\n})();\n`;
}

let js;
try {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: [path.join(src, 'main.js')],
    bundle: true,
    format: 'iife',
    minify: true,
    target: ['chrome110', 'firefox115', 'safari16'],
    write: false,
    legalComments: 'none',
  });
  js = result.outputFiles[0].text;
} catch (e) {
  if (e && e.code !== 'ERR_MODULE_NOT_FOUND') throw e;
  js = concatenate(path.join(src, 'main.js'));
}
writeIfChanged(path.join(out, 'viewer.js'), js);
writeIfChanged(path.join(out, 'viewer.css'), fs.readFileSync(path.join(src, 'viewer.css'), 'utf8'));
writeIfChanged(path.join(out, 'body.html'), fs.readFileSync(path.join(src, 'body.html'), 'utf8'));
