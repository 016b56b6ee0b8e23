'use client';

/**
 * The frame every lab's results table shares (the HTTP and CPU labs'): experiment number, strategy,
 * outcome with its reason, then the lab's own number cells, scrolling sideways on small screens.
 * A lab gives its columns and how one of its summaries fills them.
 */
import type { ReactNode } from 'react';
import { isMeasured, type Experiment, type LabSummary, type Measured, type RunState, type RunSummary, type StrategyInfo } from '@/lib/protocol';
import { StatusBadge } from '@/components/StatusBadge';
import { RuntimeTag } from '@/components/RuntimeVerdict';
import { runtimesDiffer } from '@/lib/readouts/runtime-verdict';
import { strategyInfo } from '@/components/history/labels';

/** A column: its heading and what it means (the heading's title). */
export type Column = [name: string, title?: string];

export interface LabResultsTableProps<L extends RunSummary['lab']> {
  lab: L;
  /** "CPU", "HTTP": names the table for screen readers. */
  name: string;
  caption: string;
  columns: readonly Column[];
  /** The lab's cells for one run that took samples, in column order (use `Num`). */
  cells(summary: Measured<LabSummary<L>>): ReactNode;
  /** Finished runs (with a summary), in display order; other labs' runs are skipped. */
  runs: readonly RunState[];
  strategies: readonly StrategyInfo[];
  experiments: readonly Experiment[];
  showExperiment: boolean;
}

/** A number cell that keeps its raw value for tests and scripts (data-value, empty when not measured), shown as `text`. */
export function Num({ field, value, text, alert = false }: { field: string; value: number | null; text: string; alert?: boolean }) {
  return (
    <td className={alert ? 'num figure-alert' : 'num'} data-field={field} data-value={value ?? ''}>
      {text}
    </td>
  );
}

/** A cell of a figure that was not measured (data-value empty, as the cards' figures). */
export function NotMeasured() {
  return (
    <td className="num muted" data-value="" title="not measured: the run has no sample">
      –
    </td>
  );
}

/** Milliseconds as a table shows them: whole from 100 up, one decimal below; a dash when not measured (null). */
export const tableMs = (v: number | null) => (v === null ? '–' : v >= 100 ? v.toFixed(0) : v.toFixed(1));

export function LabResultsTable<L extends RunSummary['lab']>({
  lab,
  name,
  caption,
  columns,
  cells,
  runs,
  strategies,
  experiments,
  showExperiment,
}: LabResultsTableProps<L>) {
  const experimentNumber = (id: string) => experiments.findIndex((e) => e.id === id) + 1;
  return (
    <>
      <p className="scroll-hint" aria-hidden="true">
        Swipe the table sideways for more columns →
      </p>
      <div className="table-scroll" tabIndex={0} role="region" aria-label={`${name} results table, scrolls sideways`}>
        <table data-testid={`results-table-${lab}`}>
          <caption className="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              {showExperiment && <th scope="col">Exp.</th>}
              <th scope="col">Strategy</th>
              <th scope="col">Outcome</th>
              {columns.map(([heading, title]) => (
                <th key={heading} scope="col" className="num" title={title}>
                  {heading}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {runs.length === 0 && (
              <tr>
                <td colSpan={columns.length + (showExperiment ? 3 : 2)} className="muted">
                  No finished runs yet.
                </td>
              </tr>
            )}
            {runs.map((run) => {
              const s = run.summary;
              if (s?.lab !== lab) return null;
              const summary = s as LabSummary<L>;
              const info = strategyInfo(strategies, run.lab, run.strategy);
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
                  {showExperiment && <td className="num">{experimentNumber(run.experimentId)}</td>}
                  <th scope="row">
                    {info?.label ?? run.strategy}
                    {info?.mode && <span className={`badge mode-${info.mode}`}>{info.mode}</span>}
                    <RuntimeTag run={run} show={runtimesDiffer(runs)} />
                  </th>
                  <td title={s.reason ?? undefined}>
                    <StatusBadge status={s.outcome} />
                    {s.reason && s.outcome !== 'completed' && (
                      <span className="result-reason" data-testid="result-reason">
                        {s.reason}
                      </span>
                    )}
                  </td>
                  {/* A run that ended without a sample measured nothing: dashes, not the zeros of its summary. */}
                  {isMeasured(summary) ? cells(summary) : columns.map(([heading]) => <NotMeasured key={heading} />)}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}
