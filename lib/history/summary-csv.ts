/**
 * Summaries of recorded runs as CSV: one flat row per run, every lab in one table. The columns
 * every run has, and each lab's own (labs/<lab>/shared/csv.ts), empty in rows of another lab; a
 * column two labs have (`concurrency`, `requests`, …) holds each lab's value in its rows. Pure.
 */
import { labOf } from '../labs';
import { LAB_SCHEMAS, labSchema } from '../../labs/schemas';
import type { RunRecord } from '.';

/** What every run measured of CPU (empty for runs recorded before it was). */
const CPU_TIME_COLUMNS = ['cpuUserMs', 'cpuSystemMs', 'cpuPeakPct'] as const;

/**
 * The columns as scripts have read them since each lab came (a contract: names and order stay).
 * Lab-specific names among them are filled by their labs (labs/<lab>/shared/csv.ts); a lab that
 * brings columns not listed here gets them appended after these, in lab order.
 */
const CONTRACT_COLUMNS = [
  'id',
  'experimentId',
  'strategy',
  'status',
  'sizeMb',
  'delayMs',
  'chunkKb',
  'cpuUs',
  'sampleMs',
  'retained',
  'budgetMb',
  'fileBytes',
  'bytesProcessed',
  'durationMs',
  'mbPerSec',
  'peakRss',
  'peakHeapTotal',
  'peakHeapUsed',
  'peakExternal',
  'peakArrayBuffers',
  'procPeakRss',
  'peakBufferedBytes',
  'peakInFlight',
  'eventLoopDelayP50Ms',
  'eventLoopDelayP99Ms',
  'eventLoopDelayMaxMs',
  'gcCount',
  'gcTotalMs',
  'queuedAt',
  'startedAt',
  'endedAt',
  'nodeVersion',
  'library',
  'libraryVersion',
  'lab',
  'rows',
  'batchRows',
  'concurrency',
  'requests',
  'slowClients',
  'slowKbps',
  'requestsPlanned',
  'responsesOk',
  'badResponses',
  'reqPerSec',
  'latencyP50Ms',
  'latencyP99Ms',
  'ttfbP50Ms',
  'transferP50Ms',
  'bytesReceived',
  'peakWritableBytes',
  'peakOpenResponses',
  'slowP50Ms',
  'loadCpuMs',
  ...CPU_TIME_COLUMNS,
  'n',
  'workers',
  'keepAlive',
  'pingMs',
  'requestsOk',
  'badRequests',
  'makespanMs',
  'latencyMaxMs',
  'computeMsAlone',
  'computeMsMin',
  'spawnP50Ms',
  'pingP50Ms',
  'pingMaxMs',
  'peakTreeRss',
  'peakProcesses',
  'peakThreads',
  'peakMessageListeners',
  'speedup',
  'speedupMeasured',
  'servers',
  'cores',
] as const;

/**
 * The run's verdict (lib/protocol's Verdict), last: its sentence, and `true`/`false`/empty for
 * whether it shows what its strategy is expected to (empty also for a run without a verdict).
 * Filled from `run.summary.verdict`, which the API adds where it serves a record.
 */
const VERDICT_COLUMNS = ['verdict', 'verdictExpected'] as const;

export const SUMMARY_COLUMNS: readonly string[] = [
  ...CONTRACT_COLUMNS,
  ...new Set(LAB_SCHEMAS.flatMap((l) => l.csv.columns).filter((c) => !(CONTRACT_COLUMNS as readonly string[]).includes(c))),
  // After every lab's own: existing columns keep their places.
  ...VERDICT_COLUMNS,
];

export type Cell = string | number | boolean | null;
export type SummaryRow = Record<string, Cell>;

/**
 * What a lab's cells are made from: a stored record, as far as they read it. Structural, not
 * RunRecord, because RunRecord's type is built from every lab's schema and a lab's schema holds this.
 */
export interface CsvRecord {
  run: { params: object; summary: object | null; preparedUnits: number | null };
  observed: { readings: Record<string, number> } | null;
}

/** A lab's part of the CSV export (labs/<lab>/shared/csv.ts): the columns it fills, and its cells of a run's row. */
export interface CsvPart {
  columns: readonly string[];
  cells(r: CsvRecord): Record<string, Cell>;
}

/** A flat row per run: summary figures when the run ended, stored-sample figures when it was interrupted. */
export function summaryRow(r: RunRecord): SummaryRow {
  const { run, observed } = r;
  const s = run.summary;
  const peak = s?.peak ?? observed?.peak ?? null;
  const common: SummaryRow = {
    id: run.id,
    experimentId: run.experimentId,
    strategy: run.strategy,
    status: run.status,
    sampleMs: run.params.sampleMs,
    retained: run.params.retained,
    budgetMb: run.params.budgetMb,
    durationMs: s?.durationMs ?? observed?.lastT ?? null,
    peakRss: peak?.rss ?? null,
    peakHeapTotal: peak?.heapTotal ?? null,
    peakHeapUsed: peak?.heapUsed ?? null,
    peakExternal: peak?.external ?? null,
    peakArrayBuffers: peak?.arrayBuffers ?? null,
    procPeakRss: s?.procPeakRss ?? observed?.procPeakRss ?? null,
    // An interrupted run has no summary, so no event-loop or GC totals: empty cells, not zeros.
    eventLoopDelayP50Ms: s?.eventLoopDelayMs.p50 ?? null,
    eventLoopDelayP99Ms: s?.eventLoopDelayMs.p99 ?? null,
    eventLoopDelayMaxMs: s?.eventLoopDelayMs.max ?? null,
    gcCount: s?.gc.count ?? null,
    gcTotalMs: s?.gc.totalMs ?? null,
    queuedAt: run.queuedAt,
    startedAt: run.startedAt,
    endedAt: r.endedAt,
    nodeVersion: s?.nodeVersion ?? r.versions.node,
    library: r.versions.library.name,
    libraryVersion: r.versions.library.version,
    lab: labOf(run),
    cpuUserMs: s?.cpu?.userMs ?? null,
    cpuSystemMs: s?.cpu?.systemMs ?? null,
    cpuPeakPct: s?.cpu?.peakPct ?? null,
    verdict: s?.verdict?.text ?? null,
    verdictExpected: s?.verdict?.expected ?? null,
  };
  // Every other column is its lab's: empty in rows of another lab.
  const own = labSchema(labOf(run))?.csv.cells(r) ?? {};
  return Object.fromEntries(SUMMARY_COLUMNS.map((c) => [c, c in common ? common[c] : (own[c] ?? null)]));
}

/** Quotes a CSV cell only when it needs it (RFC 4180). */
function csvCell(v: Cell): string {
  if (v === null) return '';
  const text = String(v);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One row per run; bytes stay bytes and times stay epoch ms, so a spreadsheet can compute with them. */
export function summariesToCsv(records: readonly RunRecord[]): string {
  const lines = [SUMMARY_COLUMNS.join(',')];
  for (const r of records) {
    const row = summaryRow(r);
    lines.push(SUMMARY_COLUMNS.map((c) => csvCell(row[c])).join(','));
  }
  return `${lines.join('\n')}\n`;
}
