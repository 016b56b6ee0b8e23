/**
 * The statistics repeated bench runs are summed up and compared with (issue 28): median, min, max
 * and spread of a figure, and the Mann–Whitney U test, which asks whether one set of runs tends to
 * give larger values than another without assuming a distribution (run times and peaks are skewed).
 */

export interface Spread {
  n: number;
  median: number;
  min: number;
  max: number;
  /** (max − min) / median: how far apart the runs landed, as a share of the median; 0 when the median is 0. */
  spread: number;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function spreadOf(values: readonly number[]): Spread {
  const m = median(values);
  const min = Math.min(...values);
  const max = Math.max(...values);
  return { n: values.length, median: m, min, max, spread: m !== 0 ? (max - min) / Math.abs(m) : 0 };
}

export interface MannWhitney {
  /** U of the first sample: how many (a, b) pairs have a > b, ties counting one half. */
  u: number;
  /** Two-sided p-value: exact when there are no ties and both samples are small, else the normal approximation with tie and continuity corrections. */
  p: number;
  exact: boolean;
}

/** Above this many runs a side, the normal approximation is close enough and the exact count too big. */
const EXACT_MAX = 25;

/**
 * How many orderings of k values against n others (no ties) give each U (0 … k·n). The largest
 * value of all is either the first sample's, beating all n others (U gains n), or not:
 * c(k, n, u) = c(k − 1, n, u − n) + c(k, n − 1, u).
 */
function uCounts(k: number, n: number): number[] {
  const memo = new Map<string, number[]>();
  const counts = (a: number, b: number): number[] => {
    if (a === 0 || b === 0) return [1];
    const key = `${a},${b}`;
    const hit = memo.get(key);
    if (hit) return hit;
    const withLast = counts(a - 1, b); // the largest value belongs to the first sample: adds b to U
    const without = counts(a, b - 1);
    const out = new Array<number>(a * b + 1).fill(0);
    withLast.forEach((c, u) => (out[u + b] += c));
    without.forEach((c, u) => (out[u] += c));
    memo.set(key, out);
    return out;
  };
  return counts(k, n);
}

function normalTail(z: number): number {
  // Upper tail of the standard normal, Abramowitz & Stegun 7.1.26 (error below 1.5e-7).
  const t = 1 / (1 + 0.3275911 * Math.abs(z) * Math.SQRT1_2);
  const erfc = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))) * Math.exp(-(z * z) / 2);
  return z >= 0 ? erfc / 2 : 1 - erfc / 2;
}

/** The Mann–Whitney U test of `a` against `b` (two-sided). Both need at least one value. */
export function mannWhitney(a: readonly number[], b: readonly number[]): MannWhitney {
  const n1 = a.length;
  const n2 = b.length;
  if (n1 === 0 || n2 === 0) throw new RangeError('mannWhitney: both samples need values');
  let u = 0;
  for (const x of a)
    for (const y of b) {
      if (x > y) u += 1;
      else if (x === y) u += 0.5;
    }
  // The exact table counts orderings of distinct values: any tie, within a sample or across, breaks it.
  const ties = new Set([...a, ...b]).size < n1 + n2;
  if (!ties && n1 <= EXACT_MAX && n2 <= EXACT_MAX) {
    const counts = uCounts(n1, n2);
    const total = counts.reduce((s, c) => s + c, 0);
    const low = Math.min(u, n1 * n2 - u);
    let tail = 0;
    for (let k = 0; k <= low; k++) tail += counts[k];
    return { u, p: Math.min(1, (2 * tail) / total), exact: true };
  }
  return { u, p: normalP(u, a, b), exact: false };
}

/** The normal approximation's two-sided p for U of `a` against `b`; the variance loses a little for every group of tied values. */
export function normalP(u: number, a: readonly number[], b: readonly number[]): number {
  const [n1, n2] = [a.length, b.length];
  const all = [...a, ...b].sort((x, y) => x - y);
  let tieTerm = 0;
  for (let i = 0; i < all.length;) {
    let j = i;
    while (j < all.length && all[j] === all[i]) j++;
    const t = j - i;
    tieTerm += t ** 3 - t;
    i = j;
  }
  const n = n1 + n2;
  const mean = (n1 * n2) / 2;
  const variance = ((n1 * n2) / 12) * (n + 1 - tieTerm / (n * (n - 1)));
  if (variance <= 0) return 1; // every value equal: no difference to find
  const z = (Math.abs(u - mean) - 0.5) / Math.sqrt(variance);
  return Math.min(1, 2 * normalTail(Math.max(0, z)));
}
