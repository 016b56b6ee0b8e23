/**
 * Recorded runs: what a record on disk holds, what the history API answers and how its query
 * parameters are validated. Shared by the server (store, routes) and the pages, so no `node:` here.
 */
import { z } from 'zod';
import { LAB_SCHEMAS, labSchema } from '../../labs/schemas';
import { LEGACY_LAB, OUTCOMES } from '../protocol/common';
import {
  ownerSchema,
  peakMemorySchema,
  procPeakRssSchema,
  procSampleSchema,
  runStateSchema,
  runStateShape,
  runStatusSchema,
  sampleSchema,
  STRATEGY_ID_PATTERN,
  type Memory,
  type ProcSample,
  type RunStatus,
  type Sample,
} from '../protocol';
import { foldMax, foldPeaks } from '../series';

/** The lab's run ids: "r-" and 10 hex digits. Strict, because an id becomes a directory name. */
export const RUN_ID_PATTERN = /^r-[0-9a-f]{10}$/;
export const runIdSchema = z.string().regex(RUN_ID_PATTERN, { error: 'id must be a run id like r-0123456789 ("r-" and 10 hex digits)' });

export const HISTORY_LIMITS = {
  /** Runs overlaid in one comparison. */
  compare: { min: 2, max: 8 },
  /** Samples per series a detail request may ask for (the store keeps at most 20k per run). */
  points: { min: 10, max: 20_000, default: 4000 },
} as const;

/** Bump when the layout of meta.json changes incompatibly; older records are then reported, not misread. */
export const RECORD_FORMAT = 1;

/** Figures taken from the stored samples: the only ones an interrupted run (no summary) has. */
export const observedSchema = z.preprocess(
  readingsFromLegacy,
  z.object({
    /** Null while no sample (or no /proc reading) was stored. */
    peak: peakMemorySchema,
    procPeakRss: procPeakRssSchema,
    /** The lab's readings in the last stored sample (the streams lab: bytesRead, bytesProcessed, …). */
    readings: z.record(z.string(), z.number()),
    /** t of the last stored sample: how long the run had been going. */
    lastT: z.number(),
    sampleCount: z.number(),
    procCount: z.number(),
  }),
);
export type Observed = z.infer<typeof observedSchema>;

/** Records made before labs kept the streams lab's bytesRead/bytesProcessed beside the peaks. */
function readingsFromLegacy(value: unknown): unknown {
  if (!value || typeof value !== 'object' || 'readings' in value) return value;
  const { bytesRead, bytesProcessed, ...rest } = value as Record<string, unknown>;
  return { ...rest, readings: { bytesRead, bytesProcessed } };
}

/** meta.json of one recorded run. `run` is the lab's RunState as last seen (status 'interrupted' after a server death). */
export const runRecordSchema = z.object({
  format: z.literal(RECORD_FORMAT),
  run: runStateSchema,
  /** The experiment the run belonged to, so a link can reopen the same experiment. */
  experiment: z.object({ id: z.string(), strategies: z.array(z.string()), parallel: z.boolean(), owner: ownerSchema.nullable().default(null) }).nullable(),
  versions: z.object({ node: z.string(), library: z.object({ name: z.string(), version: z.string() }) }),
  recordedAt: z.number(),
  endedAt: z.number().nullable(),
  /** Set when the run ended (from the samples written) or when it was found interrupted. */
  observed: observedSchema.nullable(),
  /** Why the record is not the full story (interrupted, samples lost to a write error, …). */
  notes: z.array(z.string()),
});
export type RunRecord = z.infer<typeof runRecordSchema>;

/** One line of samples.ndjson: a child sample or a parent /proc reading. */
export const storedLineSchema = z.union([z.object({ s: sampleSchema }).strict(), z.object({ p: procSampleSchema }).strict()]);
export type StoredLine = z.infer<typeof storedLineSchema>;

