/** The streams lab's columns in the CSV export of recorded runs: the first ones, as they always were (scripts read them by name). */
import type { Cell, CsvPart, CsvRecord } from '../../../lib/history/summary-csv';
import type { StreamsSummary } from './schema';
import type { StreamsParams } from './params';

const csvColumns = ['sizeMb', 'delayMs', 'chunkKb', 'cpuUs', 'fileBytes', 'bytesProcessed', 'mbPerSec', 'peakBufferedBytes', 'peakInFlight'] as const;

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
  };
}

export const csv: CsvPart = { columns: csvColumns, cells: csvCells };
