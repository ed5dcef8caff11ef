import { expect, test } from 'vitest';
import { findKeyLine } from '../../src/config/locate.js';

const doc = [
  'model = "m"', // 1
  'a.b.c = 1', // 2
  '"quoted.key" = 2', // 3
  'long = """', // 4
  'x = 1 is text here', // 5
  '"""', // 6
  'list = [', // 7
  '  "y = 2",', // 8
  ']', // 9
  '[tbl]', // 10
  'k = { inner = 1 }', // 11
  '[ tbl . "sub" ]  # comment', // 12
  "'lit' = 3", // 13
  '[[arr]]', // 14
  'n = 1', // 15
  '[[arr]]', // 16
  'n = 2', // 17
  '[deep.only]', // 18
  'z = 0', // 19
].join('\n');

test.each([
  [['model'], 1],
  [['a', 'b', 'c'], 2],
  [['a'], 2],
  [['quoted.key'], 3],
  [['long'], 4],
  [['x'], undefined],
  [['y'], undefined],
  [['list', 0], 7],
  [['tbl'], 10],
  [['tbl', 'k', 'inner'], 11],
  [['tbl', 'sub', 'lit'], 13],
  [['tbl', 'sub'], 12],
  [['arr', 1, 'n'], 17],
  [['arr', 0, 'n'], 15],
  [['deep'], 18],
  [['nowhere'], undefined],
])('%j is on line %s', (path, line) => {
  expect(findKeyLine(doc, path)).toBe(line);
});
