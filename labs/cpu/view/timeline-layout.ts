/**
 * Where the request timeline puts things: one row per request, a colour per process or thread that
 * served requests (in the order they first answered), and a time axis on steps of 1, 2 or 5 × 10ⁿ ms. Pure, so
 * the drawing component only maps these numbers to SVG.
 */
import type { RequestBar } from '../shared/schema';
import { niceTicks } from '../../../components/charts/units';
import { seriesStyle } from '../../../components/charts/palette';

/** "pid 1234" or "pid 1234 / thread 3", from the load's "1234" or "1234/3". */
export function servedByText(servedBy: string): string {
  const [pid, thread] = servedBy.split('/');
  return thread === undefined ? `pid ${pid}` : `pid ${pid} / thread ${thread}`;
}

export interface TimelineLayout {
  /** Every server in the order it first answered, with its colour. */
  servers: Array<{ id: string; color: string; requests: number }>;
  colorOf: ReadonlyMap<string, string>;
  /** The axis's end (ms), a whole number of ticks. */
  axisMs: number;
  /** Tick positions (ms) from 0 to axisMs. */
  ticksMs: number[];
  /** Height of one request's row (px); the bars fill it but for a gap when rows are tall enough. */
  rowPx: number;
  gapPx: number;
}

/** Rows shrink to fit this height once there are many requests (1000 rows: one px each, at least). */
export const TIMELINE_MAX_PX = 220;
const ROW_MAX_PX = 14;
const TICKS = 5;

/** The layout of these bars (any number, at least one row high each). */
export function layoutTimeline(bars: readonly RequestBar[]): TimelineLayout {
  const counts = new Map<string, number>();
  for (const b of bars) counts.set(b.servedBy, (counts.get(b.servedBy) ?? 0) + 1);
  const servers = [...counts].map(([id, requests], i) => ({ id, requests, color: seriesStyle(i).color }));
  const endMs = bars.reduce((max, b) => Math.max(max, b.endMs), 0);
  // Steps of 1, 2 or 5 × 10ⁿ ms, as on every other chart; the axis ends on the last one.
  const ticksMs = niceTicks(Math.max(endMs, 1), TICKS);
  const axisMs = ticksMs.at(-1)!;
  const rowPx = Math.max(1, Math.min(ROW_MAX_PX, Math.floor(TIMELINE_MAX_PX / Math.max(1, bars.length))));
  return { servers, colorOf: new Map(servers.map((s) => [s.id, s.color])), axisMs, ticksMs, rowPx, gapPx: rowPx >= 6 ? 2 : 0 };
}
