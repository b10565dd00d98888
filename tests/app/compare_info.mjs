// Native and WebAssembly readers give identical documents (docs/app.md): for every file of the
// corpus, `etviz info --json FILE` from the native binary and from the app's WebAssembly module
// (build/app-wasm/etviz_app.js and .wasm, run by node) are the same text, or fail with the same message.
// Programs with external weights are compared with their .ptd (--data); zip archives are also
// compared re-zipped with deflate, the members inflated outside the module as the page does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';

const BIN = process.env.ETVIZ_BIN;
const APP_JS = process.env.ETVIZ_APP_JS;
const CORPUS = process.env.ETVIZ_CORPUS_DIR;
const require = createRequire(import.meta.url);

function native(file, data = []) {
  const r = spawnSync(BIN, ['info', '--json', file, ...data.flatMap((d) => ['--data', d])], { encoding: 'utf8', maxBuffer: 1 << 28 });
  return r.status === 0 ? { ok: true, text: r.stdout } : { ok: false, error: r.stderr };
}

let app;
async function wasm() {
  if (!app) {
    // Given the wasm's bytes, as the page's worker is (web/src/app_worker.js): the module
    // then never fetches it.
    const createEtvizApp = require(APP_JS);
    const wasmBinary = fs.readFileSync(APP_JS.replace(/\.js$/, '.wasm'));
    app = (await createEtvizApp({ wasmBinary })).etvizApp;
  }
  return app;
}

// Puts the file into the module's file system at the same path, so messages name it alike.
async function wasmInfo(file, data = []) {
  const a = await wasm();
  for (const f of [file, ...data]) a.writeFile(f, fs.readFileSync(f));
  let inflated = 0;
  try {
    for (const m of a.zipPlan(file)) {
      inflated++;
      const bytes = fs.readFileSync(file).subarray(m.offset, m.offset + m.compressed);
      let out = Buffer.alloc(0), error = '';
      try { out = zlib.inflateRawSync(bytes); } catch (e) { error = e.message; }
      a.provideMember(file, m.name, out, error);
    }
    return { ...a.info(file, data), inflated };
  } finally {
    a.forget();
    for (const f of [file, ...data]) a.removeFile(f);
  }
}

// As the page reads a large file (docs/app.md; src/wasm/partial_plan.h): into zeroed memory
// the size of the file, only the ranges the plan asks for, registered as the file; zip members
// the readers read and that are deflated are inflated from the file. `partial: false` when the
// file is not a kind read in part (nothing is compared then).
async function wasmInfoInPart(file) {
  const a = await wasm();
  const bytes = fs.readFileSync(file);
  // The module's memory past its heap, never given back (the page's worker starts a fresh
  // module after a large file; here the corpus is small). Zeroed: it may have been heap before.
  const reserve = (size) => {
    const p = a.reserve(size);
    a.put(p, new Uint8Array(size));
    return p;
  };
  let read = 0;
  const ptr = a.readInPart(bytes.length, (begin, end) => {
    read += Math.min(end, bytes.length) - begin;
    return bytes.subarray(begin, end);
  }, reserve);
  if (!ptr) return { partial: false };
  a.registerMemoryFile(file, ptr, bytes.length);
  try {
    for (const m of a.zipPlan(file)) {
      read += m.compressed;
      let out = Buffer.alloc(0), error = '';
      try { out = zlib.inflateRawSync(bytes.subarray(m.offset, m.offset + m.compressed)); } catch (e) { error = e.message; }
      a.provideMember(file, m.name, out, error);
    }
    return { ...a.info(file, []), partial: true, read };
  } finally {
    a.forget();
    a.unregisterMemoryFile(file);
  }
}

function same(file, n, w) {
  if (n.ok) {
    assert.ok(w.ok, `${file}: the WebAssembly reader fails where the native one reads: ${w.error}`);
    assert.equal(w.text.trimEnd(), n.text.trimEnd(), `${file}: identical info --json`);
  } else {
    assert.ok(!w.ok, `${file}: the WebAssembly reader reads what the native one refuses (${n.error.trim()})`);
    assert.ok(n.error.includes(w.error), `${file}: the same error: native '${n.error.trim()}', wasm '${w.error}'`);
  }
}

const PAIRS = [
  ['pte/pytorch__executorch__extension__module__test__resources__linear.29d0a214.pte', 'ptd/pytorch__executorch__extension__module__test__resources__linear.29d0a214.ptd'],
  ['pte/pytorch__executorch__extension__android__executorch_android__src__androidTest__resources__xor.9c80c531.pte', 'ptd/pytorch__executorch__extension__android__executorch_android__src__androidTest__resources__xor.9c80c531.ptd'],
  ['pte/barakugav__executorch-rs__examples__data_map__model__model.pte', 'ptd/barakugav__executorch-rs__examples__data_map__model___default_external_constant.ptd'],
];

