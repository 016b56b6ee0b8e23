/**
 * What a strategy of the hot-code lab can be there to show. Each strategy file declares one (its
 * `role`); the verdict reads the declaration, never the strategy's id. Browser-safe and zod-free.
 */
export const ROLES = {
  'slow-linear': 'a hot spot whose cost per row is high but grows linearly with the rows',
  'slow-quadratic': 'a hot spot whose cost grows with the square of the rows',
  fix: 'the fixed version of a hot spot: linear and cheap per row',
} as const;

export type Role = keyof typeof ROLES;
