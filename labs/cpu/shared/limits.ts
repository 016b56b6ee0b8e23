/**
 * The cpu lab's knobs' ranges as plain values: zod-free, so its child checks its config against
 * the same numbers the form, the CLI and the server validate with (params.ts builds the schema on them).
 */
import type { Limit } from '../../../lib/protocol/limits';

export const CPU_LIMITS = {
  /** fib(n), recursive: fib(40) takes about 1.2 s on this machine's cores (docs/results.md §9). */
  n: { min: 20, max: 45, default: 40 },
  /** Requests sent at once. */
  concurrency: { min: 1, max: 64, default: 4 },
  /** Requests in all. */
  requests: { min: 1, max: 1000, default: 4 },
  /** Processes or threads of the strategies that keep some (cluster, pools); empty = the server's cores. */
  workers: { min: 1, max: 64 },
  /** A GET /ping every this many ms while the run lasts (0 = none): what a cheap request waits. */
  pingMs: { min: 0, max: 1000, default: 100 },
} as const satisfies Record<string, Limit>;
