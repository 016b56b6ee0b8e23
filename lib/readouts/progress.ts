/** Progress and ETA of a live run, from its samples. Pure. */
import type { Sample } from '../protocol';

/** How far back the "recent rate" looks: long enough to smooth jitter, short enough to follow changes. */
export const RATE_WINDOW_MS = 3000;

export interface RunProgress {
  processedBytes: number;
  /** 0..1 of the file processed by the consumer. */
  fraction: number;
  /** Consumer throughput over the recent window; null until two samples span some time. */
  bytesPerSec: number | null;
  /** Time left at the recent rate; null when it cannot be estimated. */
  etaMs: number | null;
}

/** Progress of a run given its samples (ascending t) and the file size. */
export function runProgress(samples: readonly Sample[], fileBytes: number): RunProgress {
  const last = samples.at(-1);
  if (!last) return { processedBytes: 0, fraction: 0, bytesPerSec: null, etaMs: null };
  const fraction = fileBytes > 0 ? Math.min(1, last.bytesProcessed / fileBytes) : 0;
  // Walk back to the oldest sample inside the window; samples are few per second, so this is short.
  let i = samples.length - 1;
  while (i > 0 && last.t - samples[i - 1].t <= RATE_WINDOW_MS) i--;
  const first = samples[i];
  const spanMs = last.t - first.t;
  const bytesPerSec = spanMs > 0 ? ((last.bytesProcessed - first.bytesProcessed) / spanMs) * 1000 : null;
  const remaining = Math.max(0, fileBytes - last.bytesProcessed);
  const etaMs = bytesPerSec && bytesPerSec > 0 ? (remaining / bytesPerSec) * 1000 : remaining === 0 ? 0 : null;
  return { processedBytes: last.bytesProcessed, fraction, bytesPerSec, etaMs };
}
