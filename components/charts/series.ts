/** Chart series built from a run's samples, as points (for MemoryChart callers). Pure. */
import { MEMORY_FIELDS, type MemoryField, type Sample } from '@/lib/protocol';
import type { ChartSeries } from './MemoryChart';
import { memorySpecs, type SeriesSpec } from './chart-lines';

/** Points of each spec over the samples, styled like the live cards. */
export function specSeries(specs: readonly SeriesSpec<Sample>[], samples: readonly Sample[]): ChartSeries[] {
  return specs.map((spec) => ({
    id: spec.key,
    label: spec.label,
    color: spec.color,
    dash: spec.dash,
    emphasis: spec.emphasis,
    points: samples.map((s) => ({ x: s.t, y: spec.value(s) })),
    valueUnit: spec.unit,
  }));
}

/** One series per memory field (all five by default), styled like the live cards. */
export function memorySeries(samples: readonly Sample[], fields: readonly MemoryField[] = MEMORY_FIELDS): ChartSeries[] {
  return specSeries(memorySpecs(fields), samples);
}
