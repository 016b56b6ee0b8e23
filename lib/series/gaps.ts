/**
 * Where a series has no reading: the one rule every chart draws gaps by (canvas and SVG alike), so
 * a stretch without samples is never drawn as a line between the points around it.
 *
 * A pause between two rows is a gap when it is well past the series' own spacing. The spacing is
 * the series' own, not the run's sample interval, because a recorded run's series are thinned
 * (every other point dropped) and a busy machine stretches the interval; it is the second smallest
 * of the last few pauses, so a run of repeated stalls (5 s blocked, one sample, 5 s blocked) still
 * has the spacing of its sampler, and a single burst of two close samples does not shrink it.
 * A row whose value is not a number (not measured) is a gap too, from the reading before to the
 * reading after. Pure.
 */

/** A pause this many times the series' spacing is a gap… */
export const GAP_FACTOR = 3;
/** …and never one shorter than this: jitter on a busy machine is not a missing reading worth drawing. */
export const MIN_GAP_MS = 250;
/** Pauses the spacing is estimated from. */
const RECENT = 8;

/** Follows a series' times one by one and says which pauses are gaps. */
export class GapFinder {
  private last: number | null = null;
  private readonly recent: number[] = [];

  /** The pause before `t` (ms) is a gap. */
  push(t: number): boolean {
    const prev = this.last;
    this.last = t;
    if (prev === null) return false;
    const pause = t - prev;
    const spacing = this.spacing();
    this.recent.push(pause);
    if (this.recent.length > RECENT) this.recent.shift();
    return spacing !== null && pause > Math.max(GAP_FACTOR * spacing, MIN_GAP_MS);
  }

  reset(): void {
    this.last = null;
    this.recent.length = 0;
  }

  private spacing(): number | null {
    if (this.recent.length === 0) return null;
    const sorted = [...this.recent].sort((a, b) => a - b);
    return sorted[Math.min(1, sorted.length - 1)];
  }
}

/** The indices i of a series' times where the pause from row i − 1 to row i is a gap. */
export function gapStarts(x: ArrayLike<number>): number[] {
  const finder = new GapFinder();
  const out: number[] = [];
  for (let i = 0; i < x.length; i++) if (finder.push(x[i])) out.push(i);
  return out;
}

/**
 * The stretches of one line with nothing to draw, as [from, to] times (ms), ascending and apart:
 * each pause that is a gap (`starts`, from gapStarts over the line's source), and each run of rows
 * without a number, from the last reading before it to the first after (to the end when none).
 */
export function lineGaps(x: ArrayLike<number>, y: ArrayLike<number>, starts: readonly number[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const add = (from: number, to: number) => {
    const prev = out.at(-1);
    // Overlapping stretches merge; touching ones stay apart, so the reading between them is found (isolatedTimes).
    if (prev && from < prev[1]) prev[1] = Math.max(prev[1], to);
    else out.push([from, to]);
  };
  const n = Math.min(x.length, y.length);
  let s = 0;
  let lastFinite = -1;
  let missingFrom = -1;
  for (let i = 0; i < n; i++) {
    const finite = Number.isFinite(y[i]);
    if (!finite) {
      if (missingFrom < 0) missingFrom = i;
      continue;
    }
    if (missingFrom >= 0 && lastFinite >= 0) add(x[lastFinite], x[i]);
    missingFrom = -1;
    while (s < starts.length && starts[s] <= i) {
      const k = starts[s++];
      // A pause inside a stretch without numbers is covered by it.
      if (k === i && lastFinite === i - 1) add(x[i - 1], x[i]);
    }
    lastFinite = i;
  }
  if (missingFrom >= 0 && lastFinite >= 0 && missingFrom > lastFinite) add(x[lastFinite], x[n - 1]);
  return out;
}

/**
 * The times of the readings with a gap on both sides (or a gap and the line's end): a line draws
 * nothing there, so the chart marks them with a dot. `first`, `last`: the line's first and last
 * times with a reading.
 */
export function isolatedTimes(gaps: ReadonlyArray<readonly [number, number]>, first: number, last: number): number[] {
  const out: number[] = [];
  if (gaps.length === 0) return out;
  if (gaps[0][0] === first) out.push(first);
  for (let i = 1; i < gaps.length; i++) if (gaps[i - 1][1] === gaps[i][0]) out.push(gaps[i][0]);
  if (gaps[gaps.length - 1][1] === last && out.at(-1) !== last) out.push(last);
  return out;
}
