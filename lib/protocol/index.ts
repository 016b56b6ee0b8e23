/**
 * Every message between browser and server, defined once as zod schemas; the TypeScript types are
 * inferred from them. Imported by both sides, so nothing here may import from `node:`.
 */
import { z } from 'zod';
import { LAB_IDS, LAB_SCHEMAS, LAB_SUMMARY_SCHEMAS } from '../../labs/schemas';
import { COMMON_LIMITS } from './params';
import { runtimeInfoSchema } from '../runtimes';
import { LEGACY_LAB, liveUpdateSchema, outcomeSchema, runStatusSchema, sampleSchema, procSampleSchema, strategyIdSchema, withLab } from './common';

/** Largest WebSocket message the server accepts from a browser. */
export const MAX_CLIENT_MESSAGE_BYTES = 64 * 1024;

export {
  OUTCOMES,
  outcomeSchema,
  runStatusSchema,
  memorySchema,
  peakMemorySchema,
  procPeakRssSchema,
  isMeasured,
  measuredRate,
  MEMORY_FIELDS,
  sampleSchema,
  procSampleSchema,
  strategyIdSchema,
  STRATEGY_ID_PATTERN,
  liveUpdateSchema,
  mergeLive,
  verdictSchema,
} from './common';
export type {
  Verdict,
  Outcome,
  RunStatus,
  Memory,
  MemoryField,
  Measured,
  Sample,
  ProcSample,
  CommonSummary,
  LiveUpdate,
  LiveState,
  ProfileSummary,
  HeapProfileSummary,
  HeapSnapshotSummary,
  SnapshotBefore,
} from './common';

export const labIdSchema = z.enum(LAB_IDS as [string, ...string[]], { error: `lab must be one of ${LAB_IDS.join(', ')}` });

/** Why a strategy file of yours can't run: where (line and column from 1, when known) and what. */
export const codeProblemSchema = z.object({
  file: z.string(),
  line: z.number().nullable(),
  column: z.number().nullable(),
  message: z.string(),
});
export type CodeProblem = z.infer<typeof codeProblemSchema>;

/** "strategies/streams/bad.ts:3:7: Unexpected ';'": where and what, as the page, the queue and the CLI say it. */
export function codeProblemText(p: CodeProblem): string {
  return `${p.file}${p.line !== null ? `:${p.line}${p.column !== null ? `:${p.column}` : ''}` : ''}: ${p.message}`;
}

export const strategyInfoSchema = z.object({
  /** The lab the strategy belongs to. */
  lab: z.string(),
  id: z.string(),
  label: z.string(),
  library: z.string(),
  libraryVersion: z.string(),
  /** Waits for its consumer (pull) or not (push); null where that does not apply. */
  mode: z.enum(['push', 'pull']).nullable(),
  /** The strategy keeps every result until the end (toArray), so heap growth is results, not garbage. */
  keepsResults: z.boolean(),
  /** What the strategy is there to show, one of its lab's roles (the lab's shared/roles.ts); null in a lab without roles. */
  role: z.string().nullable().default(null),
  /** Strategies of its lab a run of it is measured against when they ran in the same experiment, first found first. */
  comparedWith: z.array(z.string()).default([]),
  /** How a run of it is expected to end (its file's `expects.outcome`); null for a strategy of yours, which declares none. */
  expectedOutcome: outcomeSchema.nullable().default(null),
  explanation: z.string(),
  code: z.string(),
  /** Present for the six strategies the source article measured. */
  article: z.object({ peakMb: z.string(), note: z.string() }).nullable(),
  /** 'yours': from the operator's strategies folder or a --strategy-file (server/user-strategies/), run fenced. */
  origin: z.enum(['built-in', 'yours']).default('built-in'),
  /** What else its lab asks a strategy to declare (the HTTP lab: `format`), as this one declares it: an "Edit a copy" keeps it. */
  declares: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
  /** A strategy of yours: its file as shown (strategies/<lab>/<name>.ts); null for built-ins. */
  file: z.string().nullable().default(null),
  /** A strategy of yours that failed to compile or load: why, with file, line and column; it is refused at Start. */
  problem: codeProblemSchema.nullable().default(null),
});
export type StrategyInfo = z.infer<typeof strategyInfoSchema>;

/** A run's summary: the common part plus its lab's params and figures, told apart by `lab`. */
export const summarySchema = z.preprocess(withLab, z.discriminatedUnion('lab', LAB_SUMMARY_SCHEMAS));
export type RunSummary = z.infer<typeof summarySchema>;
/** One lab's summaries. */
export type LabSummary<L extends RunSummary['lab']> = Extract<RunSummary, { lab: L }>;

