/**
 * What the streams lab adds to the common protocol: its readings in every sample, its figures in
 * every summary, and how far a run got. Client-safe (no `node:`): the pages parse with it.
 */
import { z } from 'zod';
import { DEFAULT_STREAMS_PARAMS, streamsParamsSchema } from './params';
import { describeParams } from './describe';
import type { ParamsStyle } from '../../schemas';
import type { StreamsParams } from './params';
import { form } from './form';
import { markdownTable } from './markdown';
import { csv } from './csv';
import type { LabSummary } from '../../../lib/protocol';
import { LAB_ID } from './id';

/** Readings the child adds to each sample (see scenario.ts). */
export const STREAMS_READINGS = [
  'bytesRead',
  'bytesProcessed',
  'chunks',
  /** Consumer calls started and not yet finished: 1 for a sequential reader, more when an operator overlaps them. */
  'inFlight',
  /** The source stream's internal buffer (readableLength). */
  'readableLength',
  /** CSV lines processed (the header too), whether chunks or records flow. */
  'records',
  /** The http consumer: calls sent and not yet answered, calls waiting for a pool connection, errors answered. */
  'apiInFlight',
  'apiQueued',
  'apiErrors',
  /** The postgres consumer: rows committed so far. */
  'dbRows',
  /**
   * What the latest full GC (mark-compact) of the interval left: arrayBuffers, heapUsed, and the
   * bytes read by then. Absent in a sample whose interval had none (child/gc-left.ts).
   */
  'gcLeftArrayBuffers',
  'gcLeftHeapUsed',
  'gcLeftBytesRead',
] as const;

export const streamsFigures = {
  /** Size of the data file the run read. */
  fileBytes: z.number(),
  bytesRead: z.number(),
  bytesProcessed: z.number(),
  chunks: z.number(),
  /** Null when the run took no time (it never started): a rate of nothing measured is no rate. */
  mbPerSec: z.number().nullable(),
  /** Largest gap between bytes read and bytes processed: how far the reader ran ahead. */
  peakBufferedBytes: z.number(),
  /** Most consumer calls running at once. */
  peakInFlight: z.number(),
  // Since the consumers (#30); absent in runs recorded before them.
  /** CSV lines processed, and per second of the run: the throughput a team compares. */
  records: z.number().optional(),
  recordsPerSec: z.number().nullable().optional(),
  /** The concurrency the strategy ran with: the knob for a bounded strategy, 1 for a sequential one, null for an unbounded one. */
  concurrency: z.number().nullable().optional(),
  /** The http consumer: calls the API answered, errors among them, and the latency the consumer saw (ms). */
  apiCalls: z.number().optional(),
  apiErrors: z.number().optional(),
  apiP50Ms: z.number().optional(),
  apiP99Ms: z.number().optional(),
  /** Most calls waiting for a pool connection at once. */
  peakApiQueued: z.number().optional(),
  /** The postgres consumer: rows in the table at the end (checked against the rows sent), and inserted per second. */
  dbRows: z.number().optional(),
  insertsPerSec: z.number().nullable().optional(),
  /**
   * The http and postgres consumers: how long the API or database took to start, and the end check
   * (every item arrived once) with the close (ms). Neither is in the run's time, records/s or inserts/s.
   */
  consumerStartMs: z.number().optional(),
  consumerCheckMs: z.number().optional(),
  // Since issue 38; absent in runs recorded before: what tells garbage from memory the strategy kept.
  /** What V8's latest full GC during the run left (arrayBuffers, heapUsed) and the bytes read by then; null: none ran. */
  gcLeftArrayBuffers: z.number().nullable().optional(),
  gcLeftHeapUsed: z.number().nullable().optional(),
  gcLeftBytesRead: z.number().nullable().optional(),
  /** What a full GC left once the strategy had finished (after the final sample); null: not measured (the run did not finish). */
  endGcArrayBuffers: z.number().nullable().optional(),
  endGcHeapUsed: z.number().nullable().optional(),
};

export const streamsSchema = {
  id: LAB_ID,
  /** Place in the lab switch and lists (lower first). */
  order: 10,
  name: 'Streams',
  title: 'Streams: push vs pull readers over a large file',
  params: streamsParamsSchema,
  defaults: DEFAULT_STREAMS_PARAMS,
  readings: STREAMS_READINGS,
  figures: streamsFigures,
  form,
  markdownTable,
  csv,
  historyColumns: [
    { key: 'peak.arrayBuffers', header: 'arrayBuffers', unit: 'bytes' },
    { key: 'peakBufferedBytes', header: 'Ahead of consumer', unit: 'bytes' },
    { key: 'mbPerSec', header: 'MB/s', unit: 'number' },
    // Whole records a second (a "–" for runs recorded before the consumers, #30).
    { key: 'recordsPerSec', header: 'Records/s', unit: 'count' },
  ],
  metrics: ['arrayBuffers', 'rss', 'heapUsed', 'external', 'heapTotal', 'buffered', 'cpuPct', 'elu'] as const,
  // Its verdict reads each strategy's mode and keepsResults; it has no roles.
  roles: null,
  describe: (params: Record<string, unknown>, style: ParamsStyle) => describeParams(params as StreamsParams, style),
  /** Which figures say how much of the work was done: what the history list shows as progress. */
  progress: { done: 'bytesProcessed', total: 'fileBytes' },
} as const;

/** A streams run's summary: the common part, its params and its figures. */
export type StreamsSummary = LabSummary<typeof LAB_ID>;

/** What the lab registry picks up from this folder (scripts/lab-index.mjs). */
export { streamsSchema as schema };
