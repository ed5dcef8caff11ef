import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseLine } from '../src/csv.js';

test('plain fields', () => {
  assert.deepEqual(parseLine('a,b,,c'), ['a', 'b', '', 'c']);
});

test('quoted fields keep commas and doubled quotes', () => {
  assert.deepEqual(parseLine('1,"Smith, Jane",x'), ['1', 'Smith, Jane', 'x']);
  assert.deepEqual(parseLine('"say ""hi""",2'), ['say "hi"', '2']);
});
