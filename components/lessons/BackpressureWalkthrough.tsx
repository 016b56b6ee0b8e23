'use client';

/**
 * The guided push-vs-pull walkthrough. Each step sends the same experiment.start the dashboard
 * sends, over the same socket, and recognises its runs by the experiment.created that follows.
 */
import { useCallback, useMemo, useState } from 'react';
import { useLabSocket } from '@/components/hooks/useLabSocket';
import { ConnectionStatus } from '@/components/ConnectionStatus';
import { LESSON_STEPS, type LessonStep } from '@/lib/lessons/steps';
import type { ProcSample, Sample } from '@/lib/protocol';
import { LessonStepCard } from './LessonStepCard';
import { LessonsNav } from './LessonsNav';
import { stepProgress, type StepLaunch } from './step-progress';

const NO_SAMPLES: readonly Sample[] = [];
const NO_PROC: readonly ProcSample[] = [];

export function BackpressureWalkthrough() {
  const { state, connection, send } = useLabSocket();
  const [launches, setLaunches] = useState<Record<number, StepLaunch>>({});
  const [sendFailed, setSendFailed] = useState(false);
  // The lab state keeps samples of the newest few experiments only; a step further up the page
  // keeps drawing the samples it had. Updated while rendering (React's "state from the previous
  // render" pattern), so it never lags a frame behind the lab state.
  const [kept, setKept] = useState<Record<string, { samples: readonly Sample[]; proc: readonly ProcSample[] }>>({});
  const [keptFrom, setKeptFrom] = useState(state.samples);

  const progress = useMemo(() => LESSON_STEPS.map((step) => stepProgress(step, launches[step.n] ?? null, state)), [launches, state]);

  if (keptFrom !== state.samples) {
    setKeptFrom(state.samples);
    const next = { ...kept };
    let changed = false;
    for (const run of progress.flatMap((p) => p.runs)) {
      const samples = state.samples[run.id];
      if (samples && next[run.id]?.samples !== samples) {
        next[run.id] = { samples, proc: state.proc[run.id] ?? NO_PROC };
        changed = true;
      }
    }
    if (changed) setKept(next);
  }
  const samplesOf = useCallback((runId: string) => state.samples[runId] ?? kept[runId]?.samples ?? NO_SAMPLES, [state.samples, kept]);
  const procOf = useCallback((runId: string) => state.proc[runId] ?? kept[runId]?.proc ?? NO_PROC, [state.proc, kept]);

  const run = useCallback(
    (step: LessonStep) => {
      const launch: StepLaunch = { knownExperimentIds: new Set(state.experiments.map((e) => e.id)), errorSeq: state.error?.seq ?? 0 };
      const sent = step.presets.every((p) => send({ type: 'experiment.start', strategies: p.strategies, params: p.params, parallel: false }));
      setSendFailed(!sent);
      if (sent) setLaunches((prev) => ({ ...prev, [step.n]: launch }));
    },
    [send, state.experiments, state.error],
  );

  const connected = connection === 'connected';
  return (
    <>
      <LessonsNav current="backpressure">
        <ConnectionStatus connection={connection} />
      </LessonsNav>
      <main className="lessons-layout">
        <header className="lesson-intro">
          <h1>Push vs pull, step by step</h1>
          <p>
            Each step runs a small experiment on this server, in a fresh Node process, and draws two charts per run: memory, and how
            far the reader got ahead of the consumer. The conclusion under each step is computed from the figures of the run you just
            made{state.nodeVersion ? ` on Node ${state.nodeVersion}` : ''}, so when a run surprises, the text says so.
          </p>
          <p className="muted">
            The runs share the lab&apos;s queue with the dashboard: if someone else is running an experiment, a step waits for its turn.
            writableLength is not shown: the runs&apos; strategies do not expose a Writable to the sampler.
          </p>
          {sendFailed && (
            <p className="form-error" role="alert">
              Not connected to the server: the run was not sent. Wait for &quot;connected&quot; and try again.
            </p>
          )}
        </header>
        {LESSON_STEPS.map((step, i) => (
          <LessonStepCard key={step.n} step={step} progress={progress[i]} canRun={connected} samplesOf={samplesOf} procOf={procOf} onRun={run} />
        ))}
      </main>
    </>
  );
}
