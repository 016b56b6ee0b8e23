/** The http lab's table in the bench CLI's output (one row per run). */
import type { HttpSummary } from '../shared/schema';
import type { BenchTable } from '../../types';
import type { StrategyBase } from '../../types';

const mb = (bytes: number | null) => (bytes === null ? '-' : (bytes / 1024 / 1024).toFixed(1));

/** The HTTP lab's table: the server under test's peaks, the load's throughput and latencies. */
/** `strategies`: the lab's own (for each run's mode and the article's figure), passed in: importing the registry here would be an import cycle. */
export function benchTable(summaries: readonly HttpSummary[], strategies: readonly StrategyBase[]): BenchTable {
  const header = [
    'strategy',
    'outcome',
    'peak rss',
    'heapUsed',
    'external',
    'arrayBuf',
    'socket buf',
    'req/s',
    'p50 ms',
    'p99 ms',
    'ttfb p50',
    'xfer p50',
    'ok',
    'bad',
    'el max ms',
    'time s',
    'article',
  ];
  const rows = summaries.map((s) => {
    const st = strategies.find((x) => x.id === s.strategy);
    return [
      s.strategy,
      s.outcome,
      mb(s.peak?.rss ?? null),
      mb(s.peak?.heapUsed ?? null),
      mb(s.peak?.external ?? null),
      mb(s.peak?.arrayBuffers ?? null),
      mb(s.peakWritableBytes),
      s.reqPerSec === null ? '-' : s.reqPerSec.toFixed(2),
      // Not measured (null): '-', as the rate's.
      ...[s.latencyP50Ms, s.latencyP99Ms, s.ttfbP50Ms, s.transferP50Ms].map((ms) => (ms === null ? '-' : ms.toFixed(0))),
      String(s.responsesOk),
      String(s.badResponses),
      s.eventLoopDelayMs.max.toFixed(0),
      (s.durationMs / 1000).toFixed(1),
      st?.article ? `${st.article.peakMb} MB` : '',
    ];
  });
  return { header, rows };
}
