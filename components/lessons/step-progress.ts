/**
 * Where a walkthrough step stands, derived from the lab state and what the step sent: pure, so the
 * step card only renders it.
 */
import { isActive, runsOf, type LabState } from '@/lib/lab-state';
import { unmeasured, type Conclusion } from '@/lib/lessons/unfinished';
import { matchStepExperiments, type LessonStep } from '@/lib/lessons/lesson';
import type { LabId } from '@/lib/labs';
import { isMeasured, summaryOfLab, type RunState } from '@/lib/protocol';

/** What a Run click recorded, so the experiments that follow can be told apart from older ones. */
export interface StepLaunch {
  knownExperimentIds: ReadonlySet<string>;
  /** state.error.seq at the click: a later error answers this step's request. */
  errorSeq: number;
}

export type StepStatus = 'idle' | 'running' | 'done';

export interface StepProgress {
  status: StepStatus;
  runs: RunState[];
  conclusion: Conclusion | null;
  /** The server refused the step's request (e.g. a file size over its limit). */
  error: string | null;
}

/** The step's runs, status and (once every run has ended) its conclusion. */
export function stepProgress<L extends LabId>(step: LessonStep<L>, launch: StepLaunch | null, state: LabState): StepProgress {
  if (!launch) return { status: 'idle', runs: [], conclusion: null, error: null };
  const experiments = matchStepExperiments(state.experiments, launch.knownExperimentIds, step.presets, step.lab);
  const runs = experiments.flatMap((e) => (e ? runsOf(state, e) : []));
  const expectedRuns = step.presets.reduce((n, p) => n + p.strategies.length, 0);
  const refused = state.error && state.error.seq > launch.errorSeq && experiments.some((e) => e === null);
  if (refused) return { status: 'done', runs, conclusion: null, error: state.error!.message };
  if (runs.length < expectedRuns || runs.some(isActive)) return { status: 'running', runs, conclusion: null, error: null };
  const summaries = runs.map((r) => r.summary);
  if (summaries.some((s) => s === null)) {
    // 'interrupted': the server lost the run, so there is no summary to conclude from.
    return {
      status: 'done',
      runs,
      conclusion: { asExpected: false, text: 'A run was interrupted before it ended, so there is nothing to conclude. Run the step again.' },
      error: null,
    };
  }
  // The step matched experiments of its own lab, so every summary is that lab's.
  const own = summaries.filter((s) => s !== null).map((s) => summaryOfLab(s, step.lab));
  const measured = own.filter(isMeasured);
  if (measured.length < own.length) return { status: 'done', runs, conclusion: unmeasured(own), error: null };
  return { status: 'done', runs, conclusion: step.conclude(measured), error: null };
}
