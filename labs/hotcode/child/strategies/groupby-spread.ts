import { totalsByRate, type Report, type SaleRow } from '../rows';
import type { Strategy } from '../strategy';

// #region run
/** The write-up's groupByMap: copies the group's array on every row, so one big group is O(n²). */
export function groupBySpread<T, U>(array: readonly T[], callbackFn: (value: T) => U): Map<U, T[]> {
  const result = new Map<U, T[]>();
  for (const value of array) {
    const key = callbackFn(value);
    const values = result.get(key) ?? [];
    result.set(key, [...values, value]);
  }
  return result;
}

async function run(rows: readonly SaleRow[]): Promise<Report> {
  return { days: null, taxRates: totalsByRate(groupBySpread(rows, (r) => r.taxRate)) };
}
// #endregion run

export const strategy: Strategy = {
  id: 'groupby-spread',
  role: 'slow-quadratic',
  comparedWith: ['groupby-push'],
  label: 'groupBy with [...values, value]',
  library: 'node',
  mode: null,
  order: 4,
  hotFunction: 'groupBySpread',
  parts: { days: false, taxRates: true },
  expects: { outcome: 'completed', growth: 'quadratic' },
  keepsResults: false,
  explanation:
    'Groups rows by tax rate, copying the group’s array with spread for every row. Nearly every row has the 10 % rate, ' +
    'so one group grows to n rows and the copies add up to n²/2 elements.',
  article: { peakMb: '–', note: '1e5 rows, one key: 8.8 s (the write-up); 104 s measured here by hand' },
  run,
};
