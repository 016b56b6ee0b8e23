/**
 * Every message between browser and server, defined once as zod schemas; the TypeScript types are
 * inferred from them. Imported by both sides, so nothing here may import from `node:`.
 */
import { z } from 'zod';
import { LIMITS, runParamsSchema } from './params';

/** Largest WebSocket message the server accepts from a browser. */
export const MAX_CLIENT_MESSAGE_BYTES = 64 * 1024;

export const OUTCOMES = ['completed', 'data-lost', 'out-of-memory', 'crashed', 'stopped', 'timed-out'] as const;
export const outcomeSchema = z.enum(OUTCOMES);
export type Outcome = z.infer<typeof outcomeSchema>;

/** 'interrupted' is for a run the server lost track of (it died mid-run). */
export const runStatusSchema = z.enum(['queued', 'preparing', 'running', ...OUTCOMES, 'interrupted']);
export type RunStatus = z.infer<typeof runStatusSchema>;

const memoryFields = {
  rss: z.number(),
  heapTotal: z.number(),
  heapUsed: z.number(),
  external: z.number(),
  arrayBuffers: z.number(),
};
export const memorySchema = z.object(memoryFields);
export type Memory = z.infer<typeof memorySchema>;
export const MEMORY_FIELDS = ['rss', 'heapTotal', 'heapUsed', 'external', 'arrayBuffers'] as const;
export type MemoryField = (typeof MEMORY_FIELDS)[number];

/** One reading taken inside the child. Bytes are bytes; times are ms. */
export const sampleSchema = z.object({
  ...memoryFields,
  /** ms since the child started the strategy. */
  t: z.number(),
  /** Child's wall clock (epoch ms) when the sample was taken: lets the page measure sample age. */
  at: z.number(),
  bytesRead: z.number(),
  bytesProcessed: z.number(),
  chunks: z.number(),
  /** Consumer calls started and not yet finished: 1 for a sequential reader, more when an operator runs them concurrently. */
  inFlight: z.number(),
  /** The source stream's internal buffer (readableLength), where the strategy exposes it. */
  readableLength: z.number(),
  /** Event-loop delay over the last interval. */
  elMeanMs: z.number(),
  elMaxMs: z.number(),
  gcCount: z.number(),
  gcMs: z.number(),
});
export type Sample = z.infer<typeof sampleSchema>;

/** RSS read by the parent from /proc/<pid>/status, so a run with a blocked event loop still moves. */
export const procSampleSchema = z.object({ t: z.number(), at: z.number(), rss: z.number() });
export type ProcSample = z.infer<typeof procSampleSchema>;

export const strategyInfoSchema = z.object({
  id: z.string(),
  label: z.string(),
  library: z.string(),
  libraryVersion: z.string(),
  mode: z.enum(['push', 'pull']),
  /** The strategy keeps every result until the end (toArray), so heap growth is results, not garbage. */
  keepsResults: z.boolean(),
  explanation: z.string(),
  code: z.string(),
  /** Present for the six strategies the source article measured. */
  article: z.object({ peakMb: z.string(), note: z.string() }).nullable(),
});
export type StrategyInfo = z.infer<typeof strategyInfoSchema>;

export const summarySchema = z.object({
  runId: z.string(),
  strategy: z.string(),
  outcome: outcomeSchema,
  /** Why the run ended the way it did (error text, budget crossed, …). */
  reason: z.string().nullable(),
  fileBytes: z.number(),
  bytesRead: z.number(),
  bytesProcessed: z.number(),
  chunks: z.number(),
  durationMs: z.number(),
  mbPerSec: z.number(),
  peak: memorySchema,
  idle: memorySchema.nullable(),
  aboveIdle: memorySchema.nullable(),
  /** Highest RSS the parent saw from outside (/proc). */
  procPeakRss: z.number(),
  /** Largest gap between bytes read and bytes processed: how far the reader ran ahead. */
  peakBufferedBytes: z.number(),
  /** Most consumer calls running at once. */
  peakInFlight: z.number(),
  eventLoopDelayMs: z.object({ p50: z.number(), p99: z.number(), max: z.number() }),
  gc: z.object({ count: z.number(), totalMs: z.number() }),
  sampleCount: z.number(),
  nodeVersion: z.string(),
  library: z.object({ name: z.string(), version: z.string() }),
  params: runParamsSchema,
  startedAt: z.number(),
});
export type RunSummary = z.infer<typeof summarySchema>;

