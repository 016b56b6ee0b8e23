/**
 * The snapshot a (re)joining page gets, built once and shared by every connection: serialized to
 * one Buffer that every socket sends as is, so twenty pages asking at once cost one build and
 * one copy, not twenty. A page given a snapshot up to a second old also gets the samples taken
 * since (see Hub.sendSnapshot), so sharing never loses or repeats a sample.
 */
import { boundSeries } from '../../lib/series';
import type { ServerMessage } from '../../lib/protocol';

/** Last sample and /proc reading (their `at`) of each run that the snapshot includes. */
export type Covered = Map<string, { sampleAt: number; procAt: number }>;

export interface BuiltSnapshot {
  bytes: Buffer;
  covered: Covered;
}

/**
 * Samples (and as many /proc readings) in one snapshot, shared out among the runs: ~300 bytes a
 * sample keeps a snapshot near 3 MB however many runs are in memory.
 */
export const SNAPSHOT_POINTS = 10_000;
/** Fewest points per run in a snapshot, so a chart keeps its shape with many runs in memory. */
const MIN_POINTS_PER_RUN = 200;

/** Each run's series thinned (keeping its first and last point) so all of them fit `points`. */
export function thinForSnapshot<T>(seriesByRun: ReadonlyMap<string, readonly T[]>, points = SNAPSHOT_POINTS): Record<string, T[]> {
  const nonEmpty = [...seriesByRun.values()].filter((s) => s.length > 0).length;
  const perRun = Math.max(MIN_POINTS_PER_RUN, Math.floor(points / Math.max(1, nonEmpty)));
  return Object.fromEntries([...seriesByRun].map(([id, series]) => [id, [...boundSeries(series, perRun)]]));
}

/** How old a shared snapshot may be before a request rebuilds it (when anything changed). */
export const SNAPSHOT_MAX_AGE_MS = 1000;

export class SharedSnapshot {
  private cached: (BuiltSnapshot & { builtAt: number }) | null = null;
  private stale = true;
  private structureChanged = true;

  constructor(
    private readonly build: () => { message: ServerMessage; covered: Covered },
    private readonly maxAgeMs = SNAPSHOT_MAX_AGE_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /**
   * Something the snapshot shows has changed. New samples ('series') may wait up to the maximum
   * age, since the samples after it are sent with it; anything else ('structure': a run queued,
   * ended, …) makes the next request rebuild it.
   */
  invalidate(what: 'series' | 'structure'): void {
    this.stale = true;
    if (what === 'structure') this.structureChanged = true;
  }

  /** The shared snapshot, rebuilt when it is out of date. */
  get(): BuiltSnapshot {
    const t = this.now();
    const tooOld = this.stale && (this.structureChanged || t - (this.cached?.builtAt ?? -Infinity) >= this.maxAgeMs);
    if (!this.cached || tooOld) {
      const { message, covered } = this.build();
      this.cached = { bytes: Buffer.from(JSON.stringify(message)), covered, builtAt: t };
      this.stale = false;
      this.structureChanged = false;
    }
    return this.cached;
  }

  /** Lets go of the buffer (no page is connected): memory taken for a burst is given back. */
  release(): void {
    this.cached = null;
    this.stale = true;
    this.structureChanged = true;
  }
}
