/**
 * Finds the synchronous stretches of a run's main thread longer than a threshold: a timer that
 * should fire every TICK_MS fires late by as long as the loop was blocked. Cheaper than the
 * write-up's async_hooks before/after pairs (those run on every callback; this runs 1000/TICK_MS
 * times a second whatever the load; overhead measured in docs/results.md §11). A stretch is known
 * to TICK_MS: its duration is the lateness, a lower bound by at most one tick. Pure apart from the
 * injected clock and timer; child side.
 */

/** One stretch: when it ended (µs, monotonic: the clock V8's profiler stamps its samples with) and how long it blocked (ms). */
export interface LongTask {
  endUs: number;
  durationMs: number;
}

export const LONG_TASK_MS = 50;
export const TICK_MS = 10;
/** Stretches kept for the summary: the longest, in time order. */
export const MAX_LONG_TASKS = 100;

export interface LongTaskClock {
  /** µs, monotonic. */
  nowUs(): number;
  /** Runs `tick` every `ms` (unref'd): returns its disposer. */
  every(ms: number, tick: () => void): () => void;
}

export const realClock: LongTaskClock = {
  nowUs: () => Number(process.hrtime.bigint() / 1000n),
  every(ms, tick) {
    const timer = setInterval(tick, ms).unref();
    return () => clearInterval(timer);
  },
};

/** Watches the loop; `takeMaxMs()` is the longest stretch since the last call (for a sample), `all()` the kept ones. */
export function watchLongTasks(thresholdMs = LONG_TASK_MS, clock: LongTaskClock = realClock) {
  const tasks: LongTask[] = [];
  let maxSinceTake = 0;
  let last = clock.nowUs();
  const stop = clock.every(TICK_MS, () => {
    const now = clock.nowUs();
    const lateMs = (now - last) / 1000 - TICK_MS;
    last = now;
    if (lateMs < thresholdMs) return;
    maxSinceTake = Math.max(maxSinceTake, lateMs);
    tasks.push({ endUs: now, durationMs: Math.round(lateMs * 10) / 10 });
    // Bounded: drop the shortest once full (a long run of many stretches keeps its worst).
    if (tasks.length > MAX_LONG_TASKS) tasks.splice(tasks.indexOf(tasks.reduce((a, b) => (b.durationMs < a.durationMs ? b : a))), 1);
  });
  return {
    takeMaxMs(): number {
      const m = maxSinceTake;
      maxSinceTake = 0;
      return m;
    },
    all: (): LongTask[] => [...tasks],
    stop,
  };
}
