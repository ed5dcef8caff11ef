import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatPrice, subtotal, total } from '../src/cart.js';

const cart = [
  { name: 'notebook', price: 450, quantity: 2 },
  { name: 'pen', price: 120, quantity: 3 },
  { name: 'stapler', price: 1599, quantity: 1 },
];

test('subtotal adds every line', () => {
  assert.equal(subtotal(cart), 900 + 360 + 1599);
});

test('an empty cart costs nothing', () => {
  assert.equal(subtotal([]), 0);
});

test('total applies the discount', () => {
  assert.equal(total(cart, 10), Math.round(2859 * 0.9));
});

test('formatPrice shows dollars and cents', () => {
  assert.equal(formatPrice(1999), '$19.99');
  assert.equal(formatPrice(5), '$0.05');
});
