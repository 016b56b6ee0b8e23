/**
 * Timer lateness in the service: every timer that fires is recorded as (when, how late, whose).
 * A timer's lateness is its actual fire time minus its due time; Node never fires one early, so it
 * is ≥ 0, and it grows with whatever held the event loop when it fell due. Child side.
 */
import { LATENESS_POINTS_MAX } from '../shared/schedule';
import type { LatenessPoint } from '../shared/schema';
import { percentile, percentileSorted } from '../../../server/child/numbers';

/** Lateness values kept for the run's percentiles; beyond this, the probe's stride thins them. */
const VALUES_MAX = 50_000;
const WINDOW_MS = 1000;

/** Percentile p of unsorted values (0 when there are none): the one child-side percentile. */
export const percentileOf = percentile;

/** Records fired timers; bounded (points thinned, values capped), and keeps the last second apart for the live readings. */
export class LatenessRecorder {
  private points: LatenessPoint[] = [];
  private values: LatenessPoint[] = [];
  private recent: LatenessPoint[] = [];
  /** Probe points kept: every `stride`-th (doubles whenever the list fills). */
  private stride = 1;
  private probes = 0;
  deadlineFired = 0;
  deadlineMaxMs = 0;

  constructor(private readonly t0: number) {}

  record(kind: LatenessPoint['kind'], dueAt: number, firedAt: number): void {
    const point = { atMs: firedAt - this.t0, latenessMs: Math.max(0, firedAt - dueAt), kind };
    if (this.values.length < VALUES_MAX) this.values.push(point);
    this.recent.push(point);
    if (kind === 'deadline') {
      this.deadlineFired += 1;
      this.deadlineMaxMs = Math.max(this.deadlineMaxMs, point.latenessMs);
    } else if (this.probes++ % this.stride !== 0) return;
    this.points.push(point);
    if (this.points.length > LATENESS_POINTS_MAX) this.thin();
  }

  /** Halves the probe points (deadline timers are the lesson: they go last). */
  private thin(): void {
    this.stride *= 2;
    let i = 0;
    this.points = this.points.filter((p) => p.kind === 'deadline' || i++ % 2 === 0);
    if (this.points.length > LATENESS_POINTS_MAX) this.points = this.points.filter((_, j) => j % 2 === 0);
  }

  /** p99 and max over the timers that fired in the last second. */
  window(now: number): { p99: number; max: number } {
    const from = now - this.t0 - WINDOW_MS;
    this.recent = this.recent.filter((p) => p.atMs >= from);
    const xs = this.recent.map((p) => p.latenessMs).sort((a, b) => a - b);
    return { p99: percentileSorted(xs, 99), max: xs.at(-1) ?? 0 };
  }

  /** Every fired timer (up to VALUES_MAX), in firing order. */
  all(): readonly LatenessPoint[] {
    return this.values;
  }

  scatter(): LatenessPoint[] {
    return this.points;
  }
}

/**
 * A steady timer every `intervalMs`, each one due `intervalMs` after it was set: its lateness is
 * the event loop's lag even when no request's deadline fires. `lagMs()` also counts the one still
 * pending, so a loop that is stuck right now reads as late before the timer can fire (shed-load's
 * signal). Returns a stop function with the readings.
 */
export function startProbe(intervalMs: number, onFire?: (dueAt: number, firedAt: number) => void): { lagMs(): number; stop(): void } {
  let due = performance.now() + intervalMs;
  let last = 0;
  let timer: NodeJS.Timeout;
  const arm = () => {
    timer = setTimeout(() => {
      const now = performance.now();
      last = now - due;
      onFire?.(due, now);
      due = now + intervalMs;
      arm();
    }, intervalMs);
    // The probe must not keep a finished run alive.
    timer.unref();
  };
  arm();
  return {
    lagMs: () => Math.max(last, performance.now() - due),
    stop: () => clearTimeout(timer),
  };
}
