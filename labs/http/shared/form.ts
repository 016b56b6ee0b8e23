/** The http lab's experiment form as a person sees it: its fields, switches, links and first strategies. Pure data. */
import { COMMON_FIELDS, PROFILE_SWITCHES, type LabForm } from '../../../lib/form/form-spec';
import type { Role } from './roles';
import { DEFAULT_HTTP_PARAMS, HTTP_PARAM_LIMITS, httpParamsSchema } from './params';
import { LAB_ID } from './id';

/** How long one run of these params takes, roughly (the queue's wait before a run, the form's estimate before a Start). */
export function estimateMs(raw: Readonly<Record<string, unknown>>): number {
  // Measured here (docs/results.md §8): ~10 responses/s of 100k rows with 20 clients for the
  // buffered strategy, slower for cursors; scale by rows. Rough, for the queue's wait only.
  const p = httpParamsSchema.parse(raw);
  const perResponseMs = (p.rows / 100_000) * 150;
  return Math.round(1500 + (p.requests * perResponseMs) / Math.min(p.concurrency, 10));
}

/** The roles whose strategies read rows from a server-side cursor. */
const CURSOR_ROLES: ReadonlySet<Role> = new Set(['cursor', 'ignores-drain']);

export const form: LabForm = {
  lab: LAB_ID,
  fields: [
    { field: 'rows', label: 'Table size', unit: 'rows', hint: 'the author table the endpoint serves, made once per size', integer: true },
    { field: 'concurrency', label: 'Clients at once', integer: true },
    { field: 'requests', label: 'Requests in all', hint: 'shared by those clients', integer: true },
    // The buffered endpoint writes once; only the strategies that read a cursor read cursorRows (shared/roles.ts).
    {
      field: 'batchRows',
      label: 'Rows per write',
      hint: 'per res.write of the streaming strategies',
      integer: true,
      appliesWhen: (f) => f.strategies.some((s) => s.role !== 'buffered'),
    },
    {
      field: 'cursorRows',
      label: 'Rows per cursor read',
      hint: 'one round trip to PostgreSQL each (cursor strategies)',
      integer: true,
      appliesWhen: (f) => f.strategies.some((s) => CURSOR_ROLES.has(s.role as Role)),
    },
    { field: 'slowClients', label: 'Slow clients', hint: 'extra clients that each read one response slowly', integer: true },
    {
      field: 'slowKbps',
      label: 'Slow client speed',
      unit: 'KB/s',
      hint: 'how fast each slow client reads',
      integer: true,
      // No slow client, no speed to set.
      appliesWhen: (f) => Number((f.numbers.slowClients ?? '').trim() || '0') !== 0,
    },
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
  estimateMs,
  // Seed 003: a REST endpoint of ~100k rows built as one JSON array, then streamed from a cursor, under 20 concurrent clients (docs/results.md §8).
  writeUp: {
    what: '100,000 rows from PostgreSQL, 100 requests by 20 clients: one JSON array against the streamed ways',
    params: { rows: 100_000, concurrency: 20, requests: 100 },
    strategies: ['buffered-json', 'ndjson-all-rows', 'ndjson-cursor'],
  },
};
