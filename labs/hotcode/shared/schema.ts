/**
 * What the hot-code lab adds to the common protocol: the load's readings (reports, the /health
 * probe), the figures of the reports, and a sweep's time per row count with its fitted exponent.
 * Client-safe.
 */
import { z } from 'zod';
import { DEFAULT_HOTCODE_PARAMS, hotcodeParamsSchema } from './params';
import { describeParams } from './describe';
import type { ParamsStyle } from '../../schemas';
import type { HotcodeParams } from './params';
import { form } from './form';
import { markdownTable } from './markdown';
import { NO_CSV_COLUMNS } from '../../../lib/history/csv-part';
import type { LabSummary } from '../../../lib/protocol';
import { LAB_ID } from './id';
import { ROLES } from './roles';

export const HOTCODE_READINGS = [
  /** Reports answered and counted right so far (in a sweep: steps done), and those that were not. */
  'reportsOk',
  'badReports',
  /** The latest /health round trip, or the age of the one still waiting (ms): a blocked server shows here. */
  'probeMs',
  /** The latest report's time in the server's handler (ms). */
  'lastReportMs',
  /** Rows of the report asked for last (a sweep's current step). */
  'reportRows',
] as const;

export const sweepPointSchema = z.object({ rows: z.number(), ms: z.number() });

/** Every step of a sweep as it ended (labs/hotcode/child/sweep-steps.ts: SweepStep). */
export const sweepStepSchema = z.object({
  rows: z.number(),
  status: z.enum(['measured', 'stopped', 'skipped']),
  /** CPU ms: the step's (measured), or what it had used when it was stopped (a lower bound); null if skipped. */
  ms: z.number().nullable(),
  /** Wall ms of the step; for a stopped one, the time it was given. */
  wallMs: z.number().nullable(),
  /** What the steps before projected for it (wall ms, with the safety factor); null for the first. */
  projectedMs: z.number().nullable(),
});

/** The slope on log–log axes between two adjacent timed steps, and the cost ratio (`atLeast` after a stopped step). */
export const localSlopeSchema = z.object({ fromRows: z.number(), toRows: z.number(), slope: z.number(), growth: z.number(), atLeast: z.boolean() });

export const hotcodeFigures = {
  /** Reports asked for (in a sweep: its steps, 1e3 … rows). */
  reportsPlanned: z.number(),
  reportsOk: z.number(),
  badReports: z.number(),
  /** The fastest and slowest report in the server's handler (ms): the synchronous work. */
  reportMsMin: z.number(),
  reportMsMax: z.number(),
  /** Request to answer at the load (ms, median). */
  latencyP50Ms: z.number(),
  /** /health round trips: what any other request waited while reports ran. */
  probeP50Ms: z.number(),
  probeMaxMs: z.number(),
  probes: z.number(),
  /** k of time ≈ c·rows^k over the sweep's steps (0 without a sweep). */
  sweepExponent: z.number(),
  /** Sweep steps left out because the previous steps projected they would pass the run's timeout (or one before was stopped). */
  sweepSkipped: z.number(),
  sweep: z.array(sweepPointSchema),
  // Added with the step watchdog; runs recorded before it read as a sweep with no such steps.
  /** Sweep steps the watchdog ended when they ran past the time left. */
  sweepStopped: z.number().default(0),
  sweepSteps: z.array(sweepStepSchema).default([]),
  /** The local slope between each pair of adjacent timed steps. */
  sweepSlopes: z.array(localSlopeSchema).default([]),
  /** The first local slope far above the fit (sweep-steps.ts: findCliff), or null. */
  sweepCliff: localSlopeSchema.nullable().default(null),
};

export const hotcodeSchema = {
  id: LAB_ID,
  /** Place in the lab switch and lists (lower first). */
  order: 50,
  name: 'Hot code',
  title: 'Hot code: toLocaleString and a spreading groupBy, profiled',
  params: hotcodeParamsSchema,
  defaults: DEFAULT_HOTCODE_PARAMS,
  readings: HOTCODE_READINGS,
  figures: hotcodeFigures,
  form,
  markdownTable,
  // Its work holds the loop (the lab's point): the heap is read during the block too.
  watchesBlockedHeap: true,
  // No columns of its own in the CSV yet (its Markdown table has them).
  csv: NO_CSV_COLUMNS,
  // What a blocked event loop costs every other request first.
  historyColumns: [
    { key: 'reportMsMin', header: 'Report (fastest)', unit: 'ms' },
    { key: 'probeMaxMs', header: '/health waited', unit: 'ms' },
    { key: 'sweepExponent', header: 'Sweep k', unit: 'number' },
  ],
  metrics: ['probeMs', 'cpuPct', 'elu', 'heapUsed', 'rss'] as const,
  roles: ROLES,
  describe: (params: Record<string, unknown>, style: ParamsStyle) => describeParams(params as HotcodeParams, style),
  progress: { done: 'reportsOk', total: 'reportsPlanned' },
} as const;

/** A hotcode run's summary: the common part, its params and its figures. */
export type HotcodeSummary = LabSummary<typeof LAB_ID>;

/** What the lab registry picks up from this folder (scripts/lab-index.mjs). */
export { hotcodeSchema as schema };
