import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileQuery, searchNodes } from '../src/search.js';

const strings = [
  'aten::convolution.out',
  'conv_0',
  'convolution',
  'aten::add.out',
  'add_1',
  'add',
  'layers.0.attn',
  'quantized_decomposed::dequantize_per_tensor.out',
  'dq_2',
  'dequantize_per_tensor',
];
const model = {
  strings,
  nodeCount: 3,
  n: {
    op: Int32Array.from([0, 3, 7]),
    name: Int32Array.from([1, 4, 8]),
    label: Int32Array.from([2, 5, 9]),
    module: Int32Array.from([-1, 6, -1]),
  },
};

test('substring search is case-insensitive and needs every word', () => {
  assert.deepEqual(searchNodes(model, 'CONV').results, [0]);
  assert.deepEqual(searchNodes(model, 'aten out').results, [0, 1]);
  assert.deepEqual(searchNodes(model, 'nothing').results, []);
});

test('op matches rank before name or module matches', () => {
  // "layers" only matches node 1's module path; "add" matches its op.
  assert.deepEqual(searchNodes(model, 'layers.0').results, [1]);
  const r = searchNodes(model, 'a');
  assert.equal(r.total, 3);
});

test('/regex/ syntax', () => {
  assert.deepEqual(searchNodes(model, '/^aten::(add|conv)/').results, [0, 1]);
  assert.deepEqual(searchNodes(model, '/dequant.*tensor$/').results, [2]);
});

test('a bad regex reports an error instead of throwing', () => {
  const r = searchNodes(model, '/(/');
  assert.ok(r.error.startsWith('bad regular expression'));
  assert.deepEqual(r.results, []);
  assert.equal(compileQuery('   '), null);
});

// A model with groups (module classes), values (shapes, dtypes) and argument lists, to check
// the field syntax.
function fieldModel() {
  const S = [];
  const id = (s) => {
    const k = S.indexOf(s);
    return k >= 0 ? k : S.push(s) - 1;
  };
  const nodes = [
    { op: 'aten::linear', name: 'linear', module: 'layers.1.mlp', group: 1, ins: [0], outs: [1] },
    { op: 'aten::linear', name: 'linear_1', module: 'layers.10.mlp', group: 2, ins: [1], outs: [2] },
    { op: 'aten::add.Tensor', name: 'add', module: 'layers.1', group: 0, ins: [2], outs: [3] },
    // A parameter: no module path of its own, drawn in its consumer's box, named by its fqn.
    {
      op: 'parameter',
      name: 'p_feature_2_weight',
      label: 'feature.2.weight',
      module: '',
      group: 3,
      ins: [],
      outs: [4],
    },
  ];
  const values = [
    ['[1, 16]', 'float32'],
    ['[1, 256]', 'float32'],
    ['[2, 256]', 'int8'],
    ['[2, 256]', 'int8'],
    ['[64, 3, 3, 3]', 'float16'],
  ];
  const groups = [
    ['layers.1', '1 (DecoderLayer)', -1],
    ['layers.1.mlp', 'mlp (Linear)', 0],
    ['layers.10.mlp', 'mlp (Conv2d)', -1],
    ['feature.2', '2 (Conv2d)', -1],
  ];
  const inOff = [0],
    inVal = [],
    outOff = [0],
    outVal = [];
  for (const n of nodes) {
    inVal.push(...n.ins);
    inOff.push(inVal.length);
    outVal.push(...n.outs);
    outOff.push(outVal.length);
  }
  return {
    strings: S,
    nodeCount: nodes.length,
    groupCount: groups.length,
    n: {
      op: Int32Array.from(nodes.map((n) => id(n.op))),
      name: Int32Array.from(nodes.map((n) => id(n.name))),
      label: Int32Array.from(nodes.map((n) => id(n.label || n.name))),
      module: Int32Array.from(nodes.map((n) => id(n.module))),
      group: Int32Array.from(nodes.map((n) => n.group)),
      inOff: Int32Array.from(inOff),
      inVal: Int32Array.from(inVal),
      outOff: Int32Array.from(outOff),
      outVal: Int32Array.from(outVal),
    },
    v: { shape: Int32Array.from(values.map((v) => id(v[0]))), dtype: Int32Array.from(values.map((v) => id(v[1]))) },
    g: {
      name: Int32Array.from(groups.map((g) => id(g[0]))),
      label: Int32Array.from(groups.map((g) => id(g[1]))),
      parent: Int32Array.from(groups.map((g) => g[2])),
    },
    groupKind: () => 'module',
  };
}

