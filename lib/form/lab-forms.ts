/**
 * Each lab's experiment form as a person sees it: its numeric fields (label, unit, ranges, what an
 * empty field means), the strategies picked at first, how its links are spelled, and whether its
 * runs may go in parallel. The ranges are the labs' own (labs/<lab>/shared/params.ts), so the form
 * refuses exactly what the server would. Pure data.
 */
import type { z } from 'zod';
import { CPU_PARAM_LIMITS, cpuParamsSchema, DEFAULT_CPU_PARAMS } from '../../labs/cpu/shared/params';
import { DEADLINE_PARAM_LIMITS, deadlineParamsSchema, DEFAULT_DEADLINE_PARAMS } from '../../labs/deadline/shared/params';
import { DEFAULT_HOTCODE_PARAMS, HOTCODE_PARAM_LIMITS, hotcodeParamsSchema } from '../../labs/hotcode/shared/params';
import { DEFAULT_HTTP_PARAMS, HTTP_PARAM_LIMITS, httpParamsSchema } from '../../labs/http/shared/params';
import { DEFAULT_STREAMS_PARAMS, LIMITS, streamsParamsSchema } from '../../labs/streams/shared/params';
import type { PageLabId } from '../labs';
import type { LabParams } from '../protocol';
import type { Limit } from '../protocol/params';

export interface FieldSpec {
  field: string;
  label: string;
  unit?: string;
  /** Shown after the range, e.g. what an empty field means. */
  hint?: string;
  /** Only whole numbers. The schema lets sizeMb be fractional, but data files are made in whole MiB, so the form asks for one. */
  integer: boolean;
  /** What an empty field means; absent when the field is required. */
  empty?: string;
}

/** A lab's own on/off param (the CPU lab's keep-alive), shown as a checkbox after the numbers. */
export interface SwitchSpec {
  field: string;
  label: string;
  /** Why a person would tick it: what changes. */
  note: string;
  /** An optional param (the common `profile`): sent only when on, so runs without it keep the params they always had. */
  optional?: boolean;
}

export interface LabForm {
  lab: PageLabId;
  /** The numeric fields, in the order the form shows them. */
  fields: readonly FieldSpec[];
  /** The lab's boolean params besides `retained` (common to every lab), in the order shown and linked. */
  switches: readonly SwitchSpec[];
  /** The same fields in the order links write them and errors list them (the streams lab's predates its form's order). */
  linkOrder: readonly string[];
  limits: Readonly<Record<string, Limit>>;
  /** The field the server may cap lower than its schema (the streams lab's file size, by STREAM_LAB_MAX_SIZE_MB). */
  cappedField: string | null;
  /** The lab's params schema: what a Start sends is checked with it, strictly. */
  schema: z.ZodObject;
  /** The params a new form starts with. */
  defaults: LabParams;
  /** Picked when the form opens. */
  defaultStrategies: readonly string[];
  /**
   * Written into every link, default or not (the streams lab's URL has always shown them); the
   * other fields only when they differ from the default, so everyday links stay short.
   */
  alwaysWritten: ReadonlySet<string>;
  /**
   * Why the lab runs its strategies one at a time (the server refuses a parallel experiment of it,
   * labs/<lab>/parent/index.ts `runsAlone`); null when they may run in parallel.
   */
  runsAlone: string | null;
}

/**
 * Fields whose empty input means null, with the word a link spells that null with (an empty value
 * in a URL reads like a mistake). Keyed by param name: the common params', and the CPU lab's
 * workers (null = one per core of the server).
 */
export const NULL_WORDS: Readonly<Record<string, string>> = { sampleMs: 'off', budgetMb: 'none', maxOldSpaceMb: 'none', workers: 'cores' };

/** Every lab's switch to profile its runs (the common param `profile`), after the lab's own switches. */
export const PROFILE_SWITCH: SwitchSpec = {
  field: 'profile',
  label: 'CPU profile',
  note: 'Profile each run with V8’s CPU profiler from outside (over the inspector, on 127.0.0.1): a flame graph and the functions by self time when it ends, and a .cpuprofile download.',
  optional: true,
};

/** The fields of the common params, in the order every lab's form shows them after its own. */
const COMMON_FIELDS: readonly FieldSpec[] = [
  { field: 'sampleMs', label: 'Sample every', unit: 'ms', integer: true, empty: 'sampler off' },
  { field: 'budgetMb', label: 'RSS budget', unit: 'MB', integer: true, empty: 'no budget' },
  { field: 'maxOldSpaceMb', label: 'V8 heap limit', unit: 'MB', integer: true, empty: 'Node’s default (--max-old-space-size)' },
  { field: 'timeoutS', label: 'Timeout per run', unit: 's', integer: true },
];

