/**
 * The streams lab's columns in the CSV export of recorded runs: the first ones, as they always were
 * (scripts read them by name), then the consumer's (#30), appended after every contract column.
 */
import type { Cell, CsvPart, CsvRecord } from '../../../lib/history/summary-csv';
import type { StreamsSummary } from './schema';
import { streamsKnobs, type StreamsParams } from './params';

const csvColumns = [
  'sizeMb',
  'delayMs',
  'chunkKb',
  'cpuUs',
  'fileBytes',
  'bytesProcessed',
  'mbPerSec',
  'peakBufferedBytes',
  'peakInFlight',
  // A contract column (the HTTP lab's clients at once): here what the strategy ran with.
  'concurrency',
  // Since the consumers (#30). `records` is the count of CSV lines processed; the records param
  // (split the file into records) is `splitRecords`. The API's measured latency is `apiLatency…`,
  // apart from the `apiP99Ms` it was asked for.
  'consumer',
  'splitRecords',
  'records',
  'recordsPerSec',
  'apiP99Ms',
  'apiErrorRate',
  'apiPool',
  'dbBatchRows',
  'apiCalls',
  'apiErrors',
  'apiLatencyP50Ms',
  'apiLatencyP99Ms',
  'peakApiQueued',
  'dbRows',
  'insertsPerSec',
] as const;

/** The consumer's knobs (defaults for a run recorded before them) and what it measured (empty where it measured none). */
function consumerCells(sp: StreamsParams, s: StreamsSummary | null, readings: Record<string, number> | undefined): Record<string, Cell> {
  const k = streamsKnobs(sp);
  return {
    consumer: k.consumer,
    splitRecords: k.records,
    records: s?.records ?? readings?.records ?? null,
    recordsPerSec: s?.recordsPerSec ?? null,
    apiP99Ms: k.consumer === 'http' ? k.apiP99Ms : null,
    apiErrorRate: k.consumer === 'http' ? k.apiErrorRate : null,
    apiPool: k.consumer === 'http' ? k.apiPool : null,
    dbBatchRows: k.consumer === 'postgres' ? k.dbBatchRows : null,
    apiCalls: s?.apiCalls ?? null,
    apiErrors: s?.apiErrors ?? readings?.apiErrors ?? null,
    apiLatencyP50Ms: s?.apiP50Ms ?? null,
    apiLatencyP99Ms: s?.apiP99Ms ?? null,
    peakApiQueued: s?.peakApiQueued ?? null,
    dbRows: s?.dbRows ?? readings?.dbRows ?? null,
    insertsPerSec: s?.insertsPerSec ?? null,
  };
}

/** A streams run's cells: summary figures when it ended, the last stored sample's when it was interrupted. */
function csvCells(r: CsvRecord): Record<string, Cell> {
  const { run, observed } = r;
  const sp = run.params as StreamsParams;
  const streams = run.summary as StreamsSummary | null;
  return {
    sizeMb: sp.sizeMb,
    delayMs: sp.delayMs,
    chunkKb: sp.chunkKb,
    cpuUs: sp.cpuUs,
    fileBytes: streams?.fileBytes ?? run.preparedUnits,
    bytesProcessed: streams?.bytesProcessed ?? observed?.readings.bytesProcessed ?? null,
    mbPerSec: streams?.mbPerSec ?? null,
    peakBufferedBytes: streams?.peakBufferedBytes ?? null,
    peakInFlight: streams?.peakInFlight ?? null,
    // null in the summary is a strategy with no bound; absent, a run recorded before the knob.
    concurrency: streams?.concurrency === undefined ? null : (streams.concurrency ?? 'unbounded'),
    ...consumerCells(sp, streams, observed?.readings),
  };
}

export const csv: CsvPart = { columns: csvColumns, cells: csvCells };
