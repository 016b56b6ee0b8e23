/**
 * The streams lab's knobs: file size, consumer delay and CPU per chunk, chunk size, data seed, and
 * the consumer: which one, how many calls in flight, records or chunks, the API's and database's own.
 * Client-safe (no `node:`): the form, share links, the CLI and the server all validate with it.
 */
import { z } from 'zod';
import { COMMON_LIMITS, commonParamsShape, DEFAULT_COMMON_PARAMS, rangedNumber } from '../../../lib/protocol/params';

import { STREAMS_LIMITS, DEFAULT_MAX_SIZE_MB, CONSUMERS, type ConsumerKind } from './limits';

export { STREAMS_LIMITS, DEFAULT_MAX_SIZE_MB, CONSUMERS, type ConsumerKind };

/** Every range a streams run's parameters have, common ones included. */
export const LIMITS = { ...STREAMS_LIMITS, ...COMMON_LIMITS } as const;

export const streamsParamsSchema = z.object({
  sizeMb: rangedNumber('sizeMb', LIMITS.sizeMb),
  delayMs: rangedNumber('delayMs', LIMITS.delayMs),
  cpuUs: rangedNumber('cpuUs', LIMITS.cpuUs, { int: true }),
  chunkKb: rangedNumber('chunkKb', LIMITS.chunkKb, { int: true }),
  ...commonParamsShape,
  seed: rangedNumber('seed', LIMITS.seed, { int: true }),
  // The knobs below came with the consumers (#30). Optional: a run recorded before them had the
  // sleep consumer, one call at a time, whole chunks (streamsKnobs fills them in).
  consumer: z.enum(CONSUMERS, { error: `consumer must be one of ${CONSUMERS.join(', ')}` }).optional(),
  concurrency: rangedNumber('concurrency', LIMITS.concurrency, { int: true }).optional(),
  /** Split the chunks into CSV records (lines) before the strategy: each record is then one consumer call. */
  records: z.boolean({ error: 'records must be true or false' }).optional(),
  apiP99Ms: rangedNumber('apiP99Ms', LIMITS.apiP99Ms).optional(),
  apiErrorRate: rangedNumber('apiErrorRate', LIMITS.apiErrorRate).optional(),
  apiPool: rangedNumber('apiPool', LIMITS.apiPool, { int: true }).optional(),
  dbBatchRows: rangedNumber('dbBatchRows', LIMITS.dbBatchRows, { int: true }).optional(),
});
export type StreamsParams = z.infer<typeof streamsParamsSchema>;

export const DEFAULT_STREAMS_PARAMS: StreamsParams = {
  sizeMb: LIMITS.sizeMb.default,
  delayMs: LIMITS.delayMs.default,
  cpuUs: LIMITS.cpuUs.default,
  chunkKb: LIMITS.chunkKb.default,
  ...DEFAULT_COMMON_PARAMS,
  seed: LIMITS.seed.default,
  consumer: 'sleep',
  concurrency: LIMITS.concurrency.default,
  apiP99Ms: LIMITS.apiP99Ms.default,
  apiErrorRate: LIMITS.apiErrorRate.default,
  apiPool: LIMITS.apiPool.default,
  dbBatchRows: LIMITS.dbBatchRows.default,
};

/** The consumer knobs of a run, absent ones (a run recorded before them) at their defaults. */
export function streamsKnobs(p: StreamsParams) {
  return {
    consumer: p.consumer ?? 'sleep',
    concurrency: p.concurrency ?? LIMITS.concurrency.default,
    records: p.records ?? false,
    apiP99Ms: p.apiP99Ms ?? LIMITS.apiP99Ms.default,
    apiErrorRate: p.apiErrorRate ?? LIMITS.apiErrorRate.default,
    apiPool: p.apiPool ?? LIMITS.apiPool.default,
    dbBatchRows: p.dbBatchRows ?? LIMITS.dbBatchRows.default,
  };
}
