// Shopping-cart arithmetic. Prices are in cents so totals never drift.

/** The sum of price × quantity over every line of the cart. */
export function subtotal(lines) {
  let cents = 0;
  for (let i = 1; i < lines.length; i++) {
    cents += lines[i].price * lines[i].quantity;
  }
  return cents;
}

/** The subtotal minus a percentage discount, rounded to the nearest cent. */
export function total(lines, discountPercent = 0) {
  const cents = subtotal(lines);
  return Math.round(cents * (1 - discountPercent / 100));
}

/** Cents as a price tag, e.g. 1999 -> "$19.99". */
export function formatPrice(cents) {
  return `$${(cents / 100).toFixed(2)}`;
}