export const runListItemSchema = z.object({
  /** The run's lab: which lab its params and figures are (the legacy lab, LEGACY_LAB, in answers from before labs). */
  lab: z.string().default(LEGACY_LAB),
  id: z.string(),
  experimentId: z.string(),
  strategy: z.string(),
  status: runStatusSchema,
  params: runStateShape.shape.params,
  queuedAt: z.number(),
  startedAt: z.number().nullable(),
  endedAt: z.number().nullable(),
  durationMs: z.number().nullable(),
  peak: peakMemorySchema,
  /** The highest RSS read from outside the process (/proc), so the list's peak RSS is the card's (peakRssOf); null if never read. */
  procPeakRss: procPeakRssSchema.default(null),
  fileBytes: z.number().nullable(),
  bytesProcessed: z.number().nullable(),
  sampleCount: z.number(),
  diskBytes: z.number(),
  /** The lab's own history columns' figures (its schema's historyColumns), by key; null where the run has none. */
  figures: z.record(z.string(), z.number().nullable()).default({}),
  /** Who started the run's experiment (its public id and name), null when nobody in a room did. */
  owner: ownerSchema.nullable().default(null),
  /**
   * Whether the browser that asked may delete this run (its own, nobody's, or asked with the
   * operator token): the page offers Delete only then. Null when the request named no browser.
   */
  mayDelete: z.boolean().nullable().default(null),
});
export type RunListItem = z.infer<typeof runListItemSchema>;

export const storageInfoSchema = z.object({ runs: z.number(), bytes: z.number(), keepRuns: z.number(), keepBytes: z.number() });

/** GET /api/runs: newest first. */
export const runListResponseSchema = z.object({
  runs: z.array(runListItemSchema),
  total: z.number(),
  /** Problems with the store (skipped records, failed writes): the page shows them. */
  warnings: z.array(z.string()),
  storage: storageInfoSchema,
});
export type RunListResponse = z.infer<typeof runListResponseSchema>;

/** GET /api/runs/:id: the record and its (possibly thinned) series. */
export const runDetailSchema = z.object({
  record: runRecordSchema,
  samples: z.array(sampleSchema),
  proc: z.array(procSampleSchema),
  /** Samples stored before thinning to the requested number of points. */
  storedSamples: z.number(),
  warnings: z.array(z.string()),
});
export type RunDetail = z.infer<typeof runDetailSchema>;

const FINAL = new Set<RunStatus>(OUTCOMES);

/** True once a run can no longer change (ended or found interrupted). */
export function isFinalStatus(status: RunStatus): boolean {
  return FINAL.has(status);
}

type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** A browser's public owner id in the room (server/hub/identity.ts: a hash of its secret id). */
const OWNER_ID_PATTERN = /^b-[0-9a-f]{16}$/;

/** ?lab=&strategy=&outcome=&owner= of GET /api/runs; empty means "any". */
export function parseListQuery(
  query: URLSearchParams,
): Parsed<{ lab: string | null; strategy: string | null; outcome: RunStatus | null; owner: string | null }> {
  const lab = query.get('lab') || null;
  if (lab !== null && !labSchema(lab)) return { ok: false, error: `lab must be one of ${LAB_SCHEMAS.map((l) => l.id).join(', ')}` };
  const strategy = query.get('strategy') || null;
  if (strategy !== null && !STRATEGY_ID_PATTERN.test(strategy)) {
    return { ok: false, error: 'strategy must be a strategy id (letters, digits and dashes, at most 64)' };
  }
  const rawOutcome = query.get('outcome') || null;
  const outcome = rawOutcome === null ? null : runStatusSchema.safeParse(rawOutcome);
  if (outcome && !outcome.success) return { ok: false, error: `outcome must be one of ${runStatusSchema.options.join(', ')}` };
  const owner = query.get('owner') || null;
  if (owner !== null && !OWNER_ID_PATTERN.test(owner)) return { ok: false, error: 'owner must be a browser’s owner id like b-0123456789abcdef' };
  return { ok: true, value: { lab, strategy, outcome: outcome ? outcome.data : null, owner } };
}

