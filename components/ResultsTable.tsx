'use client';

/** Figures of finished runs next to the article's published ones. */
import type { Experiment, RunState, StrategyInfo } from '@/lib/protocol';
import { formatMbNumber } from '@/lib/format';
import { StatusBadge } from '@/components/StatusBadge';

export interface ResultsTableProps {
  /** Finished runs (with a summary), in display order. */
  runs: readonly RunState[];
  strategies: readonly StrategyInfo[];
  experiments: readonly Experiment[];
  showExperiment: boolean;
}

function MbCell({ field, bytes }: { field: string; bytes: number }) {
  return (
    <td className="num" data-field={field} data-bytes={bytes}>
      {formatMbNumber(bytes)}
    </td>
  );
}

/** Table of ended runs: outcome, peak memory, duration and throughput. */
export function ResultsTable({ runs, strategies, experiments, showExperiment }: ResultsTableProps) {
  const experimentNumber = (id: string) => experiments.findIndex((e) => e.id === id) + 1;
  return (
    <div className="table-scroll">
      <table data-testid="results-table">
        <caption className="visually-hidden">Results of finished runs; memory in MB</caption>
        <thead>
          <tr>
            {showExperiment && <th scope="col">Exp.</th>}
            <th scope="col">Strategy</th>
            <th scope="col">Outcome</th>
            <th scope="col" className="num">Peak RSS</th>
            <th scope="col" className="num" title="Peak memory (MB) the source article published: 150 MB file, 10 ms per chunk, Node 20.11">
              Article
            </th>
            <th scope="col" className="num">heapUsed</th>
            <th scope="col" className="num">external</th>
            <th scope="col" className="num">arrayBuffers</th>
            <th scope="col" className="num">File</th>
            <th scope="col" className="num">Duration (s)</th>
            <th scope="col" className="num">MB/s</th>
          </tr>
        </thead>
        <tbody>
          {runs.length === 0 && (
            <tr>
              <td colSpan={showExperiment ? 11 : 10} className="muted">
                No finished runs yet.
              </td>
            </tr>
          )}
          {runs.map((run) => {
            const s = run.summary;
            if (!s) return null;
            const info = strategies.find((x) => x.id === run.strategy);
            return (
              <tr key={run.id} data-testid="result-row" data-run-id={run.id} data-strategy={run.strategy} data-outcome={s.outcome} className={`outcome-${s.outcome}`}>
                {showExperiment && <td className="num">{experimentNumber(run.experimentId)}</td>}
                <th scope="row">
                  {info?.label ?? run.strategy}
                  {info && <span className={`badge mode-${info.mode}`}>{info.mode}</span>}
                </th>
                <td title={s.reason ?? undefined}>
                  <StatusBadge status={s.outcome} />
                </td>
                <MbCell field="rss" bytes={s.peak.rss} />
                <td className="num article" title={info?.article?.note}>
                  {info?.article ? info.article.peakMb : '–'}
                </td>
                <MbCell field="heapUsed" bytes={s.peak.heapUsed} />
                <MbCell field="external" bytes={s.peak.external} />
                <MbCell field="arrayBuffers" bytes={s.peak.arrayBuffers} />
                <td className="num">{formatMbNumber(s.fileBytes)}</td>
                <td className="num">{(s.durationMs / 1000).toFixed(1)}</td>
                <td className="num">{s.mbPerSec.toFixed(1)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
