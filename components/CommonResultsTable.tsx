'use client';

/**
 * Figures every run has, for a lab whose pages have no results table of their own yet (its server
 * side came first): outcome, peak memory, event-loop delay, duration.
 */
import { isMeasured, type RunState, type StrategyInfo } from '@/lib/protocol';
import { formatMbNumber } from '@/lib/readouts/format';
import { StatusBadge } from '@/components/StatusBadge';
import { strategyLabel } from '@/components/history/labels';
import { peakRssOf } from '@/lib/readouts/outcome-text';
import { NotMeasured } from '@/components/LabResultsTable';

export function CommonResultsTable({ runs, strategies, lab }: { runs: readonly RunState[]; strategies: readonly StrategyInfo[]; lab: string }) {
  return (
    <div className="table-scroll" tabIndex={0} role="region" aria-label={`${lab} results table, scrolls sideways`}>
      <table data-testid={`results-table-${lab}`}>
        <caption className="visually-hidden">Results of finished runs; memory in MB (MiB)</caption>
        <thead>
          <tr>
            <th scope="col">Strategy</th>
            <th scope="col">Outcome</th>
            <th scope="col" className="num">
              Peak heapUsed
            </th>
            <th scope="col" className="num">
              Peak RSS
            </th>
            <th scope="col" className="num">
              EL max (ms)
            </th>
            <th scope="col" className="num">
              Duration (s)
            </th>
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => {
            const s = run.summary;
            if (!s) return null;
            return (
              <tr
                key={run.id}
                data-testid="result-row"
                data-lab={lab}
                data-run-id={run.id}
                data-strategy={run.strategy}
                data-outcome={s.outcome}
                className={`outcome-${s.outcome}`}
              >
                <th scope="row">{strategyLabel(strategies, run.lab, run.strategy)}</th>
                <td title={s.reason ?? undefined}>
                  <StatusBadge status={s.outcome} />
                </td>
                {isMeasured(s) ? (
                  <>
                    <td className="num">{formatMbNumber(s.peak.heapUsed)}</td>
                    <td className="num">{formatMbNumber(peakRssOf(s))}</td>
                    <td className="num">{s.eventLoopDelayMs.max.toFixed(1)}</td>
                  </>
                ) : (
                  [0, 1, 2].map((i) => <NotMeasured key={i} />)
                )}
                <td className="num">{(s.durationMs / 1000).toFixed(1)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
