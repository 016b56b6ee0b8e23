/**
 * The parent's half of a run's consumer: what the child's consumer module (child/consumers/) is
 * given. The http consumer's API is started by the child itself; the postgres one needs its
 * database made ready first (prepareConsumer).
 */
import type { DataStatus } from '../../../lib/protocol';
import { connect, dbReadPaths, readyDb } from '../../../server/db/ready';
import { LAB_ID } from '../shared/id';
import { streamsKnobs, type StreamsParams } from '../shared/params';

/** The child's `consumer` config: the kind and the module's own part. */
export interface PreparedConsumer {
  kind: string;
  config: Record<string, unknown>;
  /** What a fenced run's child must read besides the data file (the embedded cluster's password and lock). */
  readPaths?: readonly string[];
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

/**
 * The consumer's config with what it needs made ready, reporting progress: for the postgres
 * consumer, DATABASE_URL answers (checked here, so a wrong one fails before the run starts) or the
 * embedded cluster exists (initdb the first time); the run's child starts its own server on it.
 */
export async function prepareConsumer(params: StreamsParams, report: (status: DataStatus) => void): Promise<PreparedConsumer> {
  const prepared = consumerConfigOf(params);
  if (prepared.kind !== 'postgres') return prepared;
  const status = (state: DataStatus['state'], message: string | null = null) =>
    report({ lab: LAB_ID, unit: 'database', sizeBytes: 1, writtenBytes: state === 'ready' ? 1 : 0, state, message });
  status('generating');
  try {
    const db = await readyDb();
    if ('url' in db) await (await connect(db.url, db.label)).end();
    status('ready');
    return { ...prepared, config: { ...prepared.config, db: db.source }, readPaths: dbReadPaths(db.source) };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    status('failed', message);
    throw new Error(`could not make the postgres consumer's database ready: ${message}`);
  }
}
