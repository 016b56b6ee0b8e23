'use client';

/** Figures of finished HTTP runs: the server's memory and socket buffers, and what the load measured. */
import type { Experiment, RunState, StrategyInfo } from '@/lib/protocol';
import { formatCount, formatMbNumber } from '@/lib/readouts/format';
import { StatusBadge } from '@/components/StatusBadge';

export interface HttpResultsTableProps {
  /** Finished HTTP runs (with a summary), in display order. */
  runs: readonly RunState[];
  strategies: readonly StrategyInfo[];
  experiments: readonly Experiment[];
  showExperiment: boolean;
}

/** A number cell that keeps its raw value for tests and scripts (data-value), shown as `text`. */
function Num({ field, value, text }: { field: string; value: number; text: string }) {
  return (
    <td className="num" data-field={field} data-value={value}>
      {text}
    </td>
  );
}

const ms = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));

const COLUMNS: Array<[string, string?]> = [
  ['Peak heapUsed', 'MB'],
  ['Peak RSS', 'MB'],
  ['Socket buffers', 'MB, peak of the sum of writableLength over open responses'],
  ['Responses/s'],
  ['p50 (ms)', 'latency at the load generator'],
  ['p99 (ms)'],
  ['TTFB p50 (ms)', 'time to first byte: the server building its answer'],
  ['Transfer p50 (ms)', 'first byte to last'],
  ['Received', 'MB of response bodies'],
  ['OK', 'responses complete, with the right rows'],
  ['Bad'],
  ['EL max (ms)', 'largest event-loop delay of the server'],
];

/** Table of ended HTTP runs, one row each, in the order given. */
export function HttpResultsTable({ runs, strategies, experiments, showExperiment }: HttpResultsTableProps) {
  const experimentNumber = (id: string) => experiments.findIndex((e) => e.id === id) + 1;
  return (
    <>
      <p className="scroll-hint" aria-hidden="true">
        Swipe the table sideways for more columns →
      </p>
      <div className="table-scroll" tabIndex={0} role="region" aria-label="HTTP results table, scrolls sideways">
        <table data-testid="results-table-http">
          <caption className="visually-hidden">Results of finished HTTP runs; memory in MB (MiB), times in ms</caption>
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
              const s = run.summary;
              if (s?.lab !== 'http') return null;
              const info = strategies.find((x) => x.id === run.strategy);
              return (
                <tr key={run.id} data-testid="result-row" data-lab="http" data-run-id={run.id} data-strategy={run.strategy} data-outcome={s.outcome} className={`outcome-${s.outcome}`}>
                  {showExperiment && <td className="num">{experimentNumber(run.experimentId)}</td>}
                  <th scope="row">
                    {info?.label ?? run.strategy}
                    {info?.mode && <span className={`badge mode-${info.mode}`}>{info.mode}</span>}
                  </th>
                  <td title={s.reason ?? undefined}>
                    <StatusBadge status={s.outcome} />
                  </td>
                  <Num field="heapUsed" value={s.peak.heapUsed} text={formatMbNumber(s.peak.heapUsed)} />
                  <Num field="rss" value={s.peak.rss} text={formatMbNumber(s.peak.rss)} />
                  <Num field="writableBytes" value={s.peakWritableBytes} text={formatMbNumber(s.peakWritableBytes)} />
                  <Num field="reqPerSec" value={s.reqPerSec} text={s.reqPerSec.toFixed(1)} />
                  <Num field="latencyP50Ms" value={s.latencyP50Ms} text={ms(s.latencyP50Ms)} />
                  <Num field="latencyP99Ms" value={s.latencyP99Ms} text={ms(s.latencyP99Ms)} />
                  <Num field="ttfbP50Ms" value={s.ttfbP50Ms} text={ms(s.ttfbP50Ms)} />
                  <Num field="transferP50Ms" value={s.transferP50Ms} text={ms(s.transferP50Ms)} />
                  <Num field="bytesReceived" value={s.bytesReceived} text={formatMbNumber(s.bytesReceived)} />
                  <Num field="responsesOk" value={s.responsesOk} text={`${formatCount(s.responsesOk)} / ${formatCount(s.requestsPlanned)}`} />
                  <Num field="badResponses" value={s.badResponses} text={formatCount(s.badResponses)} />
                  <Num field="elMaxMs" value={s.eventLoopDelayMs.max} text={ms(s.eventLoopDelayMs.max)} />
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}
