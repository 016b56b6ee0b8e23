/** The per-sample quantities the comparison chart can overlay. Pure. */
import type { Sample } from './protocol';

export const COMPARISON_METRICS = ['arrayBuffers', 'rss', 'heapUsed', 'external', 'heapTotal', 'buffered'] as const;
export type ComparisonMetric = (typeof COMPARISON_METRICS)[number];

export const METRIC_LABELS: Record<ComparisonMetric, string> = {
  arrayBuffers: 'arrayBuffers',
  rss: 'rss',
  heapUsed: 'heapUsed',
  external: 'external',
  heapTotal: 'heapTotal',
  buffered: 'buffered (bytesRead − bytesProcessed)',
};

/** The metric's value in bytes; "buffered" is how far the reader is ahead of the consumer. */
export function metricValue(sample: Sample, metric: ComparisonMetric): number {
  return metric === 'buffered' ? Math.max(0, sample.bytesRead - sample.bytesProcessed) : sample[metric];
}

/** Type guard for values coming from a <select>. */
export function isComparisonMetric(value: string): value is ComparisonMetric {
  return (COMPARISON_METRICS as readonly string[]).includes(value);
}
