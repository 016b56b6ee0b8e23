/**
 * Colours shared by every chart: the Okabe–Ito palette, chosen because its colours stay apart
 * for the common kinds of colour blindness. Yellow is left out: it vanishes on white.
 */
import type { MemoryField } from '@/lib/protocol';

export const SERIES_COLORS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#56B4E9', '#E69F00', '#000000'] as const;

/** One fixed colour per memory field, so "arrayBuffers" looks the same on every card. */
export const MEMORY_COLORS: Record<MemoryField, string> = {
  rss: '#0072B2',
  heapTotal: '#56B4E9',
  heapUsed: '#009E73',
  external: '#CC79A7',
  arrayBuffers: '#D55E00',
};

/** Colour for the n-th series of a chart (wraps around; dashes tell wrapped series apart). */
export function seriesColor(index: number): string {
  return SERIES_COLORS[index % SERIES_COLORS.length];
}
