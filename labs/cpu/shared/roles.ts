/**
 * What a strategy of the CPU lab can be there to show. Each strategy file declares one (its
 * `role`); the verdict reads the declaration, never the strategy's id. Browser-safe and zod-free.
 */
export const ROLES = {
  'one-thread': 'computes every request on the one main thread (the baseline)',
  processes: 'spreads requests over worker processes (cluster)',
  'per-request': 'starts a process or thread for each request',
  pool: 'keeps a pool of workers and queues requests to them',
  'leaky-pool': 'a pool that adds a listener per request and never removes it',
} as const;

export type Role = keyof typeof ROLES;
