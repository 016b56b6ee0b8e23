/**
 * The lateness figures of a whole run: percentiles of every timer that fired, the spike's p99, and
 * how long after the spike the timers were on time again. Pure.
 */
import { percentileOf } from './lateness';
import { RECOVERED_MS } from '../shared/schedule';
import type { LatenessPoint } from '../shared/schema';

export interface Schedule {
  spikeStartS: number;
  spikeS: number;
  durationS: number;
  /** When the load's schedule started, ms after the run's start (−1 if it never did). */
  scheduleStartMs: number;
  /** One request's work (K × the work per object), ms: the most a baseline request may hold the loop. */
  requestWorkMs: number;
}

/**
 * Lateness percentiles, spike p99 and recovery (ms; −1 = still late in the schedule's last second),
 * with the line recovery was judged by (`recoveredBelowMs`).
 */
export function recoveryFigures(recorder: { all(): readonly LatenessPoint[] }, s: Schedule): Record<string, number> {
  const points = recorder.all();
  const values = points.map((p) => p.latenessMs);
  const spikeFrom = s.scheduleStartMs + s.spikeStartS * 1000;
  const spikeTo = spikeFrom + s.spikeS * 1000;
  const scheduleEnd = s.scheduleStartMs + s.durationS * 1000;
  const inSpike = points.filter((p) => p.atMs >= spikeFrom && p.atMs <= spikeTo).map((p) => p.latenessMs);
  // On time means as on time as before the spike: one request's work already holds the loop for
  // K × the work per object in the baseline (150 ms at the defaults), which no spike caused. Not
  // more than that, though: a baseline already behind (a busy machine) must not hide the spike's lag.
  const before = points.filter((p) => p.atMs >= s.scheduleStartMs && p.atMs < spikeFrom).map((p) => p.latenessMs);
  const onTimeMs = Math.max(RECOVERED_MS, Math.min(1.5 * percentileOf(before, 99), 1.5 * s.requestWorkMs));
  // A timer L ms late at time t means the loop was held from t − L to t: the last such after the spike.
  const lastLate = points.filter((p) => p.latenessMs > onTimeMs && p.atMs >= spikeTo).reduce((m, p) => Math.max(m, p.atMs), -Infinity);
  const recoveryMs = s.scheduleStartMs < 0 ? -1 : lastLate === -Infinity ? 0 : lastLate > scheduleEnd - 1000 ? -1 : lastLate - spikeTo;
  return {
    latenessP50Ms: percentileOf(values, 50),
    latenessP99Ms: percentileOf(values, 99),
    latenessMaxMs: values.reduce((m, v) => Math.max(m, v), 0),
    spikeLatenessP99Ms: percentileOf(inSpike, 99),
    recoveryMs,
    recoveredBelowMs: onTimeMs,
  };
}
