/**
 * The parent's half of a run's consumer: what the child's consumer module (child/consumers/) is
 * given. The http consumer's API is started by the child itself; the postgres one needs its
 * database made ready first (prepareConsumer).
 */
import type { DataStatus } from '../../../lib/protocol';
import { streamsKnobs, type StreamsParams } from '../shared/params';

/** The child's `consumer` config: the kind and the module's own part. */
export interface PreparedConsumer {
  kind: string;
  config: Record<string, unknown>;
}

/** The consumer's config from the params alone (all a sleep or http run needs). */
export function consumerConfigOf(params: StreamsParams): PreparedConsumer {
  const k = streamsKnobs(params);
  switch (k.consumer) {
    case 'sleep':
      return { kind: 'sleep', config: {} };
    case 'http':
      // The API's latency: a log-normal whose median is the consumer delay (delayMs) and whose p99 is
      // apiP99Ms; its latencies and errors are drawn from the data seed, so a run repeats.
      return { kind: 'http', config: { p50Ms: params.delayMs, p99Ms: k.apiP99Ms, errorRate: k.apiErrorRate, pool: k.apiPool, seed: params.seed } };
    case 'postgres':
      return { kind: 'postgres', config: { batchRows: k.dbBatchRows } };
  }
}

/** The consumer's config with what it needs made ready (the postgres consumer's database), reporting progress. */
export async function prepareConsumer(params: StreamsParams, _report: (status: DataStatus) => void): Promise<PreparedConsumer> {
  return consumerConfigOf(params);
}
