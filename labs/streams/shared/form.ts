/** The streams lab's experiment form as a person sees it: its fields, switches, links and first strategies. Pure data. */
import { COMMON_FIELDS, PROFILE_SWITCHES, type FieldContext, type LabForm } from '../../../lib/form/form-spec';
import { DEFAULT_STREAMS_PARAMS, LIMITS, streamsParamsSchema } from './params';
import { LAB_ID } from './id';

/** The streams lab's fields in link order: the order its links have always been written in. */
export const STREAMS_LINK_ORDER = [
  'sizeMb',
  'delayMs',
  'chunkKb',
  'sampleMs',
  'budgetMb',
  'cpuUs',
  'maxOldSpaceMb',
  'timeoutS',
  'seed',
  // Since the consumers (#30): written only when not their default.
  'concurrency',
  'apiP99Ms',
  'apiErrorRate',
  'apiPool',
  'dbBatchRows',
] as const;

/** How long one run of these params takes, roughly (the queue's wait before a run, the form's estimate before a Start). */
export function estimateMs(raw: Readonly<Record<string, unknown>>): number {
  // The slow consumer sets the pace: one delay (and the CPU work) per chunk.
  const p = streamsParamsSchema.parse(raw);
  const chunks = Math.ceil((p.sizeMb * 1024) / p.chunkKb);
  return Math.round(chunks * (p.delayMs + p.cpuUs / 1000));
}

/** The consumer the form has chosen (its default until one is picked). */
const consumerOf = (f: FieldContext) => f.choices.consumer ?? DEFAULT_STREAMS_PARAMS.consumer;
const isHttp = (f: FieldContext) => consumerOf(f) === 'http';

export const form: LabForm = {
  lab: LAB_ID,
  fields: [
    { field: 'sizeMb', label: 'File size', unit: 'MB', integer: true },
    {
      field: 'delayMs',
      label: 'Consumer delay per call',
      unit: 'ms',
      hint: 'sleep: the wait; http: the API’s median latency',
      integer: false,
      // The postgres consumer's wait is the database's own: the delay is not added (child/consumers/postgres.ts).
      appliesWhen: (f) => consumerOf(f) !== 'postgres',
    },
    {
      field: 'concurrency',
      label: 'Concurrency',
      hint: 'calls in flight, for strategies with a knob',
      integer: true,
      // Only a strategy that declares a bounded concurrency reads ctx.concurrency.
      appliesWhen: (f) => f.strategies.some((s) => s.declares.concurrency === 'bounded'),
    },
    { field: 'chunkKb', label: 'Chunk size', unit: 'KB', hint: 'the stream’s highWaterMark', integer: true },
    { field: 'cpuUs', label: 'Consumer CPU per call', unit: 'µs', integer: true },
    { field: 'apiP99Ms', label: 'API p99 latency', unit: 'ms', hint: 'http consumer; at or below the delay = no spread', integer: false, appliesWhen: isHttp },
    { field: 'apiErrorRate', label: 'API error rate', hint: 'http consumer; share of calls answered 500', integer: false, appliesWhen: isHttp },
    { field: 'apiPool', label: 'API connections', hint: 'http consumer; undici pool size', integer: true, appliesWhen: isHttp },
    { field: 'dbBatchRows', label: 'Rows per INSERT', hint: 'postgres consumer', integer: true, appliesWhen: (f) => consumerOf(f) === 'postgres' },
    ...COMMON_FIELDS,
    { field: 'seed', label: 'Data seed', hint: 'picks the generated file’s bytes', integer: true },
  ],
  choices: [
    {
      field: 'consumer',
      label: 'Consumer',
      options: [
        { value: 'sleep', label: 'sleep: wait the delay (the write-up’s)' },
        { value: 'http', label: 'http: call a mock API on loopback' },
        { value: 'postgres', label: 'postgres: insert rows into PostgreSQL' },
      ],
      note: 'What each chunk (or record) is handed to. The http consumer’s API and the postgres consumer’s database run in processes of their own and end with the run.',
    },
  ],
  switches: [
    {
      field: 'records',
      label: 'Records, not chunks',
      note: 'Split the file into CSV lines before the strategy: each record is one consumer call, as in the write-up’s job (read CSV → call an API per record).',
      optional: true,
    },
    ...PROFILE_SWITCHES,
  ],
  linkOrder: STREAMS_LINK_ORDER,
  limits: LIMITS,
  cappedField: 'sizeMb',
  schema: streamsParamsSchema,
  defaults: DEFAULT_STREAMS_PARAMS,
  defaultStrategies: ['rxjs-from', 'pipeline-generator'],
  alwaysWritten: new Set(['sizeMb', 'delayMs', 'chunkKb', 'sampleMs', 'budgetMb', 'cpuUs']),
  runsAlone: null,
  estimateMs,
  // Seed 000: a ~150 MB CSV read chunk by chunk into a 10 ms consumer, by the six readers it measured (docs/results.md §1).
  writeUp: {
    what: '150 MB CSV, 10 ms sleep per chunk, the article’s six readers one at a time',
    params: { sizeMb: 150, delayMs: 10, consumer: 'sleep' },
    strategies: ['rxjs-fromEvent', 'rxjs-from', 'ixjs-from', 'ixjs-fromEvent', 'pipeline-generator', 'iterator-helper'],
  },
};
