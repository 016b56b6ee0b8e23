/**
 * Summaries of recorded runs as CSV: one flat row per run, every lab in one table. The streams
 * columns come first as they always have (scripts read them by name); the `lab` column, the HTTP
 * lab's params and figures, the CPU time every run has, and the CPU lab's own follow, empty in
 * rows of another lab. A column both labs have (`concurrency`, `requests`, `requestsPlanned`,
 * `latencyP50Ms`) holds the CPU lab's value in its rows. Pure.
 */
import { labOf, paramsOfLab } from '../labs';
import type { RunRecord } from '.';

/** The HTTP lab's params and figures, added after `lab` when the lab came. */
const HTTP_COLUMNS = [
  'rows', 'batchRows', 'concurrency', 'requests', 'slowClients', 'slowKbps', 'requestsPlanned', 'responsesOk', 'badResponses',
  'reqPerSec', 'latencyP50Ms', 'latencyP99Ms', 'ttfbP50Ms', 'transferP50Ms', 'bytesReceived', 'peakWritableBytes',
  'peakOpenResponses', 'slowP50Ms', 'loadCpuMs',
] as const;

/** What every run measured of CPU (empty for runs recorded before it was). */
const CPU_TIME_COLUMNS = ['cpuUserMs', 'cpuSystemMs', 'cpuPeakPct'] as const;

/** The CPU lab's params and figures that the HTTP columns don't already have. */
const CPU_LAB_COLUMNS = [
  'n', 'workers', 'keepAlive', 'pingMs', 'requestsOk', 'badRequests', 'makespanMs', 'latencyMaxMs', 'computeMsAlone',
  'computeMsMin', 'spawnP50Ms', 'pingP50Ms', 'pingMaxMs', 'peakTreeRss', 'peakProcesses', 'peakThreads',
  'peakMessageListeners', 'speedup', 'speedupMeasured', 'servers', 'cores',
] as const;

export const SUMMARY_COLUMNS = [
  'id', 'experimentId', 'strategy', 'status', 'sizeMb', 'delayMs', 'chunkKb', 'cpuUs', 'sampleMs', 'retained', 'budgetMb',
  'fileBytes', 'bytesProcessed', 'durationMs', 'mbPerSec', 'peakRss', 'peakHeapTotal', 'peakHeapUsed', 'peakExternal',
  'peakArrayBuffers', 'procPeakRss', 'peakBufferedBytes', 'peakInFlight', 'eventLoopDelayP50Ms', 'eventLoopDelayP99Ms',
  'eventLoopDelayMaxMs', 'gcCount', 'gcTotalMs', 'queuedAt', 'startedAt', 'endedAt', 'nodeVersion', 'library', 'libraryVersion',
  'lab', ...HTTP_COLUMNS, ...CPU_TIME_COLUMNS, ...CPU_LAB_COLUMNS,
] as const;

type Cell = string | number | boolean | null;
export type SummaryRow = Record<(typeof SUMMARY_COLUMNS)[number], Cell>;

/** The HTTP lab's params and figures of a row (null for a run of another lab, or a figure an interrupted run lacks). */
function httpCells(r: RunRecord): Record<(typeof HTTP_COLUMNS)[number], Cell> {
  const p = paramsOfLab(r.run, 'http');
  const s = r.run.summary?.lab === 'http' ? r.run.summary : null;
  const reading = (name: string) => (p ? (r.observed?.readings[name] ?? null) : null);
  return {
    rows: p?.rows ?? null,
    batchRows: p?.batchRows ?? null,
    concurrency: p?.concurrency ?? null,
    requests: p?.requests ?? null,
    slowClients: p?.slowClients ?? null,
    slowKbps: p?.slowKbps ?? null,
    requestsPlanned: s?.requestsPlanned ?? (p ? p.requests + p.slowClients : null),
    // An interrupted run keeps what its last stored sample counted.
    responsesOk: s?.responsesOk ?? reading('responsesOk'),
    badResponses: s?.badResponses ?? reading('badResponses'),
    reqPerSec: s?.reqPerSec ?? null,
    latencyP50Ms: s?.latencyP50Ms ?? null,
    latencyP99Ms: s?.latencyP99Ms ?? null,
    ttfbP50Ms: s?.ttfbP50Ms ?? null,
    transferP50Ms: s?.transferP50Ms ?? null,
    bytesReceived: s?.bytesReceived ?? null,
    peakWritableBytes: s?.peakWritableBytes ?? null,
    peakOpenResponses: s?.peakOpenResponses ?? null,
    slowP50Ms: s?.slowP50Ms ?? null,
    loadCpuMs: s?.loadCpuMs ?? null,
  };
}

