/** The hotcode lab's experiment form as a person sees it: its fields, switches, links and first strategies. Pure data. */
import { COMMON_FIELDS, PROFILE_SWITCHES, type LabForm } from '../../../lib/form/form-spec';
import { DEFAULT_HOTCODE_PARAMS, HOTCODE_PARAM_LIMITS, hotcodeParamsSchema } from './params';
import { LAB_ID } from './id';

export const form: LabForm = {
  lab: LAB_ID,
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
};
