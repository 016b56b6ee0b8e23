import { countByDay, dayKeyFromUs, type Report, type SaleRow } from '../rows';
import type { Strategy } from '../strategy';

// #region run
/** The write-up's first hot spot: every call builds an Intl.DateTimeFormat for the time zone. */
export function formatDayToLocale(at: number): string {
  return dayKeyFromUs(new Date(at).toLocaleString('en-US', { timeZone: 'Asia/Tokyo' }));
}

async function run(rows: readonly SaleRow[]): Promise<Report> {
  return { days: countByDay(rows, formatDayToLocale), taxRates: null };
}
// #endregion run

export const strategy: Strategy = {
  id: 'date-tolocale',
  role: 'slow-linear',
  comparedWith: ['date-cached-formatter', 'date-iso'],
  label: 'toLocaleString + timeZone',
  library: 'node',
  mode: null,
  order: 1,
  hotFunction: 'formatDayToLocale',
  parts: { days: true, taxRates: false },
  expects: { outcome: 'completed', growth: 'linear' },
  keepsResults: false,
  explanation:
    'Counts rows per day in Tokyo time with date.toLocaleString("en-US", { timeZone }). Each call makes a new ' +
    'Intl.DateTimeFormat (loading locale and time-zone data): linear, but with a very large constant.',
  article: { peakMb: '–', note: '1e6 calls 27.7 s (the write-up); 1e5 calls 8.48 s measured here by hand' },
  run,
};
