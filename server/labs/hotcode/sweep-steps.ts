/**
 * The sweep's row counts and the exponent fitted to its times. Pure, no imports: compiled into the
 * load process and imported by the page.
 */

/** 1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5…: the 1-2-5 steps from 1e3 up to `maxRows` (which ends the ladder if it is not a step). */
export function sweepSteps(maxRows: number): number[] {
  const steps: number[] = [];
  for (let decade = 1000; decade <= maxRows; decade *= 10) {
    for (const m of [1, 2, 5]) if (m * decade <= maxRows) steps.push(m * decade);
  }
  if (steps[steps.length - 1] !== maxRows) steps.push(maxRows);
  return steps;
}

/** One step of a sweep: rows and the report's time (the fastest of its repeats, ms). */
export interface SweepPoint {
  rows: number;
  ms: number;
}

/**
 * The k of time ≈ c·N^k: least squares on log time against log N. 0 with fewer than two usable
 * points (a time of 0 has no logarithm).
 */
export function fitExponent(points: readonly SweepPoint[]): number {
  const xy = points.filter((p) => p.ms > 0 && p.rows > 0).map((p) => [Math.log(p.rows), Math.log(p.ms)]);
  if (xy.length < 2) return 0;
  const mx = xy.reduce((s, [x]) => s + x, 0) / xy.length;
  const my = xy.reduce((s, [, y]) => s + y, 0) / xy.length;
  const sxx = xy.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  const sxy = xy.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  return sxx > 0 ? sxy / sxx : 0;
}

/**
 * What the next step should take, from the slope of the last two (at least 1: no report gets
 * cheaper per row as it grows), doubled: a cost can grow faster than the steps before it said (the
 * spread's does past ~1e4 rows). A step that would pass the timeout is then skipped.
 */
export function estimateStepMs(points: readonly SweepPoint[], rows: number): number {
  const last = points[points.length - 1];
  if (!last) return 0;
  const k = Math.max(1, fitExponent(points.slice(-2)));
  return 2 * last.ms * (rows / last.rows) ** k;
}
