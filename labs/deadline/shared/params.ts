/**
 * The deadlines lab's knobs: the traffic schedule (baseline, spike, length), what one request does
 * (K objects from the store, CPU work per object, its deadline), the store's latency, and the knobs
 * of the strategies that have one (the limiter's concurrency, the pool's workers, the shedding
 * threshold). Client-safe.
 */
import { z } from 'zod';
import { COMMON_LIMITS, commonParamsShape, DEFAULT_COMMON_PARAMS, rangedNumber } from '../../../lib/protocol/params';

import { DEADLINE_LIMITS } from './limits';

export { DEADLINE_LIMITS };

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
