// The key map: one binding per key, overlays add theirs, the help lists each binding once,
// keys typed into inputs or with modifiers are ignored.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KeyMap } from '../src/keys.js';

const event = (key, extra = {}) => ({
  key,
  target: { tagName: 'CANVAS' },
  preventDefault() {
    this.prevented = true;
  },
  ...extra,
});

test('bound keys run their action and are listed once per binding', () => {
  const k = new KeyMap();
  const seen = [];
  k.bind(['e', 'c'], 'expand / collapse', (ev) => seen.push(ev.key));
  k.bind('p', 'profile table', () => seen.push('p'));
  const ev = event('c');
  assert.equal(k.handle(ev), true);
  assert.equal(ev.prevented, true);
  assert.equal(k.handle(event('p')), true);
  assert.equal(k.handle(event('x')), false);
  assert.deepEqual(seen, ['c', 'p']);
  assert.deepEqual(k.entries(), [
    { keys: ['e', 'c'], help: 'expand / collapse' },
    { keys: ['p'], help: 'profile table' },
  ]);
});

test('typing in inputs and modified keys are left to the browser', () => {
  const k = new KeyMap();
  let ran = 0;
  k.bind('f', 'fit', () => ran++);
  assert.equal(k.handle(event('f', { target: { tagName: 'INPUT' } })), false);
  assert.equal(k.handle(event('f', { ctrlKey: true })), false);
  assert.equal(ran, 0);
});

test('a later binding of a key replaces the earlier one', () => {
  const k = new KeyMap();
  let which = '';
  k.bind('p', 'first', () => {
    which = 'first';
  });
  k.bind('p', 'second', () => {
    which = 'second';
  });
  k.handle(event('p'));
  assert.equal(which, 'second');
});
