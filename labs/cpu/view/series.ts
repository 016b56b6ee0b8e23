/**
 * The CPU lab's chart series, as configuration for TimeChart: the server's whole process tree
 * (RSS beside the primary's own), and in groups that share a unit its processes and threads, the
 * CPU of the tree and of the load, /ping and the primary's event loop, and the requests done and in
 * flight. Pure.
 */
import type { Sample } from '@/lib/protocol';
import { EXTRA_SERIES, memorySpecs, reading, type SeriesSpec } from '../../../components/charts/chart-lines';

/** RSS of the tree, emphasised (what every process or thread added costs), with the primary's rss under it. */
export const CPU_MEMORY_SERIES: readonly SeriesSpec<Sample>[] = [
  { key: 'treeRss', label: 'RSS of the process tree', unit: 'bytes', color: '#D55E00', emphasis: true, value: reading('treeRss') },
  ...memorySpecs(['rss']).map((spec) => ({ ...spec, label: 'rss of the primary' })),
];

/** Requests answered right and still waiting: the live stand-in for the timeline, which comes with the summary. */
export const CPU_REQUEST_SERIES: readonly SeriesSpec<Sample>[] = [
  { key: 'requestsOk', label: 'requests done', unit: 'count', color: '#009E73', emphasis: true, value: reading('requestsOk') },
  { key: 'requestsInFlight', label: 'requests in flight', unit: 'count', color: '#0072B2', dash: [6, 3], value: reading('requestsInFlight') },
];

/** The second chart of a CPU card: one view at a time, each in one unit. */
export const CPU_LOAD_VIEWS = [
  {
    id: 'cpu',
    label: 'CPU',
    specs: [
      { key: 'treeCpuPct', label: 'server tree CPU', unit: 'percent', color: '#D55E00', emphasis: true, value: reading('treeCpuPct') },
      { ...EXTRA_SERIES.cpuPct, label: 'primary CPU', dash: [2, 3] },
      { key: 'loadCpuPct', label: 'load generator CPU', unit: 'percent', color: '#E69F00', dash: [6, 3], value: reading('loadCpuPct') },
    ],
  },
  {
    id: 'processes',
    label: 'Processes',
    specs: [
      { key: 'processes', label: 'processes', unit: 'count', color: '#0072B2', emphasis: true, value: reading('processes') },
      { key: 'threads', label: 'threads', unit: 'count', color: '#CC79A7', dash: [6, 3], value: reading('threads') },
      { key: 'messageListeners', label: '‘message’ listeners', unit: 'count', color: '#000000', dash: [2, 3], value: reading('messageListeners') },
    ],
  },
  {
    id: 'ping',
    label: 'Ping',
    specs: [
      { key: 'pingMs', label: '/ping round trip', unit: 'ms', color: '#009E73', emphasis: true, value: reading('pingMs') },
      { ...EXTRA_SERIES.elMaxMs, label: 'primary event-loop delay (max)' },
      EXTRA_SERIES.longTaskMs,
    ],
  },
] as const satisfies ReadonlyArray<{ id: string; label: string; specs: readonly SeriesSpec<Sample>[] }>;

export type CpuLoadView = (typeof CPU_LOAD_VIEWS)[number]['id'];
