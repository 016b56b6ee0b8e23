import { describe, expect, it } from 'vitest';
import { logNormal, logNormalSigma, percentile, prng } from './numbers';

describe('logNormal', () => {
  it('draws around the median and the 99th percentile its sigma was made from', () => {
    const random = prng(7);
    const draws = Array.from({ length: 100_000 }, () => logNormal(random, 20, logNormalSigma(20, 200)));
    // 100,000 draws: the sample p50 and p99 are within a few % of the true ones.
    expect(percentile(draws, 50)).toBeGreaterThan(19);
    expect(percentile(draws, 50)).toBeLessThan(21);
    expect(percentile(draws, 99)).toBeGreaterThan(180);
    expect(percentile(draws, 99)).toBeLessThan(220);
  });

  it('has no spread when the 99th percentile is not above the median, or the median is 0', () => {
    expect(logNormalSigma(20, 20)).toBe(0);
    expect(logNormalSigma(20, 5)).toBe(0);
    expect(logNormalSigma(0, 50)).toBe(0);
    expect(logNormal(prng(1), 20, 0)).toBe(20);
  });

  it('repeats its draws for the same seed', () => {
    const draw = (seed: number) => {
      const random = prng(seed);
      return Array.from({ length: 5 }, () => logNormal(random, 10, 0.7));
    };
    expect(draw(3)).toEqual(draw(3));
    expect(draw(3)).not.toEqual(draw(4));
  });
});