/** The CPU lab's cells (and the shared columns in its rows); nothing for a run of another lab. */
function cpuCells(r: RunRecord): Partial<SummaryRow> {
  const p = paramsOfLab(r.run, 'cpu');
  if (!p) return {};
  const s = r.run.summary?.lab === 'cpu' ? r.run.summary : null;
  const figure = (name: (typeof CPU_LAB_COLUMNS)[number] & keyof NonNullable<typeof s>) => (s ? (s[name] as number) : null);
  return {
    concurrency: p.concurrency,
    requests: p.requests,
    requestsPlanned: s?.requestsPlanned ?? p.requests,
    latencyP50Ms: s?.latencyP50Ms ?? null,
    n: p.n,
    // Empty in the form means "as many as the cores"; the run's `cores` column says how many that was.
    workers: p.workers ?? 'cores',
    keepAlive: p.keepAlive,
    pingMs: p.pingMs,
    // An interrupted run keeps what its last stored sample counted.
    requestsOk: s?.requestsOk ?? r.observed?.readings.requestsOk ?? null,
    badRequests: s?.badRequests ?? r.observed?.readings.badRequests ?? null,
    ...Object.fromEntries((['makespanMs', 'latencyMaxMs', 'computeMsAlone', 'computeMsMin', 'spawnP50Ms', 'pingP50Ms', 'pingMaxMs', 'peakTreeRss', 'peakProcesses', 'peakThreads', 'peakMessageListeners', 'speedup', 'speedupMeasured', 'servers', 'cores'] as const).map((k) => [k, figure(k)])),
  };
}

/** A flat row per run: summary figures when the run ended, stored-sample figures when it was interrupted. */
export function summaryRow(r: RunRecord): SummaryRow {
  const { run, observed } = r;
  const s = run.summary;
  const sp = paramsOfLab(run, 'streams');
  const streams = s?.lab === 'streams' ? s : null;
  const peak = s?.peak ?? observed?.peak ?? null;
  return {
    id: run.id,
    experimentId: run.experimentId,
    strategy: run.strategy,
    status: run.status,
    sizeMb: sp?.sizeMb ?? null,
    delayMs: sp?.delayMs ?? null,
    chunkKb: sp?.chunkKb ?? null,
    cpuUs: sp?.cpuUs ?? null,
    sampleMs: run.params.sampleMs,
    retained: run.params.retained,
    budgetMb: run.params.budgetMb,
    fileBytes: streams?.fileBytes ?? (sp ? run.fileBytes : null),
    bytesProcessed: streams?.bytesProcessed ?? (sp ? (observed?.readings.bytesProcessed ?? null) : null),
    durationMs: s?.durationMs ?? observed?.lastT ?? null,
    mbPerSec: streams?.mbPerSec ?? null,
    peakRss: peak?.rss ?? null,
    peakHeapTotal: peak?.heapTotal ?? null,
    peakHeapUsed: peak?.heapUsed ?? null,
    peakExternal: peak?.external ?? null,
    peakArrayBuffers: peak?.arrayBuffers ?? null,
    procPeakRss: s?.procPeakRss ?? observed?.procPeakRss ?? null,
    peakBufferedBytes: streams?.peakBufferedBytes ?? null,
    // An interrupted run has no summary, so no event-loop or GC totals: empty cells, not zeros.
    peakInFlight: streams?.peakInFlight ?? null,
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
    ...httpCells(r),
    cpuUserMs: s?.cpu?.userMs ?? null,
    cpuSystemMs: s?.cpu?.systemMs ?? null,
    cpuPeakPct: s?.cpu?.peakPct ?? null,
    ...Object.fromEntries(CPU_LAB_COLUMNS.map((c) => [c, null])),
    ...cpuCells(r),
  } as SummaryRow;
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
