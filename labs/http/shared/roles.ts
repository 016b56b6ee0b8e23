/**
 * What a strategy of the HTTP responses lab can be there to show. Each strategy file declares one (its
 * `role`); the verdict reads the declaration, never the strategy's id. Browser-safe and zod-free.
 */
export const ROLES = {
  buffered: 'builds the whole body in memory before sending it (the usual endpoint: the baseline)',
  'buffered-in': 'reads every row into memory, then streams the response out',
  cursor: 'streams rows from a database cursor with backpressure',
  'ignores-drain': 'writes rows without waiting for the socket to drain',
} as const;

export type Role = keyof typeof ROLES;
