'use client';

/** Results of the latest experiment, or of every experiment still in the server's memory. */
import { useMemo, useState } from 'react';
import type { RunState } from '@/lib/protocol';
import type { LabState } from '@/lib/lab-state';
import { runsOf } from '@/lib/lab-state';
import { ResultsByLab } from '@/components/ResultsByLab';
import type { LabId } from '@/lib/labs';

export interface ResultsPanelProps {
  state: LabState;
  latestRuns: readonly RunState[];
  /** The lab the page shows: its table stands empty before any run finished. */
  lab: LabId;
}

/** Heading, the "all experiments" switch and the results table. */
export function ResultsPanel({ state, latestRuns, lab }: ResultsPanelProps) {
  const [all, setAll] = useState(false);
  const ended = useMemo(() => {
    const runs = all ? state.experiments.flatMap((e) => runsOf(state, e)) : latestRuns;
    return runs.filter((r) => r.summary !== null);
  }, [all, state, latestRuns]);

  return (
    <section className="panel results" aria-labelledby="results-heading">
      <header className="panel-header">
        <h2 id="results-heading">Results</h2>
        <span className="check-inline">
          <input id="results-all" type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} />
          <label htmlFor="results-all">All experiments</label>
        </span>
      </header>
      <ResultsByLab runs={ended} strategies={state.strategies} experiments={state.experiments} showExperiment={all} lab={lab} explain />
    </section>
  );
}
