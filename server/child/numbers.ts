/**
 * Small numeric helpers every lab's child side uses (load generators, timers, mock services): one
 * definition each, so the labs' percentiles agree and a seed means the same numbers everywhere.
 * Plain functions: no imports, safe in any child.
 */

/** The p-th percentile (nearest rank) of values already sorted ascending; 0 for none. */
export function percentileSorted(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** The p-th percentile (nearest rank) of `values` in any order; 0 for none. */
export function percentile(values: readonly number[], p: number): number {
  return percentileSorted(
    [...values].sort((a, b) => a - b),
    p,
  );
}

/** mulberry32: a tiny seeded generator of numbers in [0, 1), so the same seed always gives the same sequence. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A standard normal draw (Box–Muller) from a generator of numbers in [0, 1). */
export function standardNormal(random: () => number): number {
  // 1 - random(): the generator may give 0, whose log is -Infinity; it never gives 1.
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/** A log-normal draw: `median` times e^(sigma·z), so half the draws fall below the median. */
export function logNormal(random: () => number, median: number, sigma: number): number {
  return median * Math.exp(sigma * standardNormal(random));
}

/** z of the 99th percentile of the standard normal. */
const Z_P99 = 2.3263;

/** The sigma of a log-normal whose median and 99th percentile are these; 0 (no spread) when p99 is not above the median. */
export function logNormalSigma(median: number, p99: number): number {
  return median > 0 && p99 > median ? Math.log(p99 / median) / Z_P99 : 0;
}
