/**
 * The deadlines lab's knobs: the traffic schedule (baseline, spike, length), what one request does
 * (K objects from the store, CPU work per object, its deadline), the store's latency, and the knobs
 * of the strategies that have one (the limiter's concurrency, the pool's workers, the shedding
 * threshold). Client-safe.
 */
import { z } from 'zod';
import { COMMON_LIMITS, commonParamsShape, DEFAULT_COMMON_PARAMS, rangedNumber, type Limit } from '../../../lib/protocol/params';

export const DEADLINE_LIMITS = {
  /** Requests per second outside the spike (the write-up's 50 a minute, time-compressed). */
  baselineRps: { min: 0.1, max: 200, default: 2 },
  /** Requests per second during the spike (the write-up's 200+ a minute: 4× the baseline). */
  spikeRps: { min: 0.1, max: 200, default: 8 },
  /** When the spike starts, seconds after the load's start. */
  spikeStartS: { min: 0, max: 600, default: 15 },
  /** How long the spike lasts. */
  spikeS: { min: 1, max: 600, default: 20 },
  /** The whole schedule: baseline, spike, baseline again. */
  durationS: { min: 2, max: 600, default: 60 },
  /** K: objects fetched from the store per request (the write-up: 10–100). */
  objects: { min: 10, max: 100, default: 50 },
  /** CPU work per object on whichever thread does it (JSON parse + transform, calibrated to this time). */
  cpuMs: { min: 0, max: 5, default: 3 },
  /** Each request's hard deadline (the write-up's 1200 ms timeout). */
  deadlineMs: { min: 10, max: 60_000, default: 1200 },
  /** Median latency of one GET from the store (log-normal, p99 ≈ 5× the median). */
  storeMedianMs: { min: 1, max: 1000, default: 20 },
  /** limited-concurrency: GETs (with their work) at once in the whole service. */
  concurrency: { min: 1, max: 1000, default: 16 },
  /** worker-pool: threads of the pool; empty = the server's cores. */
  workers: { min: 1, max: 64 },
  /** shed-load: refuse new requests (503) while the event loop is this late. */
  shedLagMs: { min: 1, max: 10_000, default: 50 },
} as const satisfies Record<string, Limit>;

export const DEADLINE_PARAM_LIMITS = { ...DEADLINE_LIMITS, ...COMMON_LIMITS } as const;

const L = DEADLINE_LIMITS;

export const deadlineParamsSchema = z.object({
  baselineRps: rangedNumber('baselineRps', L.baselineRps),
  spikeRps: rangedNumber('spikeRps', L.spikeRps),
  spikeStartS: rangedNumber('spikeStartS', L.spikeStartS),
  spikeS: rangedNumber('spikeS', L.spikeS),
  durationS: rangedNumber('durationS', L.durationS),
  objects: rangedNumber('objects', L.objects, { int: true }),
  cpuMs: rangedNumber('cpuMs', L.cpuMs),
  deadlineMs: rangedNumber('deadlineMs', L.deadlineMs, { int: true }),
  storeMedianMs: rangedNumber('storeMedianMs', L.storeMedianMs),
  concurrency: rangedNumber('concurrency', L.concurrency, { int: true }),
  workers: rangedNumber('workers', L.workers, { int: true }).nullable(),
  shedLagMs: rangedNumber('shedLagMs', L.shedLagMs, { int: true }),
  ...commonParamsShape,
});
export type DeadlineParams = z.infer<typeof deadlineParamsSchema>;

export const DEFAULT_DEADLINE_PARAMS: DeadlineParams = {
  baselineRps: L.baselineRps.default,
  spikeRps: L.spikeRps.default,
  spikeStartS: L.spikeStartS.default,
  spikeS: L.spikeS.default,
  durationS: L.durationS.default,
  objects: L.objects.default,
  cpuMs: L.cpuMs.default,
  deadlineMs: L.deadlineMs.default,
  storeMedianMs: L.storeMedianMs.default,
  concurrency: L.concurrency.default,
  workers: null,
  shedLagMs: L.shedLagMs.default,
  ...DEFAULT_COMMON_PARAMS,
};

/** The spike must end within the schedule, or the run would never show one: a RangeError naming the field. */
export function checkSpikeFits(p: Pick<DeadlineParams, 'spikeStartS' | 'spikeS' | 'durationS'>): void {
  if (p.spikeStartS + p.spikeS > p.durationS) {
    throw new RangeError(`spikeS: the spike (from ${p.spikeStartS} s for ${p.spikeS} s) must end within durationS (${p.durationS} s)`);
  }
}

export { arrivalTimesMs } from './schedule';
