/** The per-sample quantities the comparison chart can overlay. Pure. */
import type { Sample } from '../protocol';

export const COMPARISON_METRICS = ['arrayBuffers', 'rss', 'heapUsed', 'external', 'heapTotal', 'buffered', 'cpuPct', 'elu'] as const;
export type ComparisonMetric = (typeof COMPARISON_METRICS)[number];

export const METRIC_LABELS: Record<ComparisonMetric, string> = {
  arrayBuffers: 'arrayBuffers',
  rss: 'rss',
  heapUsed: 'heapUsed',
  external: 'external',
  heapTotal: 'heapTotal',
  buffered: 'buffered (bytesRead − bytesProcessed)',
  cpuPct: 'CPU (% of one core)',
  elu: 'event-loop utilization',
};

/** What each metric is measured in (the chart picks its display unit from this). */
export const METRIC_UNITS: Record<ComparisonMetric, 'bytes' | 'percent' | 'ratio'> = {
  arrayBuffers: 'bytes',
  rss: 'bytes',
  heapUsed: 'bytes',
  external: 'bytes',
  heapTotal: 'bytes',
  buffered: 'bytes',
  cpuPct: 'percent',
  elu: 'ratio',
};

/**
 * The metric's value in its unit; "buffered" is how far the reader is ahead of the consumer.
 * CPU and utilization are NaN (a gap) in samples recorded before they were measured.
 */
export function metricValue(sample: Sample, metric: ComparisonMetric): number {
  if (metric === 'buffered') return Math.max(0, sample.bytesRead - sample.bytesProcessed);
  return sample[metric] ?? Number.NaN;
}

/** Type guard for values coming from a <select>. */
export function isComparisonMetric(value: string): value is ComparisonMetric {
  return (COMPARISON_METRICS as readonly string[]).includes(value);
}
