/**
 * Colours and dashes shared by every chart: the Okabe–Ito palette, chosen because its colours stay
 * apart for the common kinds of colour blindness. Yellow is left out: it vanishes on white. Seven
 * colours times three line styles tell 21 series apart without relying on colour alone.
 */
import type { MemoryField } from '@/lib/protocol';

export const SERIES_COLORS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#56B4E9', '#E69F00', '#000000'] as const;

/** Line dash patterns in CSS px (empty = solid), applied after the colours run out. */
export const SERIES_DASHES: readonly (readonly number[])[] = [[], [6, 3], [2, 3]];

export interface LineStyle {
  color: string;
  /** Canvas/SVG dash pattern; empty for a solid line. */
  dash: readonly number[];
}

/** One fixed colour per memory field, so "arrayBuffers" looks the same on every card. */
export const MEMORY_COLORS: Record<MemoryField, string> = {
  rss: '#0072B2',
  heapTotal: '#56B4E9',
  heapUsed: '#009E73',
  external: '#CC79A7',
  arrayBuffers: '#D55E00',
};

/** Style of the n-th series: all colours solid first, then all colours dashed, then dotted. */
export function seriesStyle(index: number): LineStyle {
  const i = Math.max(0, Math.floor(index));
  return { color: SERIES_COLORS[i % SERIES_COLORS.length], dash: SERIES_DASHES[Math.floor(i / SERIES_COLORS.length) % SERIES_DASHES.length] };
}

/** Colour for the n-th series of a chart (wraps around; use seriesStyle to get the dash as well). */
export function seriesColor(index: number): string {
  return seriesStyle(index).color;
}

/** A stable number for an id not in the catalog (a strategy that was removed since the run). */
function hashIndex(id: string): number {
  let h = 0;
  for (let i = 0; i < id.length; i++) h = (h * 31 + id.charCodeAt(i)) >>> 0;
  return h;
}

/**
 * The one style of a strategy everywhere (dashboard cards, comparison, history): its position in
 * the server's strategy catalog, which every page receives in the same order.
 */
export function strategyStyle(strategyId: string, catalogIds: readonly string[]): LineStyle {
  const index = catalogIds.indexOf(strategyId);
  return seriesStyle(index >= 0 ? index : catalogIds.length + (hashIndex(strategyId) % SERIES_COLORS.length));
}