export const runStateSchema = z.object({
  id: z.string(),
  experimentId: z.string(),
  strategy: z.string(),
  params: runParamsSchema,
  status: runStatusSchema,
  queuedAt: z.number(),
  startedAt: z.number().nullable(),
  /** The child process running it, while it runs. */
  pid: z.number().nullable(),
  fileBytes: z.number().nullable(),
  summary: summarySchema.nullable(),
});
export type RunState = z.infer<typeof runStateSchema>;

export const dataStatusSchema = z.object({
  sizeBytes: z.number(),
  writtenBytes: z.number(),
  state: z.enum(['generating', 'ready', 'failed']),
  message: z.string().nullable(),
});
export type DataStatus = z.infer<typeof dataStatusSchema>;

// ---------------------------------------------------------------- browser → server

const strategyIds = z
  .array(z.string().max(64), { error: 'strategies must be a list of strategy ids' })
  .min(LIMITS.strategies.min, { error: `strategies must list between ${LIMITS.strategies.min} and ${LIMITS.strategies.max} ids` })
  .max(LIMITS.strategies.max, { error: `strategies must list between ${LIMITS.strategies.min} and ${LIMITS.strategies.max} ids` });

export const clientMessageSchema = z.discriminatedUnion(
  'type',
  [
    z.object({
      type: z.literal('experiment.start'),
      strategies: strategyIds,
      params: runParamsSchema.strict(),
      /** Run all strategies at once instead of one after another (their figures then disturb each other). */
      parallel: z.boolean().default(false),
    }),
    z.object({ type: z.literal('run.stop'), runId: z.string().max(64) }),
    z.object({ type: z.literal('experiment.stop'), experimentId: z.string().max(64) }),
    z.object({ type: z.literal('stop.all') }),
    z.object({ type: z.literal('resync') }),
  ],
  { error: 'type must be one of experiment.start, run.stop, experiment.stop, stop.all, resync' },
);
export type ClientMessage = z.infer<typeof clientMessageSchema>;

// ---------------------------------------------------------------- server → browser

export const experimentSchema = z.object({
  id: z.string(),
  strategies: z.array(z.string()),
  params: runParamsSchema,
  parallel: z.boolean(),
  createdAt: z.number(),
  runIds: z.array(z.string()),
});
export type Experiment = z.infer<typeof experimentSchema>;

export const ERROR_CODES = ['bad-request', 'not-found', 'too-large', 'internal'] as const;

export const serverMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('snapshot'),
    strategies: z.array(strategyInfoSchema),
    maxSizeMb: z.number(),
    nodeVersion: z.string(),
    experiments: z.array(experimentSchema),
    runs: z.array(runStateSchema),
    /** Samples so far for every run still in memory, so a late joiner can draw history. */
    samples: z.record(z.string(), z.array(sampleSchema)),
    proc: z.record(z.string(), z.array(procSampleSchema)),
    data: z.array(dataStatusSchema),
  }),
  z.object({ type: z.literal('experiment.created'), experiment: experimentSchema }),
  z.object({ type: z.literal('run.queued'), run: runStateSchema }),
  z.object({ type: z.literal('run.updated'), run: runStateSchema }),
  z.object({
    type: z.literal('run.samples'),
    runId: z.string(),
    samples: z.array(sampleSchema),
    proc: z.array(procSampleSchema),
    /** Samples merged away because this browser was reading too slowly. */
    dropped: z.number(),
  }),
  z.object({ type: z.literal('run.ended'), run: runStateSchema, summary: summarySchema }),
  z.object({ type: z.literal('data.progress'), data: dataStatusSchema }),
  z.object({
    type: z.literal('error'),
    code: z.enum(ERROR_CODES),
    message: z.string(),
    /** The client message this answers, when known. */
    requestType: z.string().nullable(),
  }),
]);
export type ServerMessage = z.infer<typeof serverMessageSchema>;