/** The streams lab's fields in link order: the order its links have always been written in. */
export const STREAMS_LINK_ORDER = ['sizeMb', 'delayMs', 'chunkKb', 'sampleMs', 'budgetMb', 'cpuUs', 'maxOldSpaceMb', 'timeoutS', 'seed'] as const;

export const STREAMS_FORM: LabForm = {
  lab: 'streams',
  fields: [
    { field: 'sizeMb', label: 'File size', unit: 'MB', integer: true },
    { field: 'delayMs', label: 'Consumer delay per chunk', unit: 'ms', integer: false },
    { field: 'chunkKb', label: 'Chunk size', unit: 'KB', hint: 'the stream’s highWaterMark', integer: true },
    { field: 'cpuUs', label: 'Consumer CPU per chunk', unit: 'µs', integer: true },
    ...COMMON_FIELDS,
    { field: 'seed', label: 'Data seed', hint: 'picks the generated file’s bytes', integer: true },
  ],
  switches: [PROFILE_SWITCH],
  linkOrder: STREAMS_LINK_ORDER,
  limits: LIMITS,
  cappedField: 'sizeMb',
  schema: streamsParamsSchema,
  defaults: DEFAULT_STREAMS_PARAMS,
  defaultStrategies: ['rxjs-from', 'pipeline-generator'],
  alwaysWritten: new Set(['sizeMb', 'delayMs', 'chunkKb', 'sampleMs', 'budgetMb', 'cpuUs']),
  runsAlone: null,
};

export const HTTP_FORM: LabForm = {
  lab: 'http',
  fields: [
    { field: 'rows', label: 'Table size', unit: 'rows', hint: 'the author table the endpoint serves, made once per size', integer: true },
    { field: 'concurrency', label: 'Clients at once', integer: true },
    { field: 'requests', label: 'Requests in all', hint: 'shared by those clients', integer: true },
    { field: 'batchRows', label: 'Rows per write', hint: 'per res.write of the streaming strategies', integer: true },
    { field: 'cursorRows', label: 'Rows per cursor read', hint: 'one round trip to PostgreSQL each (cursor strategies)', integer: true },
    { field: 'slowClients', label: 'Slow clients', hint: 'extra clients that each read one response slowly', integer: true },
    { field: 'slowKbps', label: 'Slow client speed', unit: 'KB/s', hint: 'how fast each slow client reads', integer: true },
    ...COMMON_FIELDS,
  ],
  switches: [PROFILE_SWITCH],
  linkOrder: ['rows', 'concurrency', 'requests', 'batchRows', 'cursorRows', 'slowClients', 'slowKbps', 'sampleMs', 'budgetMb', 'maxOldSpaceMb', 'timeoutS'],
  limits: HTTP_PARAM_LIMITS,
  cappedField: null,
  schema: httpParamsSchema,
  defaults: DEFAULT_HTTP_PARAMS,
  // The usual endpoint against the streamed one: the lab's first lesson.
  defaultStrategies: ['buffered-json', 'ndjson-cursor'],
  alwaysWritten: new Set(['rows', 'concurrency', 'requests', 'slowClients']),
  runsAlone: 'each run starts its own PostgreSQL and load generator on the same cores',
};

export const CPU_FORM: LabForm = {
  lab: 'cpu',
  fields: [
    { field: 'n', label: 'Work per request', unit: 'fib(n)', hint: 'recursive Fibonacci; fib(40) takes about a second on one core, each +1 about 1.6× more', integer: true },
    { field: 'requests', label: 'Requests in all', integer: true },
    { field: 'concurrency', label: 'Requests at once', integer: true },
    { field: 'workers', label: 'Workers', unit: 'processes or threads', hint: 'of cluster and the pools', integer: true, empty: 'cores' },
    { field: 'pingMs', label: 'Ping every', unit: 'ms', hint: 'a cheap GET /ping, to show what it waits; 0 = none', integer: true },
    ...COMMON_FIELDS,
  ],
  switches: [
    {
      field: 'keepAlive',
      label: 'Keep-alive connections',
      note: 'Reuse connections. cluster balances connections, not requests: with keep-alive a client’s requests all go to one process.',
    },
    PROFILE_SWITCH,
  ],
  linkOrder: ['n', 'requests', 'concurrency', 'workers', 'pingMs', 'sampleMs', 'budgetMb', 'maxOldSpaceMb', 'timeoutS'],
  limits: CPU_PARAM_LIMITS,
  cappedField: null,
  schema: cpuParamsSchema,
  defaults: DEFAULT_CPU_PARAMS,
  // One thread against a pool: the lab's first lesson (requests queue vs spread over the cores).
  defaultStrategies: ['single-thread', 'worker-pool'],
  alwaysWritten: new Set(['n', 'requests', 'concurrency']),
  runsAlone: 'each run needs every core of the machine to itself',
};

