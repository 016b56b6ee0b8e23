'use client';

/** The guided HTTP walkthrough: three steps, each running HTTP lab experiments and concluding from their figures. */
import { ConnectionStatus } from '@/components/ConnectionStatus';
import { describeHttpParams, HTTP_LESSON_STEPS } from '@/lib/lessons/http-steps';
import type { RunState, Sample } from '@/lib/protocol';
import { HTTP_LESSON_SERIES, HttpLessonRun } from './HttpLessonRun';
import { LessonStepCard } from './LessonStepCard';
import { LessonsNav } from './LessonsNav';
import { useLessonSteps } from './useLessonSteps';

/** The largest value the step's memory charts show, so its runs share one scale. */
function memoryTop(samples: ReadonlyArray<readonly Sample[]>): number {
  let top = 0;
  for (const list of samples) for (const s of list) for (const key of HTTP_LESSON_SERIES) top = Math.max(top, s[key] ?? 0);
  return top;
}

export function HttpWalkthrough() {
  const { state, connection, progress, run, sendFailed, samplesOf } = useLessonSteps(HTTP_LESSON_STEPS);
  const renderRuns = (runs: readonly RunState[]) => {
    const top = memoryTop(runs.map((r) => samplesOf(r.id)));
    return runs.map((r) => <HttpLessonRun key={r.id} run={r} samples={samplesOf(r.id)} memoryTop={top} />);
  };
  return (
    <>
      <LessonsNav current="http">
        <ConnectionStatus connection={connection} />
      </LessonsNav>
      <main className="lessons-layout">
        <header className="lesson-intro">
          <h1>HTTP responses: buffered or streamed, step by step</h1>
          <p>
            Each step serves rows of a PostgreSQL table from a fresh Node server under load, and draws that server&apos;s heap, RSS and
            socket buffers. The conclusion under each step is computed from the figures of the runs you just made
            {state.nodeVersion ? ` on Node ${state.nodeVersion}` : ''}, so when a run surprises, the text says so.
          </p>
          <p className="muted">
            The runs share the lab&apos;s queue with the dashboard and go one at a time: each starts its own database and load generator.
          </p>
          {sendFailed && (
            <p className="form-error" role="alert">
              Not connected to the server: the run was not sent. Wait for &quot;connected&quot; and try again.
            </p>
          )}
        </header>
        {HTTP_LESSON_STEPS.map((step, i) => (
          <LessonStepCard
            key={step.n}
            step={step}
            progress={progress[i]}
            canRun={connection === 'connected'}
            presetText={step.presets.map((p) => `${p.strategies.join(' + ')}: ${describeHttpParams(p.params)}`).join(' · then ')}
            renderRuns={renderRuns}
            onRun={run}
          />
        ))}
      </main>
    </>
  );
}
