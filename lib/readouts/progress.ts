/** Progress and ETA of a live run, from its samples. Pure. */
import type { Sample } from '../protocol';

/** How far back the "recent rate" looks: long enough to smooth jitter, short enough to follow changes. */
export const RATE_WINDOW_MS = 3000;

export interface RunProgress {
  /** The lab's progress reading in the last sample (bytes processed, responses received right…). */
  done: number;
  /** 0..1 of the run's work done. */
  fraction: number;
  /** That reading's rate over the recent window, per second; null until two samples span some time. */
  perSec: number | null;
  /** Time left at the recent rate; null when it cannot be estimated. */
  etaMs: number | null;
}

/**
 * Progress of a run given its samples (ascending t), its total work and the reading that counts
 * the work done: the streams lab's bytesProcessed of the file, the HTTP lab's responsesOk of the
 * responses planned (each lab's schema names it).
 */
export function runProgress(samples: readonly Sample[], total: number, reading = 'bytesProcessed'): RunProgress {
  const last = samples.at(-1);
  if (!last) return { done: 0, fraction: 0, perSec: null, etaMs: null };
  const doneOf = (s: Sample) => s[reading] ?? 0;
  const done = doneOf(last);
  const fraction = total > 0 ? Math.min(1, done / total) : 0;
  // Walk back to the oldest sample inside the window; samples are few per second, so this is short.
  let i = samples.length - 1;
  while (i > 0 && last.t - samples[i - 1].t <= RATE_WINDOW_MS) i--;
  const first = samples[i];
  const spanMs = last.t - first.t;
  const perSec = spanMs > 0 ? ((done - doneOf(first)) / spanMs) * 1000 : null;
  const remaining = Math.max(0, total - done);
  const etaMs = perSec && perSec > 0 ? (remaining / perSec) * 1000 : remaining === 0 ? 0 : null;
  return { done, fraction, perSec, etaMs };
}
