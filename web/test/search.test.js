import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileQuery, searchNodes } from '../src/search.js';

const strings = ['aten::convolution.out', 'conv_0', 'convolution', 'aten::add.out', 'add_1', 'add',
  'layers.0.attn', 'quantized_decomposed::dequantize_per_tensor.out', 'dq_2', 'dequantize_per_tensor'];
const model = {
  strings,
  nodeCount: 3,
  n: {
    op: Int32Array.from([0, 3, 7]), name: Int32Array.from([1, 4, 8]), label: Int32Array.from([2, 5, 9]),
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
