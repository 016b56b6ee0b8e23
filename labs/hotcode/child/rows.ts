/**
 * The report's data and the pieces its strategies share: synthetic sales rows (a month of them,
 * nearly all at the 10 % tax rate as in the write-up), the day key, and the report's shape.
 * Child side, no imports.
 */

export interface SaleRow {
  id: number;
  /** ms since the epoch. */
  at: number;
  amount: number;
  /** 0.1 for 49 rows in 50, 0.08 (the reduced rate) for the rest: few keys, so each group is huge. */
  taxRate: number;
}

const MONTH_START = Date.UTC(2024, 0, 1);
const MONTH_MS = 31 * 24 * 3600 * 1000;

/** `n` rows, the same for the same n (a tiny LCG: no dependency, no Math.random). */
export function makeRows(n: number): SaleRow[] {
  const rows: SaleRow[] = new Array(n);
  let seed = 12345;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let i = 0; i < n; i++) {
    rows[i] = { id: i, at: MONTH_START + Math.floor(next() * MONTH_MS), amount: 100 + Math.floor(next() * 9900), taxRate: i % 50 === 49 ? 0.08 : 0.1 };
  }
  return rows;
}

/** What a report found: rows per day (Tokyo time) and per tax rate. Either part may be absent (a strategy that only does the other). */
export interface Report {
  days: Record<string, number> | null;
  taxRates: Record<string, { count: number; total: number }> | null;
}

/** "1/31/2024, 11:00:00 PM" (en-US) → "2024-01-31": the day key every date strategy reports. */
export function dayKeyFromUs(formatted: string): string {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})/.exec(formatted);
  if (!m) throw new Error(`unexpected date text "${formatted}"`);
  return `${m[3]}-${m[1].padStart(2, '0')}-${m[2].padStart(2, '0')}`;
}

/** Counts rows by day key. */
export function countByDay(rows: readonly SaleRow[], dayOf: (at: number) => string): Record<string, number> {
  const days: Record<string, number> = {};
  for (const row of rows) {
    const day = dayOf(row.at);
    days[day] = (days[day] ?? 0) + 1;
  }
  return days;
}

/** Folds the groups of a groupBy into counts and totals per tax rate. */
export function totalsByRate(groups: Map<number, SaleRow[]>): Record<string, { count: number; total: number }> {
  const out: Record<string, { count: number; total: number }> = {};
  for (const [rate, rows] of groups) out[String(rate)] = { count: rows.length, total: rows.reduce((s, r) => s + r.amount, 0) };
  return out;
}
