'use client';

/** Figures of finished CPU runs: how long the requests took, the speed-up against the cores, and what the process tree cost. */
import type { Experiment, LabSummary, RunState, StrategyInfo } from '@/lib/protocol';
import { listenersLeaked } from './verdict';
import { formatCount, formatMbNumber, formatTimes } from '@/lib/readouts/format';
import { LabResultsTable, Num, tableMs as ms, type Column } from '@/components/LabResultsTable';
import { LAB_ID } from '../shared/id';

export interface CpuResultsTableProps {
  /** Finished CPU runs (with a summary), in display order. */
  runs: readonly RunState[];
  strategies: readonly StrategyInfo[];
  experiments: readonly Experiment[];
  showExperiment: boolean;
}

const s = (v: number | null) => (v === null ? '–' : (v / 1000).toFixed(2));

const COLUMNS: readonly Column[] = [
  ['Makespan (s)', 'first request sent to last answer'],
  ['Speed-up', 'requests × fib(n) alone ÷ makespan, against the cores (the ceiling)'],
  ['p50 (ms)', 'latency at the load generator'],
  ['Max (ms)'],
  ['Spawn p50 (ms)', 'a process or thread started per request, to ready'],
  ['Ping p50 (ms)', 'GET /ping round trip while the requests ran'],
  ['Ping max (ms)'],
  ['Tree RSS', 'MB, peak RSS of the server’s whole process tree'],
  ['Processes', 'peak, the primary included'],
  ['Threads', 'peak, in all the processes'],
  ['Listeners', 'peak ‘message’ listeners on the pool’s workers'],
  ['OK', 'requests answered with their own right fib(n)'],
];

function cells(r: LabSummary<typeof LAB_ID>) {
  return (
    <>
      <Num field="makespanMs" value={r.makespanMs} text={s(r.makespanMs)} />
      <Num field="speedup" value={r.speedup} text={r.speedup === null ? '–' : `${formatTimes(r.speedup)} of ${r.cores}`} />
      <Num field="latencyP50Ms" value={r.latencyP50Ms} text={ms(r.latencyP50Ms)} />
      <Num field="latencyMaxMs" value={r.latencyMaxMs} text={ms(r.latencyMaxMs)} />
      <Num field="spawnP50Ms" value={r.spawnP50Ms} text={r.spawnP50Ms !== null && r.spawnP50Ms > 0 ? ms(r.spawnP50Ms) : '–'} />
      <Num field="pingP50Ms" value={r.pingP50Ms} text={r.params.pingMs > 0 ? ms(r.pingP50Ms) : '–'} />
      <Num field="pingMaxMs" value={r.pingMaxMs} text={r.params.pingMs > 0 ? ms(r.pingMaxMs) : '–'} />
      <Num field="peakTreeRss" value={r.peakTreeRss} text={formatMbNumber(r.peakTreeRss)} />
      <Num field="peakProcesses" value={r.peakProcesses} text={formatCount(r.peakProcesses)} />
      <Num field="peakThreads" value={r.peakThreads} text={formatCount(r.peakThreads)} />
      <Num field="peakMessageListeners" value={r.peakMessageListeners} text={formatCount(r.peakMessageListeners)} alert={listenersLeaked(r)} />
      <Num field="requestsOk" value={r.requestsOk} text={`${formatCount(r.requestsOk)} / ${formatCount(r.requestsPlanned)}`} />
    </>
  );
}

/** Table of ended CPU runs, one row each, in the order given; a data-lost row's reason shows under its outcome. */
export function CpuResultsTable(props: CpuResultsTableProps) {
  return (
    <LabResultsTable
      lab={LAB_ID}
      name="CPU"
      caption="Results of finished CPU runs; memory in MB (MiB), times in ms unless said"
      columns={COLUMNS}
      cells={cells}
      {...props}
    />
  );
}
