/** The hotcode lab's experiment form as a person sees it: its fields, switches, links and first strategies. Pure data. */
import { COMMON_FIELDS, PROFILE_SWITCHES, type LabForm } from '../../../lib/form/form-spec';
import { DEFAULT_HOTCODE_PARAMS, HOTCODE_PARAM_LIMITS, hotcodeParamsSchema } from './params';
import { LAB_ID } from './id';

/** How long one run of these params takes, roughly (the queue's wait before a run, the form's estimate before a Start). */
export function estimateMs(raw: Readonly<Record<string, unknown>>): number {
  // The slowest strategy (report-slow) measured here: ~85 µs a row for toLocaleString plus
  // ~2.2 s at 2e4 rows for the spread, growing as rows² (§11). An upper bound for the queue's wait.
  const p = hotcodeParamsSchema.parse(raw);
  const one = 0.085 * p.rows + 2200 * (p.rows / 20_000) ** 2;
  return Math.round(Math.min(p.timeoutS * 1000, p.sweep ? 2 * one : one * p.requests));
}

export const form: LabForm = {
  lab: LAB_ID,
  fields: [
    { field: 'rows', label: 'Rows per report', unit: 'rows', hint: 'the sweep’s largest step when sweeping', integer: true },
    {
      field: 'requests',
      label: 'Reports',
      hint: 'asked for one after another',
      integer: true,
      // A sweep asks one report per step instead.
      appliesWhen: (f) => f.switches.sweep !== true,
    },
    { field: 'probeMs', label: 'Probe /health every', unit: 'ms', hint: 'what any other request waits while a report runs; 0 = none', integer: true },
    ...COMMON_FIELDS,
  ],
  switches: [
    {
      field: 'sweep',
      label: 'Sweep rows (1e3 … rows)',
      note: 'One report per step of 1e3, 2e3, 5e3, 1e4 … up to the rows above, timed; plots time against rows on log–log axes with the fitted exponent.',
    },
    ...PROFILE_SWITCHES,
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
  estimateMs,
  // Seed 002: the monthly report as found (toLocaleString, a spreading groupBy) and as fixed, profiled as the write-up did (docs/results.md §11).
  writeUp: {
    what: 'the write-up’s report on 100,000 rows as found and as fixed, with a CPU profile of each',
    params: { rows: 100_000, requests: 1, profile: true },
    strategies: ['report-slow', 'report-fixed'],
  },
};
