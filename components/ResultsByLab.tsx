'use client';

/**
 * Results of finished runs, one table per lab (the labs measure different things), with the note
 * each lab's table needs. With no finished run, the table of the lab being looked at stays, empty.
 */
import { LAB_IDS, LAB_NAMES, labOf, type LabId } from '@/lib/labs';
import type { Experiment, RunState, StrategyInfo } from '@/lib/protocol';
import { ARTICLE_RUN, ResultsTable } from '@/labs/streams/view/ResultsTable';
import { HttpResultsTable } from '@/labs/http/view/ResultsTable';
import { CpuResultsTable } from '@/labs/cpu/view/ResultsTable';
import { DeadlineResultsTable } from '@/labs/deadline/view/ResultsTable';
import { HotcodeResultsTable } from '@/labs/hotcode/view/ResultsTable';
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

const NOTES: Partial<Record<LabId, string>> = {
  streams:
    `Peak memory in MB (MiB). The Article column is the peak the source article published for that strategy, for a ${ARTICLE_RUN.sizeMb} MB ` +
    `file at ${ARTICLE_RUN.delayMs} ms per chunk; it is shown only beside runs with those parameters.`,
  http:
    'Memory of the server under test, peaks in MB (MiB); socket buffers are the bytes queued in its open responses. Latencies are ' +
    'measured at the load generator, per response, in ms.',
  deadline:
    'Outcomes as the load generator counted them (on time + late + timed out + refused + errors = sent); timer lateness measured in the ' +
    'service: every timer that fired, deadline and probe, actual fire time minus due time.',
  hotcode:
    'Report times are the strategy’s synchronous work in the request handler; /health is a probe sent every probeMs meanwhile, ' +
    'so its wait is what any other request waited. A sweep’s exponent is fitted to CPU time.',
};

export function ResultsByLab({ runs, strategies, experiments, showExperiment, lab = 'streams', explain = false }: ResultsByLabProps) {
  const present = LAB_IDS.filter((l) => runs.some((r) => labOf(r) === l));
  const shown = present.length > 0 ? present : [lab];
  return (
    <>
      {shown.map((l) => {
        // Runs on several Node versions are grouped strategy × runtime, with what changed between them.
        const mixed = runtimesDiffer(runs.filter((r) => labOf(r) === l));
        const ofLab = mixed ? byStrategyAndRuntime(runs.filter((r) => labOf(r) === l)) : runs.filter((r) => labOf(r) === l);
        const props = { runs: ofLab, strategies, experiments, showExperiment };
        return (
          <div key={l} className="results-lab" data-lab={l}>
            {shown.length > 1 && <h3>{LAB_NAMES[l]}</h3>}
            {explain && NOTES[l] && <p className="muted">{NOTES[l]}</p>}
            {l === 'http' ? (
              <HttpResultsTable {...props} />
            ) : l === 'cpu' ? (
              <CpuResultsTable {...props} />
            ) : l === 'deadline' ? (
              <DeadlineResultsTable {...props} />
            ) : l === 'hotcode' ? (
              <HotcodeResultsTable {...props} />
            ) : l === 'streams' ? (
              <ResultsTable {...props} />
            ) : (
              <CommonResultsTable runs={ofLab} strategies={strategies} lab={l} />
            )}
            {mixed && <RuntimeVerdict runs={ofLab} strategies={strategies} />}
          </div>
        );
      })}
    </>
  );
}
