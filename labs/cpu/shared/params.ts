/**
 * The CPU lab's knobs: the work per request (fib(n)), how many requests and how many at once, the
 * workers of the strategies that have them, keep-alive, and the steady /ping. Client-safe.
 */
import { z } from 'zod';
import { COMMON_LIMITS, commonParamsShape, DEFAULT_COMMON_PARAMS, rangedNumber, type Limit } from '../../../lib/protocol/params';

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

export const CPU_PARAM_LIMITS = { ...CPU_LIMITS, ...COMMON_LIMITS } as const;

export const cpuParamsSchema = z.object({
  n: rangedNumber('n', CPU_LIMITS.n, { int: true }),
  concurrency: rangedNumber('concurrency', CPU_LIMITS.concurrency, { int: true }),
  requests: rangedNumber('requests', CPU_LIMITS.requests, { int: true }),
  workers: rangedNumber('workers', CPU_LIMITS.workers, { int: true }).nullable(),
  /** Reuse connections (cluster balances connections, not requests: this changes who serves what). */
  keepAlive: z.boolean({ error: 'keepAlive must be true or false' }),
  pingMs: rangedNumber('pingMs', CPU_LIMITS.pingMs, { int: true }),
  ...commonParamsShape,
});
export type CpuParams = z.infer<typeof cpuParamsSchema>;

export const DEFAULT_CPU_PARAMS: CpuParams = {
  n: CPU_LIMITS.n.default,
  concurrency: CPU_LIMITS.concurrency.default,
  requests: CPU_LIMITS.requests.default,
  workers: null,
  keepAlive: false,
  pingMs: CPU_LIMITS.pingMs.default,
  ...DEFAULT_COMMON_PARAMS,
};
