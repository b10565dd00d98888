// The viewer state: every change emits one event naming what changed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ViewerState } from '../src/state.js';

test('changes emit one event each, naming what changed', () => {
  const s = new ViewerState(3);
  const events = [];
  s.on((what, state) => events.push([what, state.node, state.graph]));
  s.setGraph(2);
  s.select({ node: 5 });
  s.setMatches([1, 2]);
  s.setMatches([]);
  s.toggleCategory(1);
  assert.equal(s.showShapes, true, 'shapes start on (drawn where they fit)');
  assert.equal(s.flatten, false, 'module boxes start shown');
  s.setDisplay('showShapes', false);
  assert.deepEqual(
    events.map((e) => e[0]),
    ['graph', 'selection', 'matches', 'matches', 'categories', 'display'],
  );
  assert.deepEqual(events[1], ['selection', 5, 2]);
  assert.equal(s.matches, null, 'no matches is null');
  assert.equal(s.catHidden[1], 1);
  assert.equal(s.showShapes, false);
});

test('switching graphs clears the selection and matches', () => {
  const s = new ViewerState(1);
  s.select({ node: 3 });
  s.setMatches([3]);
  s.setGraph(1);
  assert.equal(s.node, -1);
  assert.equal(s.matches, null);
});
