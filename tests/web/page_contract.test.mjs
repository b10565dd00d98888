// The page-data contract (web/src/page_data.js) against what etviz writes: the keys of the
// etviz-data element of pages made from a corpus program, a delegated corpus program and
// generated programs, in both encodings, compared with the keys the PageData typedef declares
// (read with the TypeScript compiler from web/node_modules). Every key written must be
// declared, every declared key written by some page, and a key not marked optional written
// wherever its object is.
// Env: ETVIZ_BIN (etviz), ETVIZ_GEN (etviz-gen), ETVIZ_CORPUS_DIR, ETVIZ_ARTIFACTS.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const WEB = path.resolve(here, '../../web');
const CONTRACT = path.join(WEB, 'src/page_data.js');
const BIN = process.env.ETVIZ_BIN;
const GEN = process.env.ETVIZ_GEN;
const CORPUS = process.env.ETVIZ_CORPUS_DIR;
const OUT = process.env.ETVIZ_ARTIFACTS || fs.mkdtempSync('/tmp/etviz-contract-');
fs.mkdirSync(OUT, { recursive: true });

// Declared keys as paths ("graphs[].n.w": key w of the object n of each item of graphs), each
// with whether it may be absent (it, or an object holding it, is optional).
function declaredKeys() {
  const ts = createRequire(path.join(WEB, 'package.json'))('typescript');
  const program = ts.createProgram([CONTRACT], { allowJs: true, checkJs: true, noEmit: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(CONTRACT);
  const root = checker.getExportsOfModule(checker.getSymbolAtLocation(source)).find((s) => s.name === 'PageData');
  assert.ok(root, 'web/src/page_data.js declares PageData');
  // Objects of the contract are walked into; anything else (columns, strings, tuples) is a leaf.
  const declaredHere = (t) => !!t.symbol && (t.symbol.declarations || []).some((d) => d.getSourceFile() === source);
  const keys = new Map();
  const walk = (type, prefix, optional) => {
    for (const prop of checker.getPropertiesOfType(type)) {
      const key = prefix ? `${prefix}.${prop.name}` : prop.name;
      const maybe = optional || (prop.flags & ts.SymbolFlags.Optional) !== 0;
      keys.set(key, maybe);
      let t = checker.getNonNullableType(checker.getTypeOfSymbolAtLocation(prop, prop.valueDeclaration || source));
      let item = '';
      if (checker.isArrayType(t)) {
        t = checker.getTypeArguments(t)[0];
        item = '[]';
      }
      if (declaredHere(t)) walk(t, key + item, maybe);
    }
  };
  walk(checker.getDeclaredTypeOfSymbol(root), '', false);
  return keys;
}

// The keys a page's data holds, as paths, and the objects they sit in. Column references of the
// column encoding ({$col}, {$strings}) are values, as the arrays they stand for are.
function writtenKeys(data) {
  const keys = new Set();
  const objects = new Set();
  const visit = (value, prefix) => {
    if (Array.isArray(value)) {
      for (const item of value)
        if (item && typeof item === 'object' && !Array.isArray(item)) visit(item, `${prefix}[]`);
      return;
    }
    if (!value || typeof value !== 'object' || '$col' in value || '$strings' in value) return;
    objects.add(prefix);
    for (const [k, v] of Object.entries(value)) {
      const key = prefix ? `${prefix}.${k}` : k;
      keys.add(key);
      visit(v, key);
    }
  };
  visit(data, '');
  return { keys, objects };
}

// The etviz-data element of a page, parsed; for the column encoding, its `data` head.
function pageData(html) {
  const text = fs.readFileSync(html, 'utf8');
  const m = /<script type="application\/json" id="etviz-data"([^>]*)>([\s\S]*?)<\/script>/.exec(text);
  assert.ok(m, `${html} has an etviz-data element`);
  const encoding = (/data-encoding="([^"]*)"/.exec(m[1]) || [null, 'json'])[1];
  const parsed = JSON.parse(m[2]);
  return encoding === 'json' ? parsed : parsed.data;
}

function generate(name, args) {
  const out = path.join(OUT, name);
  execFileSync(GEN, ['program', ...args, '-o', out], { stdio: 'ignore' });
  return out;
}

const pte = (name) => path.join(CORPUS, 'pte', name);
const INPUTS = {
  portable: () =>
    pte('pytorch__executorch__extension__android__executorch_android__src__androidTest__resources__xor.9c80c531.pte'),
  xnnpack: () =>
    pte('corey-cole__djl-executorch-engine__src__test__resources__models__stress__stress_mlp.d66ae531.pte'),
  generated: () => generate('contract-generated.pte', ['--blocks', '3', '--delegates']),
  'generated-plain': () => generate('contract-plain.pte', ['--blocks', '2']),
};

test('the page data etviz writes holds exactly the keys web/src/page_data.js declares', () => {
  assert.ok(BIN && GEN && CORPUS, 'ETVIZ_BIN, ETVIZ_GEN and ETVIZ_CORPUS_DIR are set');
  const declared = declaredKeys();
  assert.ok(declared.size > 100, `PageData declares ${declared.size} keys`);
  const seen = new Set();
  for (const [name, input] of Object.entries(INPUTS)) {
    const file = input();
    const written = {};
    for (const [encoding, flags] of [
      ['columns', []],
      ['json', ['--no-compress']],
    ]) {
      const html = path.join(OUT, `contract-${name}-${encoding}.html`);
      execFileSync(BIN, [file, '-o', html, '-q', ...flags]);
      const { keys, objects } = writtenKeys(pageData(html));
      written[encoding] = keys;
      const undeclared = [...keys].filter((k) => !declared.has(k));
      assert.deepEqual(undeclared, [], `${name} (${encoding}): keys written but not declared in web/src/page_data.js`);
      const parent = (k) => k.slice(0, Math.max(0, k.lastIndexOf('.')));
      const missing = [...declared]
        .filter(([k, optional]) => !optional && objects.has(parent(k)) && !keys.has(k))
        .map(([k]) => k);
      assert.deepEqual(missing, [], `${name} (${encoding}): declared keys (not optional) the page lacks`);
      for (const k of keys) seen.add(k);
    }
    assert.deepEqual(
      [...written.columns].sort(),
      [...written.json].sort(),
      `${name}: both encodings hold the same keys`,
    );
  }
  const never = [...declared.keys()].filter((k) => !seen.has(k));
  assert.deepEqual(never, [], 'keys declared in web/src/page_data.js that no page holds');
});
