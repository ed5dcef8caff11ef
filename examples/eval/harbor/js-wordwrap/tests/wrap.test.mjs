import { test } from 'node:test';
import assert from 'node:assert/strict';
import { wrap } from '/app/wrap.js';

test('breaks at spaces', () => {
  assert.equal(wrap('the quick brown fox', 10), 'the quick\nbrown fox');
});

test('long words get their own line', () => {
  assert.equal(wrap('a extraordinarily b', 5), 'a\nextraordinarily\nb');
});

test('spaces collapse', () => {
  assert.equal(wrap('one   two', 20), 'one two');
  assert.equal(wrap('', 5), '');
});
