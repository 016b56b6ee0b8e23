/**
 * The HTTP lab's chart series, as configuration for TimeChart: the server's memory with its socket
 * buffers (all bytes, one axis), and the load's view of it in groups that share a unit (latency in
 * ms, responses per second, CPU %, event-loop delay in ms). Pure.
 */
import type { Sample } from '@/lib/protocol';
import { EXTRA_SERIES, memorySpecs, reading, type SeriesSpec } from '../../../components/charts/chart-lines';

/**
 * Memory of the server under test, heapUsed emphasised (the rows and bodies a buffered response
 * holds live there), plus the bytes queued in its sockets (what a writer that ignores drain piles up).
 */
export const HTTP_MEMORY_SERIES: readonly SeriesSpec<Sample>[] = [
  ...memorySpecs(['heapUsed', 'external', 'arrayBuffers', 'rss']).map((spec) => ({ ...spec, emphasis: spec.key === 'heapUsed' })),
  { key: 'writableBytes', label: 'socket buffers', unit: 'bytes', color: '#E69F00', emphasis: true, dash: [2, 3], value: reading('writableBytes') },
];

/** The second chart of an HTTP card: one view at a time, each in one unit. */
export const HTTP_LOAD_VIEWS = [
  {
    id: 'latency',
    label: 'Latency',
    specs: [
      { key: 'latencyP50Ms', label: 'latency p50', unit: 'ms', color: '#0072B2', value: reading('latencyP50Ms') },
      { key: 'latencyP99Ms', label: 'latency p99', unit: 'ms', color: '#D55E00', dash: [6, 3], value: reading('latencyP99Ms') },
    ],
  },
  {
    id: 'throughput',
    label: 'Responses/s',
    specs: [{ key: 'reqPerSec', label: 'responses per second', unit: 'perSec', color: '#009E73', emphasis: true, value: reading('reqPerSec') }],
  },
  {
    id: 'cpu',
    label: 'CPU',
    specs: [
      { ...EXTRA_SERIES.cpuPct, label: 'server CPU' },
      { key: 'loadCpuPct', label: 'load generator CPU', unit: 'percent', color: '#E69F00', dash: [6, 3], value: reading('loadCpuPct') },
    ],
  },
  {
    id: 'loop',
    label: 'Event loop',
    specs: [
      EXTRA_SERIES.elMaxMs,
      { key: 'elMeanMs', label: 'event-loop delay (mean)', unit: 'ms', color: '#56B4E9', value: (s: Sample) => s.elMeanMs },
      EXTRA_SERIES.longTaskMs,
    ],
  },
] as const satisfies ReadonlyArray<{ id: string; label: string; specs: readonly SeriesSpec<Sample>[] }>;

export type HttpLoadView = (typeof HTTP_LOAD_VIEWS)[number]['id'];
