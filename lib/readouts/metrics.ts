/** The per-sample quantities the comparison charts can overlay, per lab. Pure. */
import { DEFAULT_LAB, labSchema } from '../../labs/schemas';
import type { Sample } from '../protocol';

/** Every metric of every lab; each lab offers its own list (its schema's `metrics`, in its picker's order: the first is the one a chart opens with). */
export const ALL_METRICS = [
  'arrayBuffers',
  'rss',
  'heapUsed',
  'external',
  'heapTotal',
  'buffered',
  'cpuPct',
  'elu',
  'writableBytes',
  'reqPerSec',
  'latencyP50Ms',
  'latencyP99Ms',
  'loadCpuPct',
  'treeRss',
  'treeCpuPct',
  'pingMs',
  'latenessP99Ms',
  'latenessMaxMs',
  'completedRps',
  'probeMs',
] as const;
export type ComparisonMetric = (typeof ALL_METRICS)[number];

/** The default lab's metrics (what the comparison picker offered before labs). */
export function defaultMetrics(): readonly ComparisonMetric[] {
  return labSchema(DEFAULT_LAB)?.metrics ?? ALL_METRICS;
}

export const METRIC_LABELS: Record<ComparisonMetric, string> = {
  arrayBuffers: 'arrayBuffers',
  rss: 'rss',
  heapUsed: 'heapUsed',
  external: 'external',
  heapTotal: 'heapTotal',
  buffered: 'buffered (bytesRead − bytesProcessed)',
  cpuPct: 'CPU (% of one core)',
  elu: 'event-loop utilization',
  writableBytes: 'socket buffers (writableLength of open responses)',
  reqPerSec: 'responses per second',
  latencyP50Ms: 'latency p50',
  latencyP99Ms: 'latency p99',
  loadCpuPct: 'load generator CPU (% of one core)',
  treeRss: 'RSS of the process tree',
  treeCpuPct: 'CPU of the process tree (% of one core)',
  pingMs: '/ping round trip',
  latenessP99Ms: 'timer lateness p99 (last second)',
  latenessMaxMs: 'timer lateness max (last second)',
  completedRps: 'requests answered per second',
  probeMs: '/health probe round trip',
};

/** What each metric is measured in (the chart picks its display unit from this). */
export type MetricUnit = 'bytes' | 'percent' | 'ratio' | 'ms' | 'perSec';
export const METRIC_UNITS: Record<ComparisonMetric, MetricUnit> = {
  arrayBuffers: 'bytes',
  rss: 'bytes',
  heapUsed: 'bytes',
  external: 'bytes',
  heapTotal: 'bytes',
  buffered: 'bytes',
  cpuPct: 'percent',
  elu: 'ratio',
  writableBytes: 'bytes',
  reqPerSec: 'perSec',
  latencyP50Ms: 'ms',
  latencyP99Ms: 'ms',
  loadCpuPct: 'percent',
  treeRss: 'bytes',
  treeCpuPct: 'percent',
  pingMs: 'ms',
  latenessP99Ms: 'ms',
  latenessMaxMs: 'ms',
  completedRps: 'perSec',
  probeMs: 'ms',
};

/**
 * The metric's value in its unit; "buffered" is how far the reader is ahead of the consumer.
 * NaN (a gap) where a sample lacks the reading: CPU and utilization in samples recorded before
 * they were measured, another lab's readings.
 */
export function metricValue(sample: Sample, metric: ComparisonMetric): number {
  if (metric === 'buffered') return sample.bytesRead === undefined ? Number.NaN : Math.max(0, sample.bytesRead - sample.bytesProcessed);
  return sample[metric] ?? Number.NaN;
}

/** Type guard for values coming from a <select> or a link. */
export function isComparisonMetric(value: string): value is ComparisonMetric {
  return (ALL_METRICS as readonly string[]).includes(value);
}

/** The metrics a comparison of these labs' runs offers: each lab's in its order, without repeats. */
export function metricsOfLabs(labs: readonly string[]): ComparisonMetric[] {
  return [...new Set(labs.flatMap((lab) => labSchema(lab)?.metrics ?? []))];
}
