/** The streams lab's experiment form as a person sees it: its fields, switches, links and first strategies. Pure data. */
import { COMMON_FIELDS, PROFILE_SWITCHES, type LabForm } from '../../../lib/form/form-spec';
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

export const form: LabForm = {
  lab: LAB_ID,
  fields: [
    { field: 'sizeMb', label: 'File size', unit: 'MB', integer: true },
    {
      field: 'delayMs',
      label: 'Consumer delay per call',
      unit: 'ms',
      hint: 'sleep: the wait; http: the API’s median latency; postgres: none, the database’s own',
      integer: false,
    },
    { field: 'concurrency', label: 'Concurrency', hint: 'calls in flight, for strategies with a knob', integer: true },
    { field: 'chunkKb', label: 'Chunk size', unit: 'KB', hint: 'the stream’s highWaterMark', integer: true },
    { field: 'cpuUs', label: 'Consumer CPU per call', unit: 'µs', integer: true },
    { field: 'apiP99Ms', label: 'API p99 latency', unit: 'ms', hint: 'http consumer; at or below the delay = no spread', integer: false },
    { field: 'apiErrorRate', label: 'API error rate', hint: 'http consumer; share of calls answered 500', integer: false },
    { field: 'apiPool', label: 'API connections', hint: 'http consumer; undici pool size', integer: true },
    { field: 'dbBatchRows', label: 'Rows per INSERT', hint: 'postgres consumer', integer: true },
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
};
