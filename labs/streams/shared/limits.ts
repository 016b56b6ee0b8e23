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
} as const satisfies Record<string, Limit>;
