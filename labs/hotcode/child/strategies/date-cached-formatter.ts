import { countByDay, dayKeyFromUs, type Report, type SaleRow } from '../rows';
import type { Strategy } from '../strategy';

// #region run
const cache = new Map<string, Intl.DateTimeFormat>();

/** The write-up's fix: one Intl.DateTimeFormat per (locales, options), reused. */
function memoizedDateFormat(locales: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = JSON.stringify({ locales, options });
  const cached = cache.get(key);
  if (cached) return cached;
  const formatOptions: Intl.DateTimeFormatOptions = {
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  };
  const dateFormat = new Intl.DateTimeFormat(locales, { ...formatOptions, ...options });
  cache.set(key, dateFormat);
  return dateFormat;
}

export function formatDayCached(at: number): string {
  return dayKeyFromUs(memoizedDateFormat('en-US', { timeZone: 'Asia/Tokyo' }).format(at));
}

async function run(rows: readonly SaleRow[]): Promise<Report> {
  return { days: countByDay(rows, formatDayCached), taxRates: null };
}
// #endregion run

export const strategy: Strategy = {
  id: 'date-cached-formatter',
  role: 'fix',
  label: 'cached Intl.DateTimeFormat',
  library: 'node',
  mode: null,
  order: 2,
  hotFunction: null,
  parts: { days: true, taxRates: false },
  expects: { outcome: 'completed', growth: 'linear' },
  keepsResults: false,
  explanation:
    'The same day keys through one Intl.DateTimeFormat kept in a Map (the write-up’s memoizedDateFormat): the formatter ' +
    'is built once, each row only formats.',
  article: { peakMb: '–', note: '1e6 calls 0.7 s, ~40× faster (the write-up); 1e5 0.30 s measured here by hand' },
  run,
};
