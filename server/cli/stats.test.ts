import { describe, expect, it } from 'vitest';
import { mannWhitney, median, normalP, spreadOf } from './stats';

describe('bench statistics', () => {
  it('median, min, max and spread of a figure', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(spreadOf([90, 100, 110, 100, 95])).toEqual({ n: 5, median: 100, min: 90, max: 110, spread: 0.2 });
    expect(spreadOf([0, 0]).spread).toBe(0);
  });

  // Reference p-values: the exact null distribution of U for 5 against 5 (252 orderings), as
  // tabulated (e.g. scipy.stats.mannwhitneyu(method="exact") gives the same two).
  it('exact p for small samples without ties', () => {
    expect(mannWhitney([1, 2, 3, 4, 5], [6, 7, 8, 9, 10])).toEqual({ u: 0, p: 2 / 252, exact: true });
    expect(mannWhitney([6, 7, 8, 9, 10], [1, 2, 3, 4, 5]).p).toBeCloseTo(2 / 252, 12);
    const interleaved = mannWhitney([1, 3, 5, 7, 9], [2, 4, 6, 8, 10]);
    expect(interleaved.u).toBe(10);
    expect(interleaved.p).toBeCloseTo(174 / 252, 12);
    // One side of 3 against 3: the smallest two-sided p there is, 2/20.
    expect(mannWhitney([1, 2, 3], [4, 5, 6]).p).toBeCloseTo(0.1, 12);
  });

  it('the normal approximation agrees with the exact count where both apply', () => {
    const a = Array.from({ length: 12 }, (_, i) => i * 2 + 1.5);
    const b = Array.from({ length: 12 }, (_, i) => i * 2 + 4);
    const exact = mannWhitney(a, b);
    expect(exact.exact).toBe(true);
    expect(Math.abs(normalP(exact.u, a, b) - exact.p)).toBeLessThan(0.01);
  });

  it('ties: normal approximation, and all-equal samples are no difference (p = 1)', () => {
    // A tie inside one sample breaks the exact table as much as one across the samples.
    expect(mannWhitney([1, 1, 2, 3, 4], [5, 6, 7, 8, 9]).exact).toBe(false);
    const tied = mannWhitney([1, 1, 2, 2, 3], [2, 3, 3, 4, 4]);
    expect(tied.exact).toBe(false);
    expect(tied.p).toBeGreaterThan(0.05);
    expect(tied.p).toBeLessThan(0.5);
    expect(mannWhitney([5, 5, 5], [5, 5, 5]).p).toBe(1);
    expect(() => mannWhitney([], [1])).toThrow(RangeError);
  });
});
