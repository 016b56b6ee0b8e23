/**
 * The sweep: its row counts, how each step is planned, run and judged, and the growth read from
 * its times. Pure, no imports: compiled into the load process and imported by the page.
 *
 * Why steps are projected from the last two points and still watched: a cost can jump between two
 * steps (measured here: groupBy with spread 1e4 rows 278 ms, 1.5e4 3.9 s, 2e4 14.3 s), so no
 * projection from smaller steps is safe. A projection only decides which steps are worth trying;
 * the child's per-step watchdog ends a step that overshoots what is left of the run, and the run
 * completes with the steps it has.
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

/** One measured step of a sweep: rows and the report's time (the fastest of its repeats, ms). */
export interface SweepPoint {
  rows: number;
  ms: number;
}

/**
 * Every step of a sweep as it ended. `measured`: `ms` is its CPU time (the fastest repeat). `stopped`:
 * the watchdog ended it after `wallMs` (the time left for it); `ms` is the CPU it had used by then,
 * a lower bound of its cost. `skipped`: never asked for; `projectedMs` said it would not fit.
 */
export interface SweepStep {
  rows: number;
  status: 'measured' | 'stopped' | 'skipped';
  ms: number | null;
  wallMs: number | null;
  /** What the steps before projected for this one (wall ms, with the safety factor); null for the first. */
  projectedMs: number | null;
}

