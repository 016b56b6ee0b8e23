/**
 * What the deadlines lab adds to the common protocol: the load's counts and rates, the service's
 * timer lateness over the last second, and at the end the figures, the outcome of every request
 * and a scatter of individual timers' lateness. Client-safe.
 */
import { z } from 'zod';
import { deadlineParamsSchema, DEFAULT_DEADLINE_PARAMS } from './params';
import { describeParams } from './describe';
import type { ParamsStyle } from '../../schemas';
import type { DeadlineParams } from './params';
import { form } from './form';
import { markdownTable } from './markdown';
import { NO_CSV_COLUMNS } from '../../../lib/history/csv-part';
import type { LabSummary } from '../../../lib/protocol';
import { LAB_ID } from './id';
import { ROLES } from './roles';

/** The outcomes of a response, as the load counts them; `sent` is always their sum once the run ends. */
export const OUTCOMES = ['onTime', 'late', 'timedOut', 'refused', 'errors'] as const;
export type Outcome = (typeof OUTCOMES)[number];

export const DEADLINE_READINGS = [
  /** Requests sent so far, and the answers by outcome (cumulative, from the load). */
  'sent',
  ...OUTCOMES,
  /** Requests per second over the last second: sent on schedule, and answered (any outcome). */
  'offeredRps',
  'completedRps',
  /** Requests sent and not yet answered. */
  'inFlight',
  /** Lateness (actual fire time − due time) of the service's timers that fired in the last second: p99 and max (ms). */
  'latenessP99Ms',
  'latenessMaxMs',
  /** When the load's schedule started, ms after the run's start (−1 until it has): where the spike band goes. */
  'scheduleStartMs',
] as const;

/** One timer that fired in the service: when (ms since the run's start), how late, and whose. */
export const latenessPointSchema = z.object({
  atMs: z.number(),
  latenessMs: z.number(),
  /** 'deadline': a request's deadline timer (it fired: the request timed out); 'probe': the steady probe timer. */
  kind: z.enum(['deadline', 'probe']),
});
export type LatenessPoint = z.infer<typeof latenessPointSchema>;

export const deadlineFigures = {
  /** Requests the schedule sends. */
  requestsPlanned: z.number(),
  sent: z.number(),
  onTime: z.number(),
  late: z.number(),
  timedOut: z.number(),
  refused: z.number(),
  errors: z.number(),
  /** Request latency from its scheduled send to its last byte, as the load saw it (every answered request). */
  latencyP50Ms: z.number(),
  latencyP99Ms: z.number(),
  latencyMaxMs: z.number(),
  /** Lateness of every timer that fired in the service (deadline and probe timers). */
  latenessP50Ms: z.number(),
  latenessP99Ms: z.number(),
  latenessMaxMs: z.number(),
  /** Deadline timers that fired (requests that timed out in the service), and the latest of them. */
  deadlineTimersFired: z.number(),
  deadlineLatenessMaxMs: z.number(),
  /** Lateness while the spike lasted (timers that fired in the spike band), p99. */
  spikeLatenessP99Ms: z.number(),
  /** ms from the spike's end until timers were on time again for good; −1: still late in the schedule's last second. */
  recoveryMs: z.number(),
  /** "On time" for recovery: 1.5 × the baseline's p99 lateness before the spike, at most 1.5 × one request's work, at least RECOVERED_MS. */
  recoveredBelowMs: z.number(),
  peakInFlight: z.number(),
  /** One object's work, the median of this run's objects where they ran (the calibration's figure if none ran): the capacity arithmetic's cost. */
  workMsPerObject: z.number(),
  /** rate × K × work per object, in cores: what the baseline and the spike ask of the CPU; null without the scenario's end report (a run that never started, or was stopped first). */
  baselineDemandCores: z.number().nullable(),
  spikeDemandCores: z.number().nullable(),
  /** The server's cores (os.availableParallelism). */
  cores: z.number(),
  /** Objects the service fetched from the store, and objects it did the work for. */
  objectsFetched: z.number(),
  objectsWorked: z.number(),
  scheduleStartMs: z.number(),
  /** Individual timers' lateness (thinned to at most LATENESS_POINTS_MAX, deadline timers kept first). */
  lateness: z.array(latenessPointSchema),
};

export { LATENESS_POINTS_MAX, RECOVERED_MS } from './schedule';

export const deadlineSchema = {
  id: LAB_ID,
  /** Place in the lab switch and lists (lower first). */
  order: 40,
  name: 'Deadlines',
  title: 'Deadlines under a traffic spike: timers that fire late, and the fixes',
  params: deadlineParamsSchema,
  defaults: DEFAULT_DEADLINE_PARAMS,
  readings: DEADLINE_READINGS,
  figures: deadlineFigures,
  form,
  markdownTable,
  // Its work holds the loop (the lab's point): the heap is read during the block too.
  watchesBlockedHeap: true,
  // No columns of its own in the CSV yet (its Markdown table has them).
  csv: NO_CSV_COLUMNS,
  // Timer lateness first: whether the deadlines could fire on time is the lab's point.
  historyColumns: [
    { key: 'onTime', header: 'On time', unit: 'count' },
    { key: 'timedOut', header: 'Timed out', unit: 'count' },
    { key: 'latenessP99Ms', header: 'Timer lateness p99', unit: 'ms' },
  ],
  metrics: ['latenessP99Ms', 'latenessMaxMs', 'completedRps', 'cpuPct', 'elu', 'rss', 'heapUsed'] as const,
  roles: ROLES,
  describe: (params: Record<string, unknown>, style: ParamsStyle) => describeParams(params as DeadlineParams, style),
  progress: { done: 'sent', total: 'requestsPlanned' },
} as const;

/** A deadline run's summary: the common part, its params and its figures. */
export type DeadlineSummary = LabSummary<typeof LAB_ID>;

/** What the lab registry picks up from this folder (scripts/lab-index.mjs). */
export { deadlineSchema as schema };
