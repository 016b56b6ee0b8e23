/**
 * The deadline lab's knobs' ranges as plain values: zod-free, so its child checks its config against
 * the same numbers the form, the CLI and the server validate with (params.ts builds the schema on them).
 */
import type { Limit } from '../../../lib/protocol/limits';

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
