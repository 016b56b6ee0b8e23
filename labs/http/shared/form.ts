/** The http lab's experiment form as a person sees it: its fields, switches, links and first strategies. Pure data. */
import { COMMON_FIELDS, PROFILE_SWITCHES, type LabForm } from '../../../lib/form/form-spec';
import { DEFAULT_HTTP_PARAMS, HTTP_PARAM_LIMITS, httpParamsSchema } from './params';
import { LAB_ID } from './id';

export const form: LabForm = {
  lab: LAB_ID,
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
  switches: [...PROFILE_SWITCHES],
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
