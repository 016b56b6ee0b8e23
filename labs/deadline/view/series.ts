/**
 * The deadlines lab's chart series, as configuration for TimeChart: the service's timer lateness
 * (p99 and max over the last second) with the event-loop delay under it, and in views that share a
 * unit the offered and completed rates, requests in flight, the answers by outcome, the loop's
 * utilization, CPU and RSS. Where the spike lies on the charts' time axis. Pure.
 */
import type { Sample } from '@/lib/protocol';
import { EXTRA_SERIES, memorySpecs, reading, type SeriesSpec } from '../../../components/charts/chart-lines';

/** The lab's main chart: how late the service's timers fired. */
export const DEADLINE_LATENESS_SERIES: readonly SeriesSpec<Sample>[] = [
  { key: 'latenessMaxMs', label: 'timer lateness (max, last second)', unit: 'ms', color: '#D55E00', emphasis: true, value: reading('latenessMaxMs') },
  { key: 'latenessP99Ms', label: 'timer lateness (p99, last second)', unit: 'ms', color: '#0072B2', dash: [6, 3], value: reading('latenessP99Ms') },
  { ...EXTRA_SERIES.elMaxMs, label: 'event-loop delay (max, per sample)', dash: [2, 3] },
];

const count = (key: string, label: string, color: string, dash?: number[]): SeriesSpec<Sample> => ({
  key,
  label,
  unit: 'count',
  color,
  dash,
  value: reading(key),
});

/** The second chart of a deadlines card: one view at a time, each in one unit. */
export const DEADLINE_LOAD_VIEWS = [
  {
    id: 'rates',
    label: 'Requests/s',
    specs: [
      { key: 'offeredRps', label: 'offered (sent on schedule)', unit: 'perSec', color: '#000000', dash: [6, 3], value: reading('offeredRps') },
      { key: 'completedRps', label: 'completed (any outcome)', unit: 'perSec', color: '#009E73', emphasis: true, value: reading('completedRps') },
    ],
  },
  { id: 'in-flight', label: 'In flight', specs: [count('inFlight', 'requests in flight', '#0072B2')] },
  {
    id: 'outcomes',
    label: 'Outcomes',
    specs: [
      count('onTime', 'on time', '#009E73'),
      count('late', 'late', '#D55E00'),
      count('timedOut', 'timed out', '#E69F00', [6, 3]),
      count('refused', 'refused', '#CC79A7', [2, 3]),
      count('errors', 'errors', '#000000', [2, 2]),
    ],
  },
  { id: 'elu', label: 'Loop use', specs: [{ ...EXTRA_SERIES.elu, emphasis: true }] },
  { id: 'cpu', label: 'CPU', specs: [{ ...EXTRA_SERIES.cpuPct, label: 'service CPU (main thread and pool)', emphasis: true }] },
  { id: 'rss', label: 'RSS', specs: memorySpecs(['rss', 'heapUsed']) },
] as const satisfies ReadonlyArray<{ id: string; label: string; specs: readonly SeriesSpec<Sample>[] }>;

export type DeadlineLoadView = (typeof DEADLINE_LOAD_VIEWS)[number]['id'];

/** The spike on the charts' axis (ms since the run's start), once the load has said when its schedule started; null before. */
export function spikeBand(params: { spikeStartS: number; spikeS: number }, scheduleStartMs: number | undefined): { fromMs: number; toMs: number } | null {
  if (scheduleStartMs === undefined || !(scheduleStartMs >= 0)) return null;
  const fromMs = scheduleStartMs + params.spikeStartS * 1000;
  return { fromMs, toMs: fromMs + params.spikeS * 1000 };
}
