/**
 * The CPU lab's knobs: the work per request (fib(n)), how many requests and how many at once, the
 * workers of the strategies that have them, keep-alive, and the steady /ping. Client-safe.
 */
import { z } from 'zod';
import { COMMON_LIMITS, commonParamsShape, DEFAULT_COMMON_PARAMS, rangedNumber } from '../../../lib/protocol/params';

import { CPU_LIMITS } from './limits';

export { CPU_LIMITS };

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
