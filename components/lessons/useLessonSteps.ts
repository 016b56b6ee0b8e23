'use client';

/**
 * A walkthrough's state, whatever its lab: each step sends the same experiment.start the dashboard
 * sends, over the same socket, and recognises its runs by the experiments that follow. Samples of
 * a step's runs are kept here after the lab state lets them go (it keeps the newest few
 * experiments'), so a step further up the page keeps drawing them.
 */
import { useCallback, useMemo, useState } from 'react';
import { useLabSocket, type ConnectionState } from '@/components/hooks/useLabSocket';
import type { LabState } from '@/lib/lab-state';
import type { LabId } from '@/lib/labs';
import type { LessonStep } from '@/lib/lessons/lesson';
import type { ProcSample, Sample } from '@/lib/protocol';
import { stepProgress, type StepLaunch, type StepProgress } from './step-progress';

const NO_SAMPLES: readonly Sample[] = [];
const NO_PROC: readonly ProcSample[] = [];

export interface LessonSteps<L extends LabId> {
  state: LabState;
  connection: ConnectionState;
  /** Each step's status, runs and conclusion, in step order. */
  progress: StepProgress[];
  run(step: LessonStep<L>): void;
  /** The last send found no open connection. */
  sendFailed: boolean;
  samplesOf(runId: string): readonly Sample[];
  procOf(runId: string): readonly ProcSample[];
}

export function useLessonSteps<L extends LabId>(steps: readonly LessonStep<L>[]): LessonSteps<L> {
  const { state, connection, send } = useLabSocket();
  const [launches, setLaunches] = useState<Record<number, StepLaunch>>({});
  const [sendFailed, setSendFailed] = useState(false);
  // Updated while rendering (React's "state from the previous render" pattern), so it never lags a
  // frame behind the lab state.
  const [kept, setKept] = useState<Record<string, { samples: readonly Sample[]; proc: readonly ProcSample[] }>>({});
  const [keptFrom, setKeptFrom] = useState(state.samples);

  const progress = useMemo(() => steps.map((step) => stepProgress(step, launches[step.n] ?? null, state)), [steps, launches, state]);

  if (keptFrom !== state.samples) {
    setKeptFrom(state.samples);
    const next = { ...kept };
    let changed = false;
    for (const r of progress.flatMap((p) => p.runs)) {
      const samples = state.samples[r.id];
      if (samples && next[r.id]?.samples !== samples) {
        next[r.id] = { samples, proc: state.proc[r.id] ?? NO_PROC };
        changed = true;
      }
    }
    if (changed) setKept(next);
  }
  const samplesOf = useCallback((runId: string) => state.samples[runId] ?? kept[runId]?.samples ?? NO_SAMPLES, [state.samples, kept]);
  const procOf = useCallback((runId: string) => state.proc[runId] ?? kept[runId]?.proc ?? NO_PROC, [state.proc, kept]);

  const run = useCallback(
    (step: LessonStep<L>) => {
      const launch: StepLaunch = { knownExperimentIds: new Set(state.experiments.map((e) => e.id)), errorSeq: state.error?.seq ?? 0 };
      const sent = step.presets.every((p) => send({ type: 'experiment.start', lab: step.lab, strategies: p.strategies, params: p.params, parallel: false }));
      setSendFailed(!sent);
      if (sent) setLaunches((prev) => ({ ...prev, [step.n]: launch }));
    },
    [send, state.experiments, state.error],
  );

  return { state, connection, progress, run, sendFailed, samplesOf, procOf };
}
