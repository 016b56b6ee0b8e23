/** The CPU lab's columns in the CSV export of recorded runs (after the HTTP lab's and the CPU time every run has). */
import type { Cell, CsvPart, CsvRecord } from '../../../lib/history/summary-csv';
import type { CpuSummary } from './schema';
import type { CpuParams } from './params';

/** The CPU lab's params and figures that the HTTP columns don't already have. */
const CPU_LAB_COLUMNS = [
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

/** Its columns: its own, and those it shares with the HTTP lab. */
const csvColumns: readonly string[] = ['concurrency', 'requests', 'requestsPlanned', 'latencyP50Ms', ...CPU_LAB_COLUMNS];

/** The CPU lab's cells of a run's row, and the columns it shares with the HTTP lab (concurrency, requests, requestsPlanned, latencyP50Ms). */
function csvCells(r: CsvRecord): Record<string, Cell> {
  const p = r.run.params as CpuParams;
  const s = r.run.summary as CpuSummary | null;
  const figure = (name: (typeof CPU_LAB_COLUMNS)[number] & keyof CpuSummary) => (s ? (s[name] as number | null) : null);
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
    ...Object.fromEntries(
      (
        [
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
        ] as const
      ).map((k) => [k, figure(k)]),
    ),
  };
}

export const csv: CsvPart = { columns: csvColumns, cells: csvCells };
