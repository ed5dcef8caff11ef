import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDuration } from '../src/duration.js';

test('seconds and minutes still work', () => {
  assert.equal(parseDuration('90s'), 90);
  assert.equal(parseDuration('5m'), 300);
});

test('hours and compound durations', () => {
  assert.equal(parseDuration('2h'), 7200);
  assert.equal(parseDuration('1h30m'), 5400);
  assert.equal(parseDuration('1m5s'), 65);
});

test('rejects garbage', () => {
  assert.throws(() => parseDuration('soon'));
  assert.throws(() => parseDuration(''));
});
