import { countByDay, type Report, type SaleRow } from '../rows';
import type { Strategy } from '../strategy';

// #region run
const TOKYO_OFFSET_MS = 9 * 3600 * 1000;

/** Asia/Tokyo has had no daylight saving time since 1951: a fixed offset gives its day exactly. */
export function formatDayIso(at: number): string {
  return new Date(at + TOKYO_OFFSET_MS).toISOString().slice(0, 10);
}

async function run(rows: readonly SaleRow[]): Promise<Report> {
  return { days: countByDay(rows, formatDayIso), taxRates: null };
}
// #endregion run

export const strategy: Strategy = {
  id: 'date-iso',
  role: 'fix',
  label: 'toISOString (fixed offset)',
  library: 'node',
  mode: null,
  order: 3,
  hotFunction: null,
  parts: { days: true, taxRates: false },
  expects: { outcome: 'completed', growth: 'linear' },
  keepsResults: false,
  explanation: 'No Intl at all: shift by Tokyo’s fixed +9 h and take the ISO date. Right only for zones without daylight saving time.',
  article: { peakMb: '–', note: '1e6 toISOString 0.3 s (the write-up); 1e5 0.07 s measured here by hand' },
  run,
};
