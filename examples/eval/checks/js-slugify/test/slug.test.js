import { test } from 'node:test';
import assert from 'node:assert/strict';
import { slugify } from '../src/slug.js';

test('one dash between words', () => {
  assert.equal(slugify('Hello, World!'), 'hello-world');
});

test('no dashes at the ends', () => {
  assert.equal(slugify('  Rig  eval  '), 'rig-eval');
  assert.equal(slugify('v2'), 'v2');
});
