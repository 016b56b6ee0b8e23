'use client';

/** The guided CPU walkthrough: four steps, each running CPU lab experiments and concluding from their figures. */
import { ConnectionStatus } from '@/components/ConnectionStatus';
import { CPU_LESSON_STEPS, describeCpuParams } from '@/lib/lessons/cpu-steps';
import type { RunState } from '@/lib/protocol';
import { CpuLessonRun } from './CpuLessonRun';
import { LessonStepCard } from './LessonStepCard';
import { LessonsNav } from './LessonsNav';
import { useLessonSteps } from './useLessonSteps';

export function CpuWalkthrough() {
  const { state, connection, progress, run, sendFailed } = useLessonSteps(CPU_LESSON_STEPS);
  const renderRuns = (runs: readonly RunState[]) => runs.map((r) => <CpuLessonRun key={r.id} run={r} />);
  return (
    <>
      <LessonsNav current="cpu">
        <ConnectionStatus connection={connection} />
      </LessonsNav>
      <main className="lessons-layout">
        <header className="lesson-intro">
          <h1>CPU-bound requests: one thread, processes, threads, pools</h1>
          <p>
            Each step starts a fresh Node server that computes a recursive Fibonacci per request, sends it requests from a separate load
            process, and draws one bar per request, coloured by the process or thread that answered it. The conclusion under each step is
            computed from the runs you just made{state.nodeVersion ? ` on Node ${state.nodeVersion}` : ''}, so when a run surprises, the text
            says so.
          </p>
          <p className="muted">The runs share the lab&apos;s queue with the dashboard and go one at a time: each needs every core.</p>
          {sendFailed && (
            <p className="form-error" role="alert">
              Not connected to the server: the run was not sent. Wait for &quot;connected&quot; and try again.
            </p>
          )}
        </header>
        {CPU_LESSON_STEPS.map((step, i) => (
          <LessonStepCard
            key={step.n}
            step={step}
            progress={progress[i]}
            canRun={connection === 'connected'}
            presetText={step.presets.map((p) => `${p.strategies.join(' + ')}: ${describeCpuParams(p.params)}`).join(' · then ')}
            renderRuns={renderRuns}
            onRun={run}
          />
        ))}
      </main>
    </>
  );
}
