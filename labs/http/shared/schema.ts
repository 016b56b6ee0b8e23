/**
 * What the HTTP lab adds to the common protocol: the server-under-test's and the load's readings in
 * every sample, its figures in every summary, and how far a run got. Client-safe (no `node:`).
 */
import { z } from 'zod';
import { DEFAULT_HTTP_PARAMS, httpParamsSchema } from './params';
import { describeParams } from './describe';
import type { ParamsStyle } from '../../schemas';
import type { HttpParams } from './params';
import { form } from './form';
import { markdownTable } from './markdown';
import { csv } from './csv';
import type { LabSummary } from '../../../lib/protocol';
import { LAB_ID } from './id';
import { ROLES } from './roles';

/** Readings added to each sample (see scenario.ts): the server's own, then the load child's. */
export const HTTP_READINGS = [
  /** Responses open on the server right now. */
  'openResponses',
  /** Bytes queued in the sockets of open responses (sum of `res.writableLength`): what a push writer piles up. */
  'writableBytes',
  /** Rows the server has written into responses so far. */
  'rowsSent',
  /** Database connections of the server's pool in use (the rest idle): back to 0 when every response has ended. */
  'dbClientsBusy',
  /** Responses the load has received complete and checked so far (slow clients included). */
  'responses',
  /** Of those, the ones complete and right: the run's progress. */
  'responsesOk',
  /** Responses that came back wrong (status, row count or checksum) or failed. */
  'badResponses',
  /** Responses per second over the last second (moving window). */
  'reqPerSec',
  /** Latency percentiles of the responses finished in the last 2 s (ms; 0 before the first, the last ones while none finish). */
  'latencyP50Ms',
  'latencyP99Ms',
  /** CPU of the load child (% of one core), shown apart from the server's. */
  'loadCpuPct',
] as const;

export const httpFigures = {
  /** Rows in the table served. */
  rows: z.number(),
  /** Responses asked for in all: the load's requests plus one per slow client. */
  requestsPlanned: z.number(),
  /** Responses received complete with the right rows and checksum. */
  responsesOk: z.number(),
  badResponses: z.number(),
  /** Responses per second of the load's own clients; null when the load never reported it (the run never started, or ended first). */
  reqPerSec: z.number().nullable(),
  /** Latencies of the load's responses; null when none came back or the load never reported (so are the times below: not measured, 0 in older records). */
  latencyP50Ms: z.number().nullable(),
  latencyP99Ms: z.number().nullable(),
  /** Time to first byte (headers): the write-up's "server processing". */
  ttfbP50Ms: z.number().nullable(),
  /** First byte to last: the write-up's "content transfer". */
  transferP50Ms: z.number().nullable(),
  /** Body bytes the load received. */
  bytesReceived: z.number(),
  /** Largest sum of `writableLength` over open responses seen in a sample. */
  peakWritableBytes: z.number(),
  peakOpenResponses: z.number(),
  /** Slow clients' responses: median time to read one whole; null without slow clients. */
  slowP50Ms: z.number().nullable(),
  /** CPU the load child used (ms), apart from the server's. */
  loadCpuMs: z.number().nullable(),
};

export const httpSchema = {
  id: LAB_ID,
  /** Place in the lab switch and lists (lower first). */
  order: 20,
  name: 'HTTP responses',
  title: 'HTTP: a buffered JSON response vs a streamed one, from PostgreSQL',
  params: httpParamsSchema,
  defaults: DEFAULT_HTTP_PARAMS,
  readings: HTTP_READINGS,
  figures: httpFigures,
  form,
  markdownTable,
  // Its work holds the loop (the lab's point): the heap is read during the block too.
  watchesBlockedHeap: true,
  csv,
  historyColumns: [
    { key: 'peak.heapUsed', header: 'Peak heapUsed', unit: 'bytes' },
    { key: 'responsesOk', header: 'Responses', unit: 'count' },
    { key: 'latencyP50Ms', header: 'p50 latency', unit: 'ms' },
  ],
  metrics: [
    'heapUsed',
    'writableBytes',
    'latencyP50Ms',
    'latencyP99Ms',
    'reqPerSec',
    'rss',
    'external',
    'arrayBuffers',
    'heapTotal',
    'cpuPct',
    'loadCpuPct',
    'elu',
  ] as const,
  roles: ROLES,
  describe: (params: Record<string, unknown>, style: ParamsStyle) => describeParams(params as HttpParams, style),
  progress: { done: 'responsesOk', total: 'requestsPlanned' },
} as const;

/** A http run's summary: the common part, its params and its figures. */
export type HttpSummary = LabSummary<typeof LAB_ID>;

/** What the lab registry picks up from this folder (scripts/lab-index.mjs). */
export { httpSchema as schema };
