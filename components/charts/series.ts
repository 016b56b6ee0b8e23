/** Chart series built from a run's samples, shared by the live cards, the history and the lessons. Pure. */
import { MEMORY_FIELDS, type MemoryField, type Sample } from '@/lib/protocol';
import type { ChartSeries } from './MemoryChart';
import { MEMORY_COLORS } from './palette';

/** One series per memory field (all five by default), arrayBuffers emphasised and heapTotal dashed. */
export function memorySeries(samples: readonly Sample[], fields: readonly MemoryField[] = MEMORY_FIELDS): ChartSeries[] {
  return fields.map((field) => ({
    id: field,
    label: field,
    color: MEMORY_COLORS[field],
    emphasis: field === 'arrayBuffers',
    dashed: field === 'heapTotal',
    points: samples.map((s) => ({ x: s.t, y: s[field] })),
  }));
}
