/**
 * The streams lab's knobs' ranges as plain values: zod-free, so its child checks its config against
 * the same numbers the form, the CLI and the server validate with (params.ts builds the schema on them).
 */
import type { Limit } from '../../../lib/protocol/limits';

/** Upper bound for generated files; the server may lower it with STREAM_LAB_MAX_SIZE_MB. */
export const DEFAULT_MAX_SIZE_MB = 2048;

export const STREAMS_LIMITS = {
  sizeMb: { min: 1, max: DEFAULT_MAX_SIZE_MB, default: 150 },
  delayMs: { min: 0, max: 1000, default: 10 },
  cpuUs: { min: 0, max: 100_000, default: 0 },
  chunkKb: { min: 1, max: 4096, default: 64 },
  seed: { min: 0, max: 2 ** 31 - 1, default: 1 },
  /** Consumer calls a strategy with a concurrency knob keeps in flight (1 = one at a time, as before the knob). */
  concurrency: { min: 1, max: 64, default: 1 },
  /** The mock API's 99th-percentile latency; its median is delayMs. Below the median = no spread. */
  apiP99Ms: { min: 0, max: 10_000, default: 50 },
  /** Share of API calls answered 500. */
  apiErrorRate: { min: 0, max: 1, default: 0 },
  /** Connections of the undici pool the http consumer calls the API through. */
  apiPool: { min: 1, max: 256, default: 16 },
  /** Rows per INSERT of the postgres consumer. */
  dbBatchRows: { min: 1, max: 10_000, default: 500 },
} as const satisfies Record<string, Limit>;

/** What the strategies hand each chunk (or record) to: a wait, a call to a mock API, or an insert into PostgreSQL. */
export const CONSUMERS = ['sleep', 'http', 'postgres'] as const;
export type ConsumerKind = (typeof CONSUMERS)[number];
