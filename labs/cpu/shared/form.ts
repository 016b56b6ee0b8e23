/** The cpu lab's experiment form as a person sees it: its fields, switches, links and first strategies. Pure data. */
import { COMMON_FIELDS, PROFILE_SWITCHES, type FieldContext, type LabForm } from '../../../lib/form/form-spec';
import type { Role } from './roles';
import { CPU_PARAM_LIMITS, cpuParamsSchema, DEFAULT_CPU_PARAMS } from './params';
import { LAB_ID } from './id';

/** How long one run of these params takes, roughly (the queue's wait before a run, the form's estimate before a Start). */
export function estimateMs(raw: Readonly<Record<string, unknown>>): number {
  // fib(40) ≈ 1.2 s here (§9), ×1.618 per n; one computation alone first, then the requests on ≤ 2 cores.
  const p = cpuParamsSchema.parse(raw);
  const one = 1200 * 1.618 ** (p.n - 40);
  return Math.round(one + (one * p.requests) / 2);
}

/** The roles whose strategies keep a number of workers (shared/roles.ts). */
const WITH_WORKERS: ReadonlySet<Role> = new Set(['processes', 'pool', 'leaky-pool']);

export const form: LabForm = {
  lab: LAB_ID,
  fields: [
    {
      field: 'n',
      label: 'Work per request',
      unit: 'fib(n)',
      hint: 'recursive Fibonacci; fib(40) takes about a second on one core, each +1 about 1.6× more',
      integer: true,
    },
    { field: 'requests', label: 'Requests in all', integer: true },
    { field: 'concurrency', label: 'Requests at once', integer: true },
    {
      field: 'workers',
      label: 'Workers',
      unit: 'processes or threads',
      hint: 'of cluster and the pools',
      integer: true,
      empty: 'cores',
      // One thread and a worker per request have no count of workers to set.
      appliesWhen: (f: FieldContext) => f.strategies.some((s) => WITH_WORKERS.has(s.role as Role)),
    },
    { field: 'pingMs', label: 'Ping every', unit: 'ms', hint: 'a cheap GET /ping, to show what it waits; 0 = none', integer: true },
    ...COMMON_FIELDS,
  ],
  switches: [
    {
      field: 'keepAlive',
      label: 'Keep-alive connections',
      note: 'Reuse connections. cluster balances connections, not requests: with keep-alive a client’s requests all go to one process.',
    },
    ...PROFILE_SWITCHES,
  ],
  linkOrder: ['n', 'requests', 'concurrency', 'workers', 'pingMs', 'sampleMs', 'budgetMb', 'maxOldSpaceMb', 'timeoutS'],
  limits: CPU_PARAM_LIMITS,
  cappedField: null,
  schema: cpuParamsSchema,
  defaults: DEFAULT_CPU_PARAMS,
  // One thread against a pool: the lab's first lesson (requests queue vs spread over the cores).
  defaultStrategies: ['single-thread', 'worker-pool'],
  alwaysWritten: new Set(['n', 'requests', 'concurrency']),
  runsAlone: 'each run needs every core of the machine to itself',
  estimateMs,
  // Seed 004: fib(n) per request on one thread, in cluster processes, a process or a thread per request, and a pool (docs/results.md §9).
  writeUp: {
    what: 'fib(40) per request: one thread against cluster, fork and worker_threads, and the write-up’s pool',
    params: {},
    strategies: ['single-thread', 'cluster', 'fork-per-request', 'worker-per-request', 'cluster-pool-leaky'],
  },
};
