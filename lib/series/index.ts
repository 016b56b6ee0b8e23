/**
 * One home for the helpers every layer uses on time series: the per-run cap, thinning, tails,
 * empty readings and peaks. The server (queue, hub, store, runner) and the page import these;
 * nobody keeps a copy.
 */
import { MEMORY_FIELDS, type Memory } from '../protocol/common';

/** Samples kept per run in memory (server and page) and on disk (about). */
export const MAX_SAMPLES_PER_RUN = 20_000;

/** Every other item (the odd ones): halves a batch waiting for a slow reader. */
export function thinHalf<T>(series: readonly T[]): T[] {
  return series.filter((_, i) => i % 2 === 1);
}

/**
 * Keeps a series under `max` by dropping every other point (keeping the first and the last), so a
 * very long run still shows its whole history at half resolution instead of losing its start.
 */
export function boundSeries<T>(series: readonly T[], max: number = MAX_SAMPLES_PER_RUN): readonly T[] {
  let out = series;
  while (out.length > max) {
    const last = out[out.length - 1];
    const thinned = out.filter((_, i) => i % 2 === 0);
    if (thinned[thinned.length - 1] !== last) thinned.push(last);
    out = thinned;
  }
  return out;
}

/** The items of a time-ordered series taken after `at` (scans from the end: the tail is short). */
export function tailAfter<T extends { at: number }>(series: readonly T[], at: number): T[] {
  let i = series.length;
  while (i > 0 && series[i - 1].at > at) i -= 1;
  return series.slice(i);
}

/** A memory reading of zeros. */
export function emptyMemory(): Memory {
  return { rss: 0, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 };
}

/**
 * Raises each field of `peak` to the reading's where the reading is higher (in place) and returns
 * it; with no peak yet (null: nothing measured) a new one from the reading. Start from null, not
 * from zeros, so a run with no reading keeps a null peak.
 */
export function foldPeaks(peak: Memory | null, reading: Memory): Memory {
  // Readings are never negative, so zeros raised to the reading are the reading.
  const into = peak ?? emptyMemory();
  for (const f of MEMORY_FIELDS) into[f] = Math.max(into[f], reading[f]);
  return into;
}

/** The higher of a peak so far (null: nothing read yet) and a reading. */
export function foldMax(peak: number | null, reading: number): number {
  return peak === null ? reading : Math.max(peak, reading);
}

const HALF = MAX_SAMPLES_PER_RUN / 2;
const MIN_PER_PHASE = 100;

/**
 * Bounds the samples stored per run without rewriting an append-only file. Phases: the first
 * HALF samples are kept whole, the next HALF source samples at every 2nd, the next at every 4th,
 * and so on, so the start of a run (where memory does the interesting things) keeps full resolution
 * and the stored count approaches 2 × HALF. A phase never keeps fewer than MIN_PER_PHASE samples,
 * so the end of a very long run is still drawn; past 2 × HALF that adds MIN_PER_PHASE per doubling
 * of the run's length (20,291 for the longest run the limits allow: 3600 s at 10 ms). Pure.
 */
export class Thinning {
  private seen = 0;
  private leftInPhase = HALF;
  /** Every stride-th sample is kept in the current phase. */
  stride = 1;
  kept = 0;

  /** True when this sample is to be stored. */
  take(): boolean {
    const keep = this.seen % this.stride === 0;
    this.seen += 1;
    if (!keep) return false;
    this.kept += 1;
    this.leftInPhase -= 1;
    if (this.leftInPhase <= 0) {
      this.stride *= 2;
      this.leftInPhase = Math.max(MIN_PER_PHASE, Math.floor(HALF / this.stride));
    }
    return true;
  }
}
