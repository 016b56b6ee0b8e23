/** The streams lab's experiment form as a person sees it: its fields, switches, links and first strategies. Pure data. */
import { COMMON_FIELDS, PROFILE_SWITCHES, type LabForm } from '../../../lib/form/form-spec';
import { DEFAULT_STREAMS_PARAMS, LIMITS, streamsParamsSchema } from './params';
import { LAB_ID } from './id';

/** The streams lab's fields in link order: the order its links have always been written in. */
export const STREAMS_LINK_ORDER = ['sizeMb', 'delayMs', 'chunkKb', 'sampleMs', 'budgetMb', 'cpuUs', 'maxOldSpaceMb', 'timeoutS', 'seed'] as const;

export const form: LabForm = {
  lab: LAB_ID,
  fields: [
    { field: 'sizeMb', label: 'File size', unit: 'MB', integer: true },
    { field: 'delayMs', label: 'Consumer delay per chunk', unit: 'ms', integer: false },
    { field: 'chunkKb', label: 'Chunk size', unit: 'KB', hint: 'the stream’s highWaterMark', integer: true },
    { field: 'cpuUs', label: 'Consumer CPU per chunk', unit: 'µs', integer: true },
    ...COMMON_FIELDS,
    { field: 'seed', label: 'Data seed', hint: 'picks the generated file’s bytes', integer: true },
  ],
  switches: [...PROFILE_SWITCHES],
  linkOrder: STREAMS_LINK_ORDER,
  limits: LIMITS,
  cappedField: 'sizeMb',
  schema: streamsParamsSchema,
  defaults: DEFAULT_STREAMS_PARAMS,
  defaultStrategies: ['rxjs-from', 'pipeline-generator'],
  alwaysWritten: new Set(['sizeMb', 'delayMs', 'chunkKb', 'sampleMs', 'budgetMb', 'cpuUs']),
  runsAlone: null,
};
