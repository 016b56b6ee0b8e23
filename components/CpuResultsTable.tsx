'use client';

/** Figures of finished CPU runs: how long the requests took, the speed-up against the cores, and what the process tree cost. */
import type { Experiment, RunState, StrategyInfo } from '@/lib/protocol';
import { listenersLeaked } from '@/lib/readouts/cpu-verdict';
import { formatCount, formatMbNumber, formatTimes } from '@/lib/readouts/format';
import { StatusBadge } from '@/components/StatusBadge';

export interface CpuResultsTableProps {
  /** Finished CPU runs (with a summary), in display order. */
  runs: readonly RunState[];
  strategies: readonly StrategyInfo[];
  experiments: readonly Experiment[];
  showExperiment: boolean;
}

/** A number cell that keeps its raw value for tests and scripts (data-value), shown as `text`. */
function Num({ field, value, text, alert = false }: { field: string; value: number; text: string; alert?: boolean }) {
  return (
    <td className={alert ? 'num figure-alert' : 'num'} data-field={field} data-value={value}>
      {text}
    </td>
  );
}

const ms = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));
const s = (v: number) => (v / 1000).toFixed(2);

const COLUMNS: Array<[string, string?]> = [
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

/** Table of ended CPU runs, one row each, in the order given; a data-lost row's reason is its outcome's title and its last cell. */
export function CpuResultsTable({ runs, strategies, experiments, showExperiment }: CpuResultsTableProps) {
  const experimentNumber = (id: string) => experiments.findIndex((e) => e.id === id) + 1;
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label="CPU results table, scrolls sideways">
      <table data-testid="results-table-cpu">
        <caption className="visually-hidden">Results of finished CPU runs; memory in MB (MiB), times in ms unless said</caption>
        <thead>
          <tr>
            {showExperiment && <th scope="col">Exp.</th>}
            <th scope="col">Strategy</th>
            <th scope="col">Outcome</th>
            {COLUMNS.map(([name, title]) => (
              <th key={name} scope="col" className="num" title={title}>
                {name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {runs.length === 0 && (
            <tr>
              <td colSpan={COLUMNS.length + (showExperiment ? 3 : 2)} className="muted">
                No finished runs yet.
              </td>
            </tr>
          )}
          {runs.map((run) => {
            const r = run.summary;
            if (r?.lab !== 'cpu') return null;
            return (
              <tr key={run.id} data-testid="result-row" data-lab="cpu" data-run-id={run.id} data-strategy={run.strategy} data-outcome={r.outcome} className={`outcome-${r.outcome}`}>
                {showExperiment && <td className="num">{experimentNumber(run.experimentId)}</td>}
                <th scope="row">{strategies.find((x) => x.id === run.strategy)?.label ?? run.strategy}</th>
                <td title={r.reason ?? undefined}>
                  <StatusBadge status={r.outcome} />
                  {r.reason && r.outcome !== 'completed' && (
                    <span className="result-reason" data-testid="result-reason">
                      {r.reason}
                    </span>
                  )}
                </td>
                <Num field="makespanMs" value={r.makespanMs} text={s(r.makespanMs)} />
                <Num field="speedup" value={r.speedup} text={`${formatTimes(r.speedup)} of ${r.cores}`} />
                <Num field="latencyP50Ms" value={r.latencyP50Ms} text={ms(r.latencyP50Ms)} />
                <Num field="latencyMaxMs" value={r.latencyMaxMs} text={ms(r.latencyMaxMs)} />
                <Num field="spawnP50Ms" value={r.spawnP50Ms} text={r.spawnP50Ms > 0 ? ms(r.spawnP50Ms) : '–'} />
                <Num field="pingP50Ms" value={r.pingP50Ms} text={r.params.pingMs > 0 ? ms(r.pingP50Ms) : '–'} />
                <Num field="pingMaxMs" value={r.pingMaxMs} text={r.params.pingMs > 0 ? ms(r.pingMaxMs) : '–'} />
                <Num field="peakTreeRss" value={r.peakTreeRss} text={formatMbNumber(r.peakTreeRss)} />
                <Num field="peakProcesses" value={r.peakProcesses} text={formatCount(r.peakProcesses)} />
                <Num field="peakThreads" value={r.peakThreads} text={formatCount(r.peakThreads)} />
                <Num field="peakMessageListeners" value={r.peakMessageListeners} text={formatCount(r.peakMessageListeners)} alert={listenersLeaked(r)} />
                <Num field="requestsOk" value={r.requestsOk} text={`${formatCount(r.requestsOk)} / ${formatCount(r.requestsPlanned)}`} />
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
