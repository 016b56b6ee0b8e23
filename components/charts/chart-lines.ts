/**
 * What a chart draws, as configuration: a series is a key, label, unit, style and an accessor; a
 * line is a series read from one source. A lab adds a series by adding a spec here (or its own
 * list), never by touching the chart. Pure.
 */
import { MEMORY_FIELDS, type MemoryField, type ProcSample, type Sample } from '@/lib/protocol';
import { blockedMsAt } from '@/lib/readouts/blocked';
import { METRIC_UNITS, metricValue, type ComparisonMetric } from '@/lib/readouts/metrics';
import type { SeriesUnit } from './units';
import { MEMORY_COLORS, type LineStyle } from './palette';
import type { SampleSource } from './sample-source';

/** Reads one of a lab's readings; NaN (a gap) in a sample without it. */
export function reading(name: string): (s: Sample) => number {
  return (s) => s[name] ?? NaN;
}

export interface SeriesSpec<R = Sample> {
  /** Unique within a chart; also what data-hidden-series lists. */
  key: string;
  label: string;
  unit: SeriesUnit;
  color: string;
  /** Dash pattern in px; empty or absent = solid. */
  dash?: readonly number[];
  /** Drawn thicker: the series the chart is about. */
  emphasis?: boolean;
  /** The series' value in a row; NaN where the row has none (older data without the field). */
  value(row: R): number;
}

export interface ChartLine<R = Sample> extends SeriesSpec<R> {
  source: SampleSource<R>;
  /** ms since the run started. */
  time(row: R): number;
}

const sampleTime = (s: Sample) => s.t;

/** Lines for the given specs, all read from one source of samples. */
export function sampleLines(source: SampleSource<Sample>, specs: readonly SeriesSpec<Sample>[]): ChartLine<Sample>[] {
  return specs.map((spec) => ({ ...spec, source, time: sampleTime }));
}

function memorySpec(field: MemoryField): SeriesSpec<Sample> {
  return {
    key: field,
    label: field,
    unit: 'bytes',
    color: MEMORY_COLORS[field],
    emphasis: field === 'arrayBuffers',
    dash: field === 'heapTotal' ? [6, 3] : undefined,
    value: (s) => s[field],
  };
}

/** The five process.memoryUsage() fields, arrayBuffers emphasised and heapTotal dashed. */
export const MEMORY_SERIES: readonly SeriesSpec<Sample>[] = MEMORY_FIELDS.map(memorySpec);

/** Memory series for some fields only (in the order given). */
export function memorySpecs(fields: readonly MemoryField[] = MEMORY_FIELDS): SeriesSpec<Sample>[] {
  return fields.map((f) => MEMORY_SERIES.find((s) => s.key === f)!);
}

/** Reads a numeric sample field that older records may lack (NaN then, drawn as a gap). */
function optionalField(name: string): (s: Sample) => number {
  return (s) => {
    const v = (s as unknown as Record<string, unknown>)[name];
    return typeof v === 'number' ? v : NaN;
  };
}

/** Series beyond memory, ready for the labs that sample them; each has its own unit, so its own chart or axis. */
export const EXTRA_SERIES = {
  elMaxMs: { key: 'elMaxMs', label: 'event-loop delay (max)', unit: 'ms', color: '#000000', value: (s: Sample) => s.elMaxMs },
  cpuPct: { key: 'cpuPct', label: 'CPU', unit: 'percent', color: '#0072B2', value: optionalField('cpuPct') },
  elu: { key: 'elu', label: 'event-loop utilization', unit: 'ratio', color: '#009E73', value: optionalField('elu') },
  // The longest synchronous stretch over 50 ms in each sample interval (server/child/long-tasks.ts); 0 = none.
  longTaskMs: { key: 'longTaskMs', label: 'long task (sync stretch > 50 ms)', unit: 'ms', color: '#CC79A7', dash: [2, 2], value: optionalField('longTaskMs') },
} satisfies Record<string, SeriesSpec<Sample>>;

/** One metric of several runs, each line styled by its strategy. */
export function metricLines(
  runs: ReadonlyArray<{ key: string; label: string; style: LineStyle; source: SampleSource<Sample> }>,
  metric: ComparisonMetric,
): ChartLine<Sample>[] {
  return runs.map((r) => ({
    key: r.key,
    label: r.label,
    unit: METRIC_UNITS[metric],
    color: r.style.color,
    dash: r.style.dash,
    source: r.source,
    time: sampleTime,
    value: (s: Sample) => metricValue(s, metric),
  }));
}

const procTime = (p: ProcSample) => p.t;

/** The heap a blocked run's watcher thread read (server/child/block-heap.ts): a gap wherever the loop was free. */
function blockedHeapTwin(field: 'heapUsed' | 'heapTotal') {
  return (inside: SeriesSpec<Sample>): SeriesSpec<ProcSample> => ({
    key: field === 'heapUsed' ? 'blockedHeapUsed' : 'blockedHeapTotal',
    label: `${inside.label}, read while the loop was blocked`,
    unit: 'bytes',
    color: inside.color,
    dash: [1, 2],
    value: (p) => p[field] ?? NaN,
  });
}

/**
 * The readings taken from outside the run's process (the runner's /proc readings), each keyed by
 * the child's series it stands beside: RSS and CPU go on while the run's main thread is blocked,
 * the heap too in a lab that reads it then (`heapWhileBlocked`: LabSchema.watchesBlockedHeap; no
 * such line, not an empty one, elsewhere), and beside the event-loop delay, how long the loop has
 * been held so far (from the sampler's silence; nothing while it is not blocked). `sampleMs`: the
 * run's sample interval.
 */
export function outsideTwins(sampleMs: number | null, heapWhileBlocked = false): Record<string, (inside: SeriesSpec<Sample>) => SeriesSpec<ProcSample>> {
  return {
    rss: (inside) => ({ key: 'procRss', label: `${inside.label}, read from /proc`, unit: 'bytes', color: inside.color, dash: [1, 2], value: (p) => p.rss }),
    cpuPct: (inside) => ({
      key: 'procCpuPct',
      label: `${inside.label}, read from /proc`,
      unit: 'percent',
      color: inside.color,
      dash: [1, 2],
      value: (p) => p.cpuPct ?? NaN,
    }),
    ...(heapWhileBlocked && { heapUsed: blockedHeapTwin('heapUsed'), heapTotal: blockedHeapTwin('heapTotal') }),
    elMaxMs: () => ({
      key: 'blockedMs',
      label: 'event loop blocked so far (seen from outside)',
      unit: 'ms',
      color: '#D55E00',
      dash: [1, 2],
      emphasis: true,
      value: (p) => blockedMsAt(p, sampleMs) ?? NaN,
    }),
  };
}

/**
 * A card view's lines, the one way every lab builds them: its specs read from the child's
 * samples, and after each spec that has an outside twin (outsideTwins) the twin read from the
 * /proc readings, so every memory, CPU and delay view keeps moving while the loop is blocked.
 */
export function viewLines(
  source: SampleSource<Sample>,
  outside: SampleSource<ProcSample>,
  specs: readonly SeriesSpec<Sample>[],
  sampleMs: number | null,
  heapWhileBlocked = false,
): ChartLine<unknown>[] {
  const twins = outsideTwins(sampleMs, heapWhileBlocked);
  const lines: ChartLine<unknown>[] = [];
  for (const spec of specs) {
    lines.push({ ...spec, source, time: sampleTime } as ChartLine<unknown>);
    const twin = twins[spec.key];
    if (twin) lines.push({ ...twin(spec), source: outside, time: procTime } as ChartLine<unknown>);
  }
  return lines;
}
