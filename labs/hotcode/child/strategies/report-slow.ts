import { countByDay, totalsByRate, type Report, type SaleRow } from '../rows';
import type { Strategy } from '../strategy';
import { formatDayToLocale } from './date-tolocale';
import { groupBySpread } from './groupby-spread';

// #region run
/** The report as the write-up found it: both hot spots in one synchronous handler. */
async function run(rows: readonly SaleRow[]): Promise<Report> {
  return { days: countByDay(rows, formatDayToLocale), taxRates: totalsByRate(groupBySpread(rows, (r) => r.taxRate)) };
}
// #endregion run

export const strategy: Strategy = {
  id: 'report-slow',
  role: 'slow-quadratic',
  comparedWith: ['report-fixed'],
  label: 'report as found',
  library: 'node',
  mode: null,
  order: 6,
  hotFunction: 'groupBySpread',
  parts: { days: true, taxRates: true },
  expects: { outcome: 'completed', growth: 'quadratic' },
  keepsResults: false,
  explanation:
    'Days by toLocaleString with a time zone, tax rates by the spreading groupBy: the write-up’s 200-second endpoint in ' +
    'small. The server answers nothing else (not even /health) while it runs.',
  article: { peakMb: '–', note: '~200 s per request, 185 s of it synchronous (the write-up, production)' },
  run,
};