/** The summary as the given lab's, or an error saying whose it is (for code that handles one lab). */
export function summaryOfLab<L extends RunSummary['lab']>(summary: RunSummary, lab: L): LabSummary<L> {
  if (summary.lab !== lab) throw new TypeError(`expected a ${lab} run's summary, got a ${summary.lab} one`);
  return summary as LabSummary<L>;
}

/** Any lab's params (a run's `lab` says which). */
type Labs = typeof LAB_SCHEMAS;
// However many labs there are: z.union wants a tuple of two or more, and the registry has them.
export const labParamsSchema = z.union(
  LAB_SCHEMAS.map((l) => l.params) as unknown as [Labs[number]['params'], Labs[number]['params'], ...Labs[number]['params'][]],
);
export type LabParams = z.infer<typeof labParamsSchema>;

/** Which worker process ran a run: its machine, the cores it was given, its Node, the core the run was pinned to. */
export const workerInfoSchema = z.object({
  id: z.string(),
  host: z.string(),
  cores: z.number(),
  /** The core the run's process was pinned to (taskset); null when it could not be pinned. */
  core: z.number().nullable(),
  node: z.string(),
});
export type WorkerInfo = z.infer<typeof workerInfoSchema>;

/** Where runs are queued: this server's own queue, or Redis shared with workers; whether it is reachable now. */
export const queueBackendSchema = z.object({
  kind: z.enum(['in-process', 'redis']),
  connected: z.boolean(),
  /** Why it is unreachable, for the page. */
  message: z.string().nullable(),
  /** Redis only: the workers listed now and the runs they take at once (null until first read). */
  workers: z
    .object({ count: z.number().int().min(0), slots: z.number().int().min(0) })
    .nullable()
    .optional(),
});
export type QueueBackend = z.infer<typeof queueBackendSchema>;

const runStateShape = z.object({
  /** The lab the run belongs to (LEGACY_LAB for runs made before labs existed). */
  lab: z.string().default(LEGACY_LAB),
  id: z.string(),
  experimentId: z.string(),
  strategy: z.string(),
  params: labParamsSchema,
  status: runStatusSchema,
  queuedAt: z.number(),
  startedAt: z.number().nullable(),
  /** The child process running it, while it runs. */
  pid: z.number().nullable(),
  /**
   * How much work its lab prepared, in the lab's progress unit (the streams lab's file bytes, the
   * HTTP lab's responses, the CPU lab's requests); null before. Records and messages from before
   * this name say `fileBytes` and read the same (legacyRunNames).
   */
  preparedUnits: z.number().nullable(),
  summary: summarySchema.nullable(),
  /** The worker machine that ran it (Redis back end, docs/scale-out.md); absent for runs of the in-process queue. */
  worker: workerInfoSchema.nullable().optional(),
});
/** A run state written before `preparedUnits` was named: its `fileBytes` is that figure. */
function legacyRunNames(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || 'preparedUnits' in value || !('fileBytes' in value)) return value;
  const { fileBytes, ...rest } = value as { fileBytes: unknown };
  return { ...rest, preparedUnits: fileBytes };
}
export { runStateShape };
export const runStateSchema = z.preprocess(legacyRunNames, runStateShape);
export type RunState = z.infer<typeof runStateShape>;

/**
 * What a lab prepares before its runs: the streams lab's data file (bytes), the HTTP lab's table
 * (rows), a PostgreSQL database for runs (`database`: 0 of 1 while it is made, 1 of 1 once ready).
 * `sizeBytes`/`writtenBytes` keep their names (scripts read them) and count `unit`s.
 */
export const dataStatusSchema = z.object({
  lab: z.string().default(LEGACY_LAB),
  unit: z.enum(['bytes', 'rows', 'database']).default('bytes'),
  sizeBytes: z.number(),
  writtenBytes: z.number(),
  state: z.enum(['generating', 'ready', 'failed']),
  message: z.string().nullable(),
});
export type DataStatus = z.infer<typeof dataStatusSchema>;

// ---------------------------------------------------------------- browser → server

const { min: MIN_STRATEGIES, max: MAX_STRATEGIES } = COMMON_LIMITS.strategies;
const strategyIds = z
  .array(strategyIdSchema, { error: 'strategies must be a list of strategy ids' })
  .min(MIN_STRATEGIES, { error: `strategies must list between ${MIN_STRATEGIES} and ${MAX_STRATEGIES} ids` })
  .max(MAX_STRATEGIES, { error: `strategies must list between ${MIN_STRATEGIES} and ${MAX_STRATEGIES} ids` });

