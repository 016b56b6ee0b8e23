/** The streams lab's table in the bench CLI's output (one row per run). */
import type { StreamsSummary } from '../shared/schema';
import type { BenchTable } from '../../types';
import type { StrategyBase } from '../../types';

const mb = (bytes: number | null) => (bytes === null ? '-' : (bytes / 1024 / 1024).toFixed(1));

/** `strategies`: the lab's, built-in and yours (for each run's mode and the article's figure), passed in: importing the registry here would be an import cycle. */
export function benchTable(summaries: readonly StreamsSummary[], strategies: readonly StrategyBase[]): BenchTable {
  const header = [
    'strategy',
    'mode',
    'outcome',
    'peak rss',
    'heapUsed',
    'external',
    'arrayBuf',
    'rss-idle',
    'buffered',
    'time s',
    'MB/s',
    'rec/s',
    'in flight',
    'article',
  ];
  const rows = summaries.map((s) => {
    const st = strategies.find((x) => x.id === s.strategy);
    return [
      s.strategy,
      st?.mode ?? '?',
      s.outcome,
      mb(s.peak?.rss ?? null),
      mb(s.peak?.heapUsed ?? null),
      mb(s.peak?.external ?? null),
      mb(s.peak?.arrayBuffers ?? null),
      s.aboveIdle ? mb(s.aboveIdle.rss) : '-',
      mb(s.peakBufferedBytes),
      (s.durationMs / 1000).toFixed(1),
      s.mbPerSec === null ? '-' : s.mbPerSec.toFixed(1),
      // Runs recorded before the consumers (#30) have no records figure, a run that never started no rate.
      s.recordsPerSec === undefined || s.recordsPerSec === null ? '-' : Math.round(s.recordsPerSec).toLocaleString('en-US'),
      String(s.peakInFlight),
      st?.article ? `${st.article.peakMb} MB` : '',
    ];
  });
  return { header, rows };
}
