import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mergeSettings } from '../src/merge.js';

test('nested tables merge key by key', () => {
  const merged = mergeSettings({ ui: { theme: 'dark', size: 12 } }, { ui: { size: 14 } });
  assert.deepEqual(merged, { ui: { theme: 'dark', size: 14 } });
});

test('arrays are replaced, inputs are not changed', () => {
  const base = { list: [1, 2], nested: { a: 1 } };
  const merged = mergeSettings(base, { list: [3], nested: { b: 2 } });
  assert.deepEqual(merged, { list: [3], nested: { a: 1, b: 2 } });
  assert.deepEqual(base, { list: [1, 2], nested: { a: 1 } });
});