export const DEADLINE_FORM: LabForm = {
  lab: 'deadline',
  fields: [
    { field: 'baselineRps', label: 'Baseline rate', unit: 'requests/s', hint: 'sent on schedule, answered or not', integer: false },
    { field: 'spikeRps', label: 'Spike rate', unit: 'requests/s', integer: false },
    { field: 'spikeStartS', label: 'Spike starts at', unit: 's', integer: false },
    { field: 'spikeS', label: 'Spike lasts', unit: 's', integer: false },
    { field: 'durationS', label: 'Schedule length', unit: 's', hint: 'baseline, spike, baseline again', integer: false },
    { field: 'objects', label: 'Objects per request (K)', hint: 'GETs from the mock store per request', integer: true },
    { field: 'cpuMs', label: 'CPU work per object', unit: 'ms', hint: 'JSON parse + transform, calibrated on this machine', integer: false },
    { field: 'deadlineMs', label: 'Deadline per request', unit: 'ms', integer: true },
    { field: 'storeMedianMs', label: 'Store latency (median)', unit: 'ms', hint: 'log-normal, p99 ≈ 5× the median', integer: false },
    { field: 'concurrency', label: 'Limit (limited-concurrency)', unit: 'GETs at once', integer: true },
    { field: 'workers', label: 'Pool threads (worker-pool)', integer: true, empty: 'cores' },
    { field: 'shedLagMs', label: 'Shed above loop lag (shed-load)', unit: 'ms', integer: true },
    ...COMMON_FIELDS,
  ],
  switches: [PROFILE_SWITCH],
  linkOrder: ['baselineRps', 'spikeRps', 'spikeStartS', 'spikeS', 'durationS', 'objects', 'cpuMs', 'deadlineMs', 'storeMedianMs', 'concurrency', 'workers', 'shedLagMs', 'sampleMs', 'budgetMb', 'maxOldSpaceMb', 'timeoutS'],
  limits: DEADLINE_PARAM_LIMITS,
  cappedField: null,
  schema: deadlineParamsSchema,
  defaults: DEFAULT_DEADLINE_PARAMS,
  // The write-up's service against its rewrite: timers late vs on time.
  defaultStrategies: ['unbounded', 'worker-pool'],
  alwaysWritten: new Set(['baselineRps', 'spikeRps', 'objects', 'cpuMs']),
  runsAlone: 'each run needs every core of the machine to itself',
};

export const HOTCODE_FORM: LabForm = {
  lab: 'hotcode',
  fields: [
    { field: 'rows', label: 'Rows per report', unit: 'rows', hint: 'the sweep’s largest step when sweeping', integer: true },
    { field: 'requests', label: 'Reports', hint: 'asked for one after another (not in a sweep)', integer: true },
    { field: 'probeMs', label: 'Probe /health every', unit: 'ms', hint: 'what any other request waits while a report runs; 0 = none', integer: true },
    ...COMMON_FIELDS,
  ],
  switches: [
    {
      field: 'sweep',
      label: 'Sweep rows (1e3 … rows)',
      note: 'One report per step of 1e3, 2e3, 5e3, 1e4 … up to the rows above, timed; plots time against rows on log–log axes with the fitted exponent.',
    },
    PROFILE_SWITCH,
  ],
  linkOrder: ['rows', 'requests', 'probeMs', 'sampleMs', 'budgetMb', 'maxOldSpaceMb', 'timeoutS'],
  limits: HOTCODE_PARAM_LIMITS,
  cappedField: null,
  schema: hotcodeParamsSchema,
  defaults: DEFAULT_HOTCODE_PARAMS,
  // The write-up's report as found against fixed: the lab's first lesson.
  defaultStrategies: ['report-slow', 'report-fixed'],
  alwaysWritten: new Set(['rows']),
  runsAlone: 'each run times synchronous work on the same cores',
};

const FORMS: Record<PageLabId, LabForm> = { streams: STREAMS_FORM, http: HTTP_FORM, cpu: CPU_FORM, deadline: DEADLINE_FORM, hotcode: HOTCODE_FORM };

/** The form of a lab. */
export function formOf(lab: PageLabId): LabForm {
  return FORMS[lab];
}
