/**
 * What a strategy of the deadlines lab can be there to show. Each strategy file declares one (its
 * `role`); the verdict reads the declaration, never the strategy's id. Browser-safe and zod-free.
 */
export const ROLES = {
  'no-limit': 'takes every request and does its work on the main thread',
  limits: 'caps the requests in flight, still working on the main thread',
  sheds: 'refuses requests (503) once the event loop lags',
  offloads: 'moves the work per object to a pool of threads',
} as const;

export type Role = keyof typeof ROLES;
