'use client';

/** The guided CPU walkthrough: four steps, each running CPU lab experiments and concluding from their figures. */
import { CPU_LESSON_STEPS, describeCpuParams } from './steps';
import type { RunState } from '@/lib/protocol';
import { CpuLessonRun } from './LessonRun';
import { useLessonSteps } from '../../../components/lessons/useLessonSteps';
import { WalkthroughPage } from '../../../components/lessons/WalkthroughPage';
import { LAB_ID } from '../shared/id';

export function CpuWalkthrough() {
  const lesson = useLessonSteps(CPU_LESSON_STEPS);
  const { state } = lesson;
  // Each run with its strategy's role from the catalog: the one-thread baseline's speed-up reads "baseline".
  const roleOf = (r: RunState) => state.strategies.find((s) => s.lab === r.lab && s.id === r.strategy)?.role ?? null;
  const renderRuns = (runs: readonly RunState[]) => runs.map((r) => <CpuLessonRun key={r.id} run={r} role={roleOf(r)} />);
  return (
    <WalkthroughPage
      page={LAB_ID}
      title="CPU-bound requests: one thread, processes, threads, pools"
      steps={CPU_LESSON_STEPS}
      lesson={lesson}
      describeParams={describeCpuParams}
      renderRuns={renderRuns}
    >
      <p>
        Each step starts a fresh Node server that computes a recursive Fibonacci per request, sends it requests from a separate load process, and draws one bar
        per request, coloured by the process or thread that answered it. The conclusion under each step is computed from the runs you just made
        {state.nodeVersion ? ` on Node ${state.nodeVersion}` : ''}, so when a run surprises, the text says so.
      </p>
      <p className="muted">The runs share the lab&apos;s queue with the dashboard and go one at a time: each needs every core.</p>
    </WalkthroughPage>
  );
}
