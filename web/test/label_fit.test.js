import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fitLabel, fitText } from '../src/label_fit.js';

// A canvas context whose text is 7 px a character at 12 px and 6 px at 11 px.
const ctx = {
  font: '',
  measureText(s) {
    return { width: s.length * (this.font.startsWith('11px') ? 6 : 7) };
  },
};

test('a label that fits is one line', () => {
  assert.deepEqual(fitLabel(ctx, 'relu', 100).lines, ['relu']);
});

test('a long label goes onto two lines, broken after a separator near the end of the first', () => {
  const { lines, font } = fitLabel(ctx, 'aten_convolution_default_quantized', 120);
  assert.match(font, /^11px/);
  assert.deepEqual(lines, ['aten_convolution_', 'default_quantized']);
  // Both ops of a pair the issue names read whole at the page's widest box (226 px of text).
  for (const label of [
    '0:quantized_decomposed_quantize_per_tensor_default',
    '1:quantized_decomposed_dequantize_per_tensor_default',
  ])
    assert.equal(fitLabel(ctx, label, 226).lines.join(''), label);
});

test('a label too long for two lines keeps its head and its tail', () => {
  const label = '0:quantized_decomposed_quantize_per_tensor_default';
  const { lines } = fitLabel(ctx, label, 120);
  assert.equal(lines.length, 2);
  assert.ok(label.startsWith(lines[0]));
  assert.ok(lines[1].startsWith('…'));
  assert.ok(label.endsWith(lines[1].slice(1)));
  for (const l of lines) assert.ok(l.length * 6 <= 120, l);
  // Labels that differ at their end read differently.
  const other = fitLabel(ctx, '0:quantized_decomposed_quantize_per_tensor_default_2', 120).lines;
  assert.notDeepEqual(other, lines);
});

test('fitText cuts at the end', () => {
  assert.equal(fitText(ctx, '11px x', 'abcdefghij', 30), 'abcd…');
});
