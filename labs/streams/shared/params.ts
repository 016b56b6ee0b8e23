/**
 * The streams lab's knobs: file size, consumer delay and CPU per chunk, chunk size, data seed.
 * Client-safe (no `node:`): the form, share links, the CLI and the server all validate with it.
 */
import { z } from 'zod';
import { COMMON_LIMITS, commonParamsShape, DEFAULT_COMMON_PARAMS, rangedNumber } from '../../../lib/protocol/params';

import { STREAMS_LIMITS, DEFAULT_MAX_SIZE_MB } from './limits';

export { STREAMS_LIMITS, DEFAULT_MAX_SIZE_MB };

/** Every range a streams run's parameters have, common ones included. */
export const LIMITS = { ...STREAMS_LIMITS, ...COMMON_LIMITS } as const;

export const streamsParamsSchema = z.object({
  sizeMb: rangedNumber('sizeMb', LIMITS.sizeMb),
  delayMs: rangedNumber('delayMs', LIMITS.delayMs),
  cpuUs: rangedNumber('cpuUs', LIMITS.cpuUs, { int: true }),
  chunkKb: rangedNumber('chunkKb', LIMITS.chunkKb, { int: true }),
  ...commonParamsShape,
  seed: rangedNumber('seed', LIMITS.seed, { int: true }),
});
export type StreamsParams = z.infer<typeof streamsParamsSchema>;

export const DEFAULT_STREAMS_PARAMS: StreamsParams = {
  sizeMb: LIMITS.sizeMb.default,
  delayMs: LIMITS.delayMs.default,
  cpuUs: LIMITS.cpuUs.default,
  chunkKb: LIMITS.chunkKb.default,
  ...DEFAULT_COMMON_PARAMS,
  seed: LIMITS.seed.default,
};
