/** The HTTP lab's columns in the CSV export of recorded runs (after `lab`, as when the lab came). */
import type { Cell, CsvPart, CsvRecord } from '../../../lib/history/summary-csv';
import type { HttpSummary } from './schema';
import type { HttpParams } from './params';

/** The HTTP lab's params and figures, added after `lab` when the lab came. */
const csvColumns = [
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
] as const;

/** The HTTP lab's params and figures of a run's row (null for a figure an interrupted run lacks). */
function csvCells(r: CsvRecord): Record<string, Cell> {
  const p = r.run.params as HttpParams;
  const s = r.run.summary as HttpSummary | null;
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

export const csv: CsvPart = { columns: csvColumns, cells: csvCells };
