/** The deadline lab's experiment form as a person sees it: its fields, switches, links and first strategies. Pure data. */
import { COMMON_FIELDS, PROFILE_SWITCHES, type FieldContext, type LabForm } from '../../../lib/form/form-spec';
import type { Role } from './roles';
import { DEADLINE_PARAM_LIMITS, deadlineParamsSchema, DEFAULT_DEADLINE_PARAMS } from './params';
import { LAB_ID } from './id';

/** How long one run of these params takes, roughly (the queue's wait before a run, the form's estimate before a Start). */
export function estimateMs(raw: Readonly<Record<string, unknown>>): number {
  // The schedule, plus starting the store and the service and calibrating (about a second).
  return deadlineParamsSchema.parse(raw).durationS * 1000 + 1000;
}

/** A field that only strategies of this role read. */
const picks = (role: Role) => (f: FieldContext) => f.strategies.some((s) => s.role === role);

export const form: LabForm = {
  lab: LAB_ID,
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
    // Each of these three is read by the strategies of one role only (shared/roles.ts): shown when one of them is picked.
    { field: 'concurrency', label: 'Limit (limited-concurrency)', unit: 'GETs at once', integer: true, appliesWhen: picks('limits') },
    { field: 'workers', label: 'Pool threads (worker-pool)', integer: true, empty: 'cores', appliesWhen: picks('offloads') },
    { field: 'shedLagMs', label: 'Shed above loop lag (shed-load)', unit: 'ms', integer: true, appliesWhen: picks('sheds') },
    ...COMMON_FIELDS,
  ],
  switches: [...PROFILE_SWITCHES],
  linkOrder: [
    'baselineRps',
    'spikeRps',
    'spikeStartS',
    'spikeS',
    'durationS',
    'objects',
    'cpuMs',
    'deadlineMs',
    'storeMedianMs',
    'concurrency',
    'workers',
    'shedLagMs',
    'sampleMs',
    'budgetMb',
    'maxOldSpaceMb',
    'timeoutS',
  ],
  limits: DEADLINE_PARAM_LIMITS,
  cappedField: null,
  schema: deadlineParamsSchema,
  defaults: DEFAULT_DEADLINE_PARAMS,
  // The write-up's service against its rewrite: timers late vs on time.
  defaultStrategies: ['unbounded', 'worker-pool'],
  alwaysWritten: new Set(['baselineRps', 'spikeRps', 'objects', 'cpuMs']),
  runsAlone: 'each run needs every core of the machine to itself',
  // The server refuses the same (checkSpikeFits); the form says it first, in the fields' own words.
  crossCheck: ({ spikeStartS, spikeS, durationS }) =>
    spikeStartS + spikeS > durationS
      ? {
          field: 'spikeS',
          message: `The spike must end within the schedule: Spike starts at (${spikeStartS} s) + Spike lasts (${spikeS} s) = ${spikeStartS + spikeS} s, more than Schedule length (${durationS} s)`,
        }
      : null,
  estimateMs,
  // Seed 001: a service fanning out fetches under a traffic spike, its timers late, against a worker pool (docs/results.md §10).
  writeUp: {
    what: 'a 4× traffic spike: the write-up’s unbounded service against its worker-pool rewrite',
    params: {},
    strategies: ['unbounded', 'worker-pool'],
  },
};
