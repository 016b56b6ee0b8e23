/**
 * Bounds the samples stored per run without rewriting the append-only file. Phases: the first
 * HALF samples are kept whole, the next HALF source samples at every 2nd, the next at every 4th,
 * and so on, so the start of a run (where memory does the interesting things) keeps full resolution
 * and the stored count approaches 2 × HALF. A phase never keeps fewer than MIN_PER_PHASE samples,
 * so the end of a very long run is still drawn; past 2 × HALF that adds MIN_PER_PHASE per doubling
 * of the run's length (20,291 for the longest run the limits allow: 3600 s at 10 ms). Pure.
 */

/** Same bound as the lab's in-memory series (20k per run). */
export const MAX_STORED_SAMPLES = 20_000;
const HALF = MAX_STORED_SAMPLES / 2;
const MIN_PER_PHASE = 100;

/** Decides, sample by sample, which ones are written. */
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