test('module: is an exact scope (layers.1 is not layers.10)', () => {
  const m = fieldModel();
  assert.deepEqual(searchNodes(m, 'module:layers.1').results, [0, 2]);
  assert.deepEqual(searchNodes(m, 'module:layers.10').results, [1]);
  // A plain word is still a substring.
  assert.deepEqual(searchNodes(m, 'layers.1').results, [0, 1, 2]);
});

test('module: holds what is drawn in its box and what is named under it', () => {
  const m = fieldModel();
  assert.deepEqual(searchNodes(m, 'module:feature.2').results, [3]);
  assert.deepEqual(searchNodes(m, 'module:feature').results, [3]);
  assert.deepEqual(searchNodes(m, 'module:feature.2.weight').results, []);
});

test('plain words match dtypes, shapes and the module box a node is drawn in', () => {
  const m = fieldModel();
  assert.deepEqual(searchNodes(m, 'float32').results, [0, 1]);
  assert.deepEqual(searchNodes(m, 'int8').results, [1, 2]);
  assert.deepEqual(searchNodes(m, '[2, 256]').results, [1, 2]);
  assert.deepEqual(searchNodes(m, '[2,256]').results, [1, 2]);
  assert.deepEqual(searchNodes(m, '[64, 3, 3, 3]').results, [3]);
  assert.deepEqual(searchNodes(m, 'feature.2').results, [3]);
  // Fields narrow: float16 as a word finds the parameter, as an op nothing.
  assert.deepEqual(searchNodes(m, 'float16').results, [3]);
  assert.deepEqual(searchNodes(m, 'op:float16').results, []);
  assert.deepEqual(searchNodes(m, 'linear float32').results, [0, 1]);
  assert.deepEqual(searchNodes(m, 'linear int8').results, [1]);
});

test('shape:, dtype:, class:, op: and name: fields, combined', () => {
  const m = fieldModel();
  assert.deepEqual(searchNodes(m, 'shape:[2, 256]').results, [1, 2]);
  assert.deepEqual(searchNodes(m, 'shape:[1,16]').results, [0]);
  assert.deepEqual(searchNodes(m, 'shape:256').results, [0, 1, 2]);
  assert.deepEqual(searchNodes(m, 'dtype:INT8').results, [1, 2]);
  assert.deepEqual(searchNodes(m, 'class:linear').results, [0]);
  assert.deepEqual(searchNodes(m, 'class:DecoderLayer').results, [0, 2]);
  assert.deepEqual(searchNodes(m, 'op:linear dtype:int8').results, [1]);
  assert.deepEqual(searchNodes(m, 'op:=aten::add.Tensor').results, [2]);
  assert.deepEqual(searchNodes(m, 'op:=aten::add').results, []);
  assert.deepEqual(searchNodes(m, 'name:=linear').results, [0]);
  assert.deepEqual(searchNodes(m, 'name:linear').results, [0, 1]);
});

test('an unknown field is a plain word', () => {
  const m = fieldModel();
  assert.deepEqual(searchNodes(m, 'aten::add').results, [2]);
});

test('category: matches the category id or a word of its legend label', () => {
  const m = {
    ...model,
    n: { ...model.n, cat: Int32Array.from([0, 9, 6]) },
    data: {
      cats: [
        { id: 'compute', label: 'Compute' },
        ...['backend', 'quantize', 'memory', 'io', 'constant'].map((id) => ({ id, label: id })),
        { id: 'delegate', label: 'Delegate calls' },
        { id: 'control', label: 'Control / memory mgmt' },
        { id: 'other', label: 'Other' },
        { id: 'error', label: 'Error' },
      ],
    },
  };
  assert.deepEqual(searchNodes(m, 'category:error').results, [1]);
  assert.deepEqual(searchNodes(m, 'category:ERROR add').results, [1]);
  assert.deepEqual(searchNodes(m, 'category:calls').results, [2]);
  assert.deepEqual(searchNodes(m, 'category:=calls').results, []);
  assert.deepEqual(searchNodes(m, 'category:delegate').results, [2]);
  assert.deepEqual(searchNodes(m, 'category:nothing').results, []);
});
