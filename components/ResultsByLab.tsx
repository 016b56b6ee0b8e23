'use client';

/**
 * Results of finished runs, one table per lab (the labs measure different things), with the note
 * each lab's table needs. With no finished run, the table of the lab being looked at stays, empty.
 */
import { DEFAULT_LAB, LAB_IDS, LAB_NAMES, labOf, type LabId } from '@/lib/labs';
import { labView } from '@/labs/views';
import type { Experiment, RunState, StrategyInfo } from '@/lib/protocol';
import { CommonResultsTable } from '@/components/CommonResultsTable';
import { byStrategyAndRuntime, RuntimeVerdict } from '@/components/RuntimeVerdict';
import { runtimesDiffer } from '@/lib/readouts/runtime-verdict';

export interface ResultsByLabProps {
  /** Finished runs (with a summary), in display order. */
  runs: readonly RunState[];
  strategies: readonly StrategyInfo[];
  experiments: readonly Experiment[];
  showExperiment: boolean;
  /** The lab whose (empty) table shows when no run has finished. */
  lab?: LabId;
  /** Say what each table's figures are (the dashboard does; a comparison's table stands under its chart). */
  explain?: boolean;
}

export function ResultsByLab({ runs, strategies, experiments, showExperiment, lab = DEFAULT_LAB, explain = false }: ResultsByLabProps) {
  const present = LAB_IDS.filter((l) => runs.some((r) => labOf(r) === l));
  const shown = present.length > 0 ? present : [lab];
  return (
    <>
      {shown.map((l) => {
        // Runs on several Node versions are grouped strategy × runtime, with what changed between them.
        const mixed = runtimesDiffer(runs.filter((r) => labOf(r) === l));
        const ofLab = mixed ? byStrategyAndRuntime(runs.filter((r) => labOf(r) === l)) : runs.filter((r) => labOf(r) === l);
        const props = { runs: ofLab, strategies, experiments, showExperiment };
        const view = labView(l);
        return (
          <div key={l} className="results-lab" data-lab={l}>
            {shown.length > 1 && <h3>{LAB_NAMES[l]}</h3>}
            {explain && view?.resultsNote && <p className="muted">{view.resultsNote}</p>}
            {view ? <view.ResultsTable {...props} /> : <CommonResultsTable runs={ofLab} strategies={strategies} lab={l} />}
            {mixed && <RuntimeVerdict runs={ofLab} strategies={strategies} />}
            {view?.ResultsChart && <view.ResultsChart {...props} />}
          </div>
        );
      })}
    </>
  );
}
