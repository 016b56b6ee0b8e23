/**
 * The hot-code lab's chart series, as configuration for TimeChart: what /health waited (the lab's
 * point: a blocked event loop is a wait for every other request) beside the server's event-loop
 * delay, and the CPU and heap of the server while its reports run. Pure.
 */
import type { Sample } from '@/lib/protocol';
import { EXTRA_SERIES, memorySpecs, reading, type SeriesSpec } from '../../../components/charts/chart-lines';

/** The probe's wait, emphasised, with the event loop's own delay under it (both in ms). */
export const HOTCODE_PROBE_SERIES: readonly SeriesSpec<Sample>[] = [
  { key: 'probeMs', label: '/health probe round trip', unit: 'ms', color: '#D55E00', emphasis: true, value: reading('probeMs') },
  { ...EXTRA_SERIES.elMaxMs, label: 'server event-loop delay (max)' },
  EXTRA_SERIES.longTaskMs,
];

/** The second chart: CPU, or the heap the report builds. */
export const HOTCODE_VIEWS = [
  { id: 'cpu', label: 'CPU', specs: [EXTRA_SERIES.cpuPct] as readonly SeriesSpec<Sample>[] },
  { id: 'memory', label: 'Memory', specs: memorySpecs(['heapUsed', 'rss']) },
] as const;

export type HotcodeView = (typeof HOTCODE_VIEWS)[number]['id'];