/** "?ids=a,b,c": distinct run ids, 2–8 by default (a comparison); exports of summaries allow 1. */
export function parseRunIds(raw: string | null, limits: { min: number; max: number } = HISTORY_LIMITS.compare): Parsed<string[]> {
  const { min, max } = limits;
  const ids = (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (ids.length < min || ids.length > max) return { ok: false, error: `ids must list between ${min} and ${max} run ids, comma-separated (got ${ids.length})` };
  const bad = ids.find((id) => !RUN_ID_PATTERN.test(id));
  if (bad !== undefined) return { ok: false, error: `ids: "${bad.slice(0, 40)}" is not a run id like r-0123456789` };
  if (new Set(ids).size !== ids.length) return { ok: false, error: 'ids: each run may appear once' };
  return { ok: true, value: ids };
}

/** ?points=N of GET /api/runs/:id. */
export function parsePoints(raw: string | null): Parsed<number> {
  const { min, max, default: def } = HISTORY_LIMITS.points;
  if (raw === null || raw === '') return { ok: true, value: def };
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) return { ok: false, error: `points must be a whole number between ${min} and ${max}` };
  return { ok: true, value: n };
}

/** The lab's readings of a sample: what it has beyond the common fields. */
export function labReadings(sample: Sample | undefined): Record<string, number> {
  if (!sample) return {};
  return Object.fromEntries(Object.entries(sample).filter(([k, v]) => !(k in sampleSchema.shape) && typeof v === 'number')) as Record<string, number>;
}

/** Peaks and progress over the stored series (what is known of a run without a summary). */
export function observeSeries(samples: readonly Sample[], proc: readonly ProcSample[]): Observed {
  const peak = samples.reduce<Memory | null>((m, s) => foldPeaks(m, s), null);
  const last = samples.at(-1);
  return {
    peak,
    procPeakRss: proc.reduce<number | null>((m, p) => foldMax(m, p.rss), null),
    readings: labReadings(last),
    lastT: last?.t ?? 0,
    sampleCount: samples.length,
    procCount: proc.length,
  };
}

/** The number at a dotted path of a summary ("peak.arrayBuffers"), or null. */
function numberAt(summary: unknown, path: string): number | null {
  let at: unknown = summary;
  for (const key of path.split('.')) at = at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined;
  return typeof at === 'number' && Number.isFinite(at) ? at : null;
}

/**
 * The row GET /api/runs lists for a record; figures from the summary, else from the samples.
 * `fileBytes`/`bytesProcessed` are the lab's progress figures (how much work, how much done),
 * under the names the list has always used.
 */
export function toListItem(record: RunRecord, diskBytes: number): RunListItem {
  const { run, observed } = record;
  const s = run.summary as (Record<string, unknown> & NonNullable<typeof run.summary>) | null;
  const progress = labSchema(run.lab)?.progress ?? null;
  const figure = (key: string | undefined) => (key !== undefined && typeof s?.[key] === 'number' ? (s[key] as number) : null);
  return {
    lab: run.lab,
    id: run.id,
    experimentId: run.experimentId,
    strategy: run.strategy,
    status: run.status,
    params: run.params,
    queuedAt: run.queuedAt,
    startedAt: run.startedAt,
    endedAt: record.endedAt,
    durationMs: s ? s.durationMs : observed ? observed.lastT : null,
    peak: s ? s.peak : (observed?.peak ?? null),
    procPeakRss: s ? s.procPeakRss : (observed?.procPeakRss ?? null),
    fileBytes: figure(progress?.total) ?? run.preparedUnits,
    bytesProcessed: s ? figure(progress?.done) : progress ? (observed?.readings[progress.done] ?? null) : null,
    sampleCount: observed?.sampleCount ?? s?.sampleCount ?? 0,
    diskBytes,
    figures: Object.fromEntries((labSchema(run.lab)?.historyColumns ?? []).map((c) => [c.key, numberAt(s, c.key)])),
    owner: record.experiment?.owner ?? null,
    mayDelete: null,
  };
}
