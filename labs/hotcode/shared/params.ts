/**
 * The hot-code lab's knobs: how many rows the report folds (the write-up's month of sales), how
 * many reports the load asks for, the /health probe, and the sweep over row counts. Client-safe.
 */
import { z } from 'zod';
import { COMMON_LIMITS, commonParamsShape, DEFAULT_COMMON_PARAMS, rangedNumber } from '../../../lib/protocol/params';

import { HOTCODE_LIMITS } from './limits';

export { HOTCODE_LIMITS };

export const HOTCODE_PARAM_LIMITS = { ...HOTCODE_LIMITS, ...COMMON_LIMITS } as const;

export const hotcodeParamsSchema = z.object({
  rows: rangedNumber('rows', HOTCODE_LIMITS.rows, { int: true }),
  requests: rangedNumber('requests', HOTCODE_LIMITS.requests, { int: true }),
  probeMs: rangedNumber('probeMs', HOTCODE_LIMITS.probeMs, { int: true }),
  /** Instead of `requests` reports of `rows` rows: one report per step of 1e3, 2e3, 5e3, 1e4 … up to `rows`, timed. */
  sweep: z.boolean({ error: 'sweep must be true or false' }),
  ...commonParamsShape,
});
export type HotcodeParams = z.infer<typeof hotcodeParamsSchema>;

export const DEFAULT_HOTCODE_PARAMS: HotcodeParams = {
  rows: HOTCODE_LIMITS.rows.default,
  requests: HOTCODE_LIMITS.requests.default,
  probeMs: HOTCODE_LIMITS.probeMs.default,
  sweep: false,
  ...DEFAULT_COMMON_PARAMS,
};