test('every corpus file: native and WebAssembly info --json are identical', async () => {
  let files = 0, read = 0;
  for (const dir of fs.readdirSync(CORPUS).sort()) {
    const full = path.join(CORPUS, dir);
    if (!fs.statSync(full).isDirectory()) continue;
    for (const name of fs.readdirSync(full).sort()) {
      const file = path.join(full, name);
      const n = native(file);
      same(file, n, await wasmInfo(file));
      files++;
      if (n.ok) read++;
    }
  }
  console.log(`# ${files} corpus files compared, ${read} read, ${files - read} refused alike`);
  const manifest = fs.readFileSync(path.join(CORPUS, 'MANIFEST.tsv'), 'utf8').split('\n')
    .filter((l) => l && !l.startsWith('#') && !l.startsWith('kind\t'));
  assert.equal(files, manifest.length, 'every file the corpus manifest lists was compared');
  assert.ok(read > files / 2, `most of the corpus reads (${read} of ${files})`);
});

test('every corpus file read in part, as the page reads large files, reads as the native reader reads it whole', async () => {
  // Each file is read through the plan whatever its size (the page does so from 64 MiB on):
  // a byte the readers need and the plan leaves unread would change the document.
  let files = 0, total = 0, read = 0;
  const kinds = new Set();
  for (const dir of fs.readdirSync(CORPUS).sort()) {
    const full = path.join(CORPUS, dir);
    if (!fs.statSync(full).isDirectory()) continue;
    for (const name of fs.readdirSync(full).sort()) {
      const file = path.join(full, name);
      const w = await wasmInfoInPart(file);
      if (!w.partial) continue;
      const n = native(file);
      if (!n.ok) continue;  // a broken file the plan gives up on or reads is the reader's to report
      same(file, n, w);
      files++;
      kinds.add(dir);
      total += fs.statSync(file).size;
      read += w.read;
    }
  }
  console.log(`# ${files} corpus files read in part: ${read} of ${total} bytes read; kinds ${[...kinds].sort().join(' ')}`);
  for (const kind of ['pte', 'bpte', 'ptd', 'pt2', 'etrecord'])
    assert.ok(kinds.has(kind), `${kind} files are read in part`);
  assert.ok(read < total * 0.9, `the weights are left unread (${read} of ${total} bytes read)`);
});

test('a bundle read in part skips its test data: its tables and its program are read', { skip: !process.env.ETVIZ_GEN }, async () => {
  // Two methods, each with an 8 MiB input and expected output: 32 MiB of test data the page
  // never reads (the reader shows the tensors' shapes and sizes, not their bytes).
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'etviz-bundle-'));
  const file = path.join(tmp, 'tested.bpte');
  execFileSync(process.env.ETVIZ_GEN, ['program', '--blocks', '4', '--dim', '16', '--hidden', '32', '--vocab', '64',
    '--methods', '2', '--bundle', '--test-data', '8M', '-o', file], { stdio: 'ignore' });
  const size = fs.statSync(file).size;
  const w = await wasmInfoInPart(file);
  assert.ok(w.partial, 'a bundle is read in part');
  same(file, native(file), w);
  console.log(`# bundle with 32 MiB of test data: ${w.read} of ${size} bytes read`);
  assert.ok(w.read < size - 32 * 1048576 + 1048576, `the test data is not read (${w.read} of ${size} bytes)`);
  fs.rmSync(tmp, { recursive: true, force: true });
});

test('programs with their external weights (--data) agree', async () => {
  for (const [pte, ptd] of PAIRS) {
    const file = path.join(CORPUS, pte), data = [path.join(CORPUS, ptd)];
    const n = native(file, data);
    assert.ok(n.ok, `${pte} reads with its .ptd`);
    same(file, n, await wasmInfo(file, data));
  }
});

test('deflated archives: members inflated outside the module read as libzip reads them', async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'etviz-deflate-'));
  let compared = 0;
  for (const dir of ['pt2', 'etrecord']) {
    for (const name of fs.readdirSync(path.join(CORPUS, dir))) {
      const out = path.join(tmp, `${name}.zip`);
      execFileSync('python3', ['-c', `
import zipfile, sys
try:
    a = zipfile.ZipFile(sys.argv[1]); names = [(i.filename, a.read(i.filename)) for i in a.infolist()]
except zipfile.BadZipFile:
    sys.exit(0)  # an edited archive Python cannot read: nothing to re-zip
with zipfile.ZipFile(sys.argv[2], 'w', zipfile.ZIP_DEFLATED) as b:
    for n, data in names:
        b.writestr(n, data)
`, path.join(CORPUS, dir, name), out]);
      if (!fs.existsSync(out)) continue;
      const n = native(out);
      const w = await wasmInfo(out);
      same(out, n, w);
      assert.ok(w.inflated > 0, `${name}: the re-zipped archive has deflated members to inflate`);
      compared++;
    }
  }
  fs.rmSync(tmp, { recursive: true, force: true });
  assert.ok(compared >= 3, `${compared} re-zipped archives (Python cannot re-zip an edited one)`);
});
