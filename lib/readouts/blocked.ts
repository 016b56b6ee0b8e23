/**
 * A blocked event loop, told from outside: the child's sampler runs on the run's main thread, so
 * when the runner's /proc readings find it silent for well over its interval, the loop is held
 * (ProcSample.sinceSampleMs). The card's badge, its "now" figures and the charts' outside lines
 * all read it here. Pure, browser-safe.
 */
import type { ProcSample, Sample } from '../protocol';
import { formatSeconds } from './format';

/** A silence counts as a blocked loop past three sample intervals, and never under half a second. */
export const BLOCKED_MIN_MS = 500;
const BLOCKED_INTERVALS = 3;

/**
 * How long the loop has been held at this /proc reading, ms: the sampler's silence less one
 * interval (a lower bound: the block began at most an interval after its last sample); null when
 * not blocked, not known (no sample yet, sampler off) or from a record made before it was read.
 */
export function blockedMsAt(p: ProcSample | undefined, sampleMs: number | null): number | null {
  const since = p?.sinceSampleMs;
  if (since === undefined || since === null || sampleMs === null) return null;
  if (since < Math.max(BLOCKED_MIN_MS, BLOCKED_INTERVALS * sampleMs)) return null;
  return since - sampleMs;
}

/**
 * Whether the run is blocked now: its latest /proc reading is newer than its latest sample and
 * finds the loop held (a sample that came after it ended the block).
 */
export function blockedNowMs(last: Sample | undefined, lastProc: ProcSample | undefined, sampleMs: number | null): number | null {
  if (!lastProc || (last && last.at >= lastProc.at)) return null;
  return blockedMsAt(lastProc, sampleMs);
}

/** The card's badge: "event loop blocked for 4.8 s". */
export function blockedText(ms: number): string {
  return `event loop blocked for ${formatSeconds(ms)}`;
}
