/** Display helpers shared by every view. Pure, no DOM, no `node:`. */
import { MIB } from '../protocol/params';

/** Said once on each page that shows MB and above each Markdown export: "MB" is the binary unit. */
export const MB_NOTE = 'MB = MiB (1,048,576 bytes) throughout Stream Lab and its exports, as in process.memoryUsage() write-ups.';

/** Bytes → MiB, the unit every view shows (labelled "MB" like process.memoryUsage() write-ups). */
export function toMb(bytes: number): number {
  return bytes / MIB;
}

/** "31 MB", "1.4 MB", "0.05 MB": fewer decimals as the number grows, so columns stay readable; a dash when not measured (null), never a 0. */
export function formatMb(bytes: number | null): string {
  return bytes === null ? '–' : `${formatMbNumber(bytes)} MB`;
}

/** The number part of formatMb ("–" when not measured). */
export function formatMbNumber(bytes: number | null): string {
  if (bytes === null) return '–';
  const mb = toMb(bytes);
  const abs = Math.abs(mb);
  if (abs >= 100) return mb.toFixed(0);
  if (abs >= 10) return mb.toFixed(1).replace(/\.0$/, '');
  if (abs >= 0.1 || abs === 0) return mb.toFixed(1);
  return mb.toFixed(2);
}

/** Bytes rounded up to the next 0.1 MB, so "stayed under X MB" and "at most X MB" are true of the peak. */
export function formatMbCeil(bytes: number): string {
  const mb = Math.ceil((bytes / MIB) * 10) / 10;
  return `${mb >= 100 ? mb.toFixed(0) : mb.toFixed(1)} MB`;
}

/** Milliseconds → "12.3 s" (one decimal under a minute) or "2 min 05 s". */
export function formatSeconds(ms: number): string {
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const whole = Math.round(s);
  return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s`;
}

/** A duration as a sentence reads it: in ms below a second ("37.0 ms", not "0.0 s"), in seconds above; a dash when not measured (null). */
export function formatDuration(ms: number | null): string {
  if (ms === null) return '–';
  return Math.abs(ms) < 1000 ? formatMs(ms) : formatSeconds(ms);
}

/** 0.4567 → "46%"; below 1% keeps one decimal so a tiny share does not read as zero. */
export function formatPercent(fraction: number): string {
  const pct = fraction * 100;
  if (pct > 0 && pct < 1) return `${pct.toFixed(1)}%`;
  return `${Math.round(pct)}%`;
}

/** Epoch ms → local "14:03:27". */
export function formatClock(epochMs: number): string {
  return new Date(epochMs).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

/** Milliseconds as a latency or delay reads: "0.42 ms", "12.3 ms", "250 ms", "12.3 s" from 10 s on; a dash when not measured (null), never "0.0 ms". */
export function formatMs(ms: number | null): string {
  if (ms === null) return '–';
  if (Math.abs(ms) >= 10_000) return formatSeconds(ms);
  if (Math.abs(ms) >= 100) return `${Math.round(ms)} ms`;
  if (Math.abs(ms) >= 1 || ms === 0) return `${ms.toFixed(1)} ms`;
  return `${ms.toFixed(2)} ms`;
}

/** A whole count with thousands separators, the same in every locale: "100,000". */
export function formatCount(n: number): string {
  return Math.round(n)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** A count and its noun, singular for one: "1 probe", "2 probes", "1,200 probes". */
export function formatCountOf(n: number, noun: string): string {
  return `${formatCount(n)} ${noun}${Math.round(n) === 1 ? '' : 's'}`;
}

/** A rate per second as a figure reads: whole with separators from 100 up ("12,345"), one decimal below ("42.5"). */
export function formatPerSec(perSec: number): string {
  return Math.abs(perSec) >= 100 ? formatCount(perSec) : perSec.toFixed(1);
}

/** How many times one figure is another: "7×", "1.5×" (one decimal under 10). */
export function formatTimes(ratio: number): string {
  if (!Number.isFinite(ratio)) return '∞×';
  return ratio >= 10 ? `${Math.round(ratio)}×` : `${Number(ratio.toFixed(1))}×`;
}

/** "3, longest 650 ms (formatDayToLocale, groupBySpread)": the run's synchronous stretches over 50 ms. */
export function longTasksText(tasks: ReadonlyArray<{ durationMs: number; top: readonly string[] }>): string {
  if (tasks.length === 0) return 'none over 50 ms';
  const longest = tasks.reduce((a, b) => (b.durationMs > a.durationMs ? b : a));
  return `${tasks.length}, longest ${formatMs(longest.durationMs)}${longest.top.length ? ` (${longest.top.join(', ')})` : ''}`;
}

/** Below this many samples a median or percentile says how many it rests on. */
export const FEW_SAMPLES = 10;

/** "median 9775 ms of 2 probes", or "median 12 ms" when it rests on enough of them to go unsaid. */
export function formatMedian(ms: number, count: number, noun: string): string {
  return count < FEW_SAMPLES ? `median ${formatMs(ms)} of ${formatCount(count)} ${noun}${count === 1 ? '' : 's'}` : `median ${formatMs(ms)}`;
}
