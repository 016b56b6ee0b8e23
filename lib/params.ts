/**
 * The parameters of the streams lab as its pages, lessons and CLI know them (`RunParams`,
 * `LIMITS`, `DEFAULT_PARAMS`), plus the common helpers. The definitions live with the lab
 * (labs/streams/shared/params.ts) and with every lab's common part (lib/protocol/params.ts); this
 * module only gives them the names the streams pages were written against.
 */
import { LIMITS, type StreamsParams, DEFAULT_MAX_SIZE_MB, DEFAULT_STREAMS_PARAMS, streamsParamsSchema } from '../labs/streams/shared/params';
import { rangeMessageFor } from './protocol/params';

export { MIB, describeZodError } from './protocol/params';
export { LIMITS, DEFAULT_MAX_SIZE_MB };

type NumericField = Exclude<keyof typeof LIMITS, 'strategies'>;

/** "delayMs must be between 0 and 1000": the one wording every boundary uses. */
export function rangeMessage(field: NumericField, max: number = LIMITS[field].max): string {
  return rangeMessageFor(field, LIMITS[field], max);
}

/** Parameters shared by every run of a streams experiment. */
export const runParamsSchema = streamsParamsSchema;
export type RunParams = StreamsParams;
export const DEFAULT_PARAMS: RunParams = DEFAULT_STREAMS_PARAMS;