export const clientMessageSchema = z.discriminatedUnion(
  'type',
  [
    z.object({
      type: z.literal('experiment.start'),
      /** Which lab; leaving it out means the streams lab, as every client before labs did. */
      lab: labIdSchema.default(LEGACY_LAB),
      strategies: strategyIds,
      /** Checked by the hub against the lab's own params schema (unknown fields refused). */
      params: z.record(z.string(), z.unknown(), { error: "params must be an object of the lab's parameters" }),
      /** Run all strategies at once instead of one after another (their figures then disturb each other). */
      parallel: z.boolean().default(false),
    }),
    z.object({ type: z.literal('run.stop'), runId: z.string().max(64) }),
    /** A heap snapshot of a running run, now: it appears in the run's live `heapSnapshots` (a refusal comes back as an error). */
    z.object({ type: z.literal('run.snapshot'), runId: z.string().max(64) }),
    z.object({ type: z.literal('experiment.stop'), experimentId: z.string().max(64) }),
    z.object({ type: z.literal('stop.all') }),
    z.object({ type: z.literal('resync') }),
    z.object({
      type: z.literal('hello'),
      /** A random id the browser keeps in local storage: its experiments are the ones it started. Secret: only its hash is shown to others. */
      browserId: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, { error: 'browserId must be 16–64 letters, digits, _ or -' }),
      /** Shown to the room beside this browser's experiments. */
      name: z.string().trim().max(40, { error: 'name must be at most 40 characters' }).nullable().default(null),
      /** STREAM_LAB_OPERATOR_TOKEN, for stopping anyone's runs and Stop all. */
      operatorToken: z.string().max(200).nullable().default(null),
    }),
  ],
  { error: 'type must be one of experiment.start, run.stop, run.snapshot, experiment.stop, stop.all, resync, hello' },
);
export type ClientMessage = z.infer<typeof clientMessageSchema>;
/** What a page sends: defaults (e.g. `lab`) may be left out. */
export type ClientRequest = z.input<typeof clientMessageSchema>;

// ---------------------------------------------------------------- server → browser

/** Who started an experiment, as everyone may see it: a public id (not the browser's secret) and a name. */
export const ownerSchema = z.object({ id: z.string(), name: z.string().nullable() });
export type Owner = z.infer<typeof ownerSchema>;

/** A waiting run: its place is its index in the list; the wait is estimated from run lengths. */
export const queueEntrySchema = z.object({ runId: z.string(), etaMs: z.number().nullable() });
export type QueueEntry = z.infer<typeof queueEntrySchema>;

export const experimentSchema = z.object({
  lab: z.string().default(LEGACY_LAB),
  /** null for experiments from before rooms existed. */
  owner: ownerSchema.nullable().default(null),
  id: z.string(),
  strategies: z.array(z.string()),
  params: labParamsSchema,
  parallel: z.boolean(),
  createdAt: z.number(),
  runIds: z.array(z.string()),
});
export type Experiment = z.infer<typeof experimentSchema>;

/** 'rate-limited': the connection asked too often; the message says when to try again. */
export const ERROR_CODES = ['bad-request', 'not-found', 'too-large', 'internal', 'rate-limited', 'forbidden'] as const;

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
    /** Waiting runs in the order they will start (absent from servers before rooms). */
    queue: z.array(queueEntrySchema).default([]),
    /** What each run in memory shows live beyond its samples, folded (see mergeLive). */
    live: z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
    /** The Node runtimes runs may ask for: the server's own first (absent from servers before runtimes). */
    runtimes: z.array(runtimeInfoSchema).default([]),
    /** The queue's back end and whether it is reachable (absent from servers before scale-out). */
    backend: queueBackendSchema.nullable().optional(),
  }),
  z.object({ type: z.literal('experiment.created'), experiment: experimentSchema }),
  /** The answer to hello: who this browser is to the room. */
  z.object({ type: z.literal('hello.ok'), owner: ownerSchema, operator: z.boolean() }),
  /** The waiting runs changed order or length. */
  z.object({ type: z.literal('queue.order'), queue: z.array(queueEntrySchema) }),
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
  /** A run's live extras changed (its lab's schema says what they hold); fold with mergeLive. */
  z.object({ type: z.literal('run.live'), runId: z.string(), update: liveUpdateSchema }),
  z.object({ type: z.literal('run.ended'), run: runStateSchema, summary: summarySchema }),
  z.object({ type: z.literal('data.progress'), data: dataStatusSchema }),
  /** The queue's back end became unreachable or came back. */
  z.object({ type: z.literal('queue.backend'), backend: queueBackendSchema }),
  /** The runtimes changed (one added or removed with `npm run runtimes` while the server runs). */
  z.object({ type: z.literal('runtimes'), runtimes: z.array(runtimeInfoSchema) }),
  /** The strategies changed (a file of yours saved, added or removed while the server runs): the whole catalog again. */
  z.object({ type: z.literal('strategies'), strategies: z.array(strategyInfoSchema) }),
  z.object({
    type: z.literal('error'),
    code: z.enum(ERROR_CODES),
    message: z.string(),
    /** The client message this answers, when known. */
    requestType: z.string().nullable(),
  }),
]);
export type ServerMessage = z.infer<typeof serverMessageSchema>;