/** The slope between two adjacent steps on log–log axes, and the cost ratio it stands for. */
export interface LocalSlope {
  fromRows: number;
  toRows: number;
  slope: number;
  /** to.ms ÷ from.ms. */
  growth: number;
  /** The later step was stopped: its cost, and so the slope and growth, are at least these. */
  atLeast: boolean;
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

/** A projection is multiplied by this: noise and a steeper curve ahead only ever add time. */
export const PROJECTION_SAFETY = 2;

/**
 * What the next step should take: the last local slope (the two latest points on log–log, at least
 * 1: no report gets cheaper per row as it grows), times PROJECTION_SAFETY. Not the global fit: a
 * curve that steepens is steeper at its end than on average.
 */
export function estimateStepMs(points: readonly SweepPoint[], rows: number): number {
  const last = points[points.length - 1];
  if (!last) return 0;
  const k = Math.max(1, fitExponent(points.slice(-2)));
  return PROJECTION_SAFETY * last.ms * (rows / last.rows) ** k;
}

/** The measured steps, as points. */
export function measuredPoints(steps: readonly SweepStep[]): SweepPoint[] {
  return steps.flatMap((s) => (s.status === 'measured' && s.ms !== null ? [{ rows: s.rows, ms: s.ms }] : []));
}

/** The local slope between each pair of adjacent timed steps (measured, or a stopped one's lower bound). */
export function localSlopes(steps: readonly SweepStep[]): LocalSlope[] {
  const timed = steps.filter((s) => s.status !== 'skipped' && s.ms !== null && s.ms > 0);
  const out: LocalSlope[] = [];
  for (let i = 1; i < timed.length; i++) {
    const [a, b] = [timed[i - 1], timed[i]];
    if (a.status !== 'measured') break; // nothing is timed after a stopped step
    const growth = b.ms! / a.ms!;
    out.push({ fromRows: a.rows, toRows: b.rows, slope: Math.log(growth) / Math.log(b.rows / a.rows), growth, atLeast: b.status === 'stopped' });
  }
  return out;
}

/**
 * A local cost this many times above what the fit predicts for the same step is a cliff (4×: at the
 * 2× steps of the ladder, a slope 2 above the fit; noise between sub-millisecond steps stays below
 * it, and CLIFF_MIN_MS keeps those out anyway).
 */
export const CLIFF_EXCESS = 4;
/** Steps cheaper than this never make a cliff: a few microseconds of noise double them. */
export const CLIFF_MIN_MS = 20;

/** The first pair of adjacent steps whose local slope jumps well above the fitted exponent `k`, or null. */
export function findCliff(slopes: readonly LocalSlope[], steps: readonly SweepStep[], k: number): LocalSlope | null {
  const msAt = (rows: number) => steps.find((s) => s.rows === rows)?.ms ?? 0;
  return slopes.find((l) => msAt(l.toRows) >= CLIFF_MIN_MS && l.growth / (l.toRows / l.fromRows) ** Math.max(k, 1) >= CLIFF_EXCESS) ?? null;
}

/** A step's outcome as the load measured it; null when the report failed (a wrong or missing answer). */
export type StepResult = { stopped: boolean; cpuMs: number; wallMs: number } | null;

export interface SweepDriver {
  /** ms since the sweep's clock started. */
  now(): number;
  /** Time the sweep may take in all (ms), from the same clock. */
  budgetMs: number;
  /**
   * Times one step: `limitMs` is what is left for it (the watchdog stops it there), `repeat` asks
   * for repeats of a step too quick to time once (the fastest is kept).
   */
  measure(rows: number, limitMs: number, repeat: boolean): Promise<StepResult>;
}

/**
 * Steps projected faster than this are repeated and the fastest kept: a shared machine's noise only
 * ever adds time, and the sub-millisecond steps of a linear strategy need many tries to find their
 * floor (measured: the min of up to 50 gave groupBy with push an exponent of 0.97–1.07 over
 * 1e3…1e5, three tries 1.0–1.5).
 */
export const REPEAT_BELOW_MS = 500;
/** A repeated step runs at least 3 times, and on for this long, up to REPEAT_MAX times. */
export const REPEAT_FOR_MS = 200;
export const REPEAT_MAX = 50;

/**
 * Times one step with `report` (given what is left of `limitMs`): once, or, when `repeat`, while it
 * stays quick (under REPEAT_BELOW_MS: a projection can be wrong, and a step that turned out slow is
 * not run again) and another try fits in the time left. Keeps the fastest CPU and wall time. A
 * stopped report ends the step: stopped if it was the first, otherwise measured by the tries before.
 */
export async function measureStep(report: (limitMs: number) => Promise<StepResult>, limitMs: number, repeat: boolean, now: () => number): Promise<StepResult> {
  const start = now();
  let best: StepResult = null;
  for (let n = 0; n < REPEAT_MAX; n++) {
    const spent = now() - start;
    if (best !== null) {
      const quick = repeat && best.wallMs < REPEAT_BELOW_MS;
      if (!quick || (n >= 3 && spent >= REPEAT_FOR_MS) || spent + 2 * best.wallMs > limitMs) break;
    }
    const r = await report(limitMs - spent);
    if (r === null) return null;
    if (r.stopped) return best ?? r;
    best = best === null ? r : { stopped: false, cpuMs: Math.min(best.cpuMs, r.cpuMs), wallMs: Math.min(best.wallMs, r.wallMs) };
  }
  return best;
}

/**
 * Runs the ladder: each step projected from the steps before, skipped (with its projection) when it
 * would not fit the time left, otherwise measured with the time left as its watchdog. After a
 * stopped step the larger ones are skipped. `failed` is true when a report got no right answer.
 */
export async function runSweep(ladder: readonly number[], driver: SweepDriver): Promise<{ steps: SweepStep[]; failed: boolean }> {
  const steps: SweepStep[] = [];
  // Projected in wall time, what the watchdog and the timeout count.
  const walls: SweepPoint[] = [];
  let blocked = false;
  for (const rows of ladder) {
    const projectedMs = walls.length ? estimateStepMs(walls, rows) : null;
    if (blocked) {
      steps.push({ rows, status: 'skipped', ms: null, wallMs: null, projectedMs });
      continue;
    }
    const repeat = (projectedMs ?? 0) < REPEAT_BELOW_MS;
    const needMs = repeat ? Math.max(3 * (projectedMs ?? 0), REPEAT_FOR_MS + (projectedMs ?? 0)) : projectedMs!;
    const leftMs = driver.budgetMs - driver.now();
    if (needMs > leftMs) {
      // Larger steps would only take longer.
      blocked = true;
      steps.push({ rows, status: 'skipped', ms: null, wallMs: null, projectedMs });
      continue;
    }
    const r = await driver.measure(rows, leftMs, repeat);
    if (r === null) return { steps, failed: true };
    steps.push({ rows, status: r.stopped ? 'stopped' : 'measured', ms: r.cpuMs, wallMs: r.wallMs, projectedMs });
    // A stopped step's time is a lower bound: it still projects the skipped ones (at least that).
    walls.push({ rows, ms: r.wallMs });
    blocked = r.stopped;
  }
  return { steps, failed: false };
}
