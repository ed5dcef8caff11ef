// The report's statistics against values worked out by hand or published, and their edge cases.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mcnemarExact, median, quantile, wilsonInterval } from '../../src/eval/stats.js';
import { costUsd } from '../../src/eval/prices.js';

describe('wilsonInterval', () => {
  it('matches the published 95% interval for 8 of 10 and stays inside [0, 1] at the ends', () => {
    const [lo, hi] = wilsonInterval(8, 10);
    expect(lo).toBeCloseTo(0.4902, 3);
    expect(hi).toBeCloseTo(0.9433, 3);
    expect(wilsonInterval(0, 10)[0]).toBe(0);
    expect(wilsonInterval(0, 10)[1]).toBeCloseTo(0.2775, 3);
    expect(wilsonInterval(10, 10)[1]).toBe(1);
    expect(wilsonInterval(0, 0)).toEqual([0, 1]);
  });

  it('always contains the observed rate', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 500 }), fc.double({ min: 0, max: 1, noNaN: true }), (n, share) => {
        const passed = Math.round(share * n);
        const [lo, hi] = wilsonInterval(passed, n);
        return lo >= 0 && hi <= 1 && lo <= passed / n + 1e-12 && hi >= passed / n - 1e-12;
      }),
    );
  });
});

describe('mcnemarExact', () => {
  it('is the two-sided binomial tail of the discordant pairs', () => {
    expect(mcnemarExact(0, 0)).toBe(1);
    expect(mcnemarExact(3, 3)).toBe(1);
    // 0 vs 6: 2 * 0.5^6
    expect(mcnemarExact(0, 6)).toBeCloseTo(0.03125, 10);
    // 1 vs 9: 2 * (1 + 10) / 1024
    expect(mcnemarExact(9, 1)).toBeCloseTo(22 / 1024, 10);
    expect(mcnemarExact(2, 3)).toBe(1);
    expect(mcnemarExact(0, 200)).toBeLessThan(1e-50);
  });
});

describe('quantiles and prices', () => {
  it('median and p90 interpolate', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
    expect(quantile([0, 10], 0.9)).toBeCloseTo(9);
  });

  it('prices cached input at its own rate, falls back to the model name after a provider prefix, and is null without a price', () => {
    const table = { 'gpt-x': { input: 2, cached_input: 0.5, output: 8 } };
    expect(costUsd(table, 'gpt-x', { input: 1_000_000, cached_input: 400_000, output: 100_000, reasoning: 50_000 })).toBeCloseTo(1.2 + 0.2 + 0.8, 8);
    expect(costUsd(table, 'openai/gpt-x', { input: 1_000_000, cached_input: 0, output: 0, reasoning: 0 })).toBeCloseTo(2, 8);
    expect(costUsd(table, 'other', { input: 1, cached_input: 0, output: 1, reasoning: 0 })).toBeNull();
  });
});
