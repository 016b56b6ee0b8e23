'use client';

/** The guided HTTP walkthrough: three steps, each running HTTP lab experiments and concluding from their figures. */
import { describeHttpParams, HTTP_LESSON_STEPS } from './steps';
import type { RunState, Sample } from '@/lib/protocol';
import { HTTP_LESSON_SERIES, HttpLessonRun } from './LessonRun';
import { useLessonSteps } from '../../../components/lessons/useLessonSteps';
import { WalkthroughPage } from '../../../components/lessons/WalkthroughPage';
import { LAB_ID } from '../shared/id';

/** The largest value the step's memory charts show, so its runs share one scale. */
function memoryTop(samples: ReadonlyArray<readonly Sample[]>): number {
  let top = 0;
  for (const list of samples) for (const s of list) for (const key of HTTP_LESSON_SERIES) top = Math.max(top, s[key] ?? 0);
  return top;
}

export function HttpWalkthrough() {
  const lesson = useLessonSteps(HTTP_LESSON_STEPS);
  const { state, samplesOf } = lesson;
  const renderRuns = (runs: readonly RunState[]) => {
    const top = memoryTop(runs.map((r) => samplesOf(r.id)));
    return runs.map((r) => <HttpLessonRun key={r.id} run={r} samples={samplesOf(r.id)} memoryTop={top} />);
  };
  return (
    <WalkthroughPage
      page={LAB_ID}
      title="HTTP responses: buffered or streamed, step by step"
      steps={HTTP_LESSON_STEPS}
      lesson={lesson}
      describeParams={describeHttpParams}
      renderRuns={renderRuns}
    >
      <p>
        Each step serves rows of a PostgreSQL table from a fresh Node server under load, and draws that server&apos;s heap, RSS and socket buffers. The
        conclusion under each step is computed from the figures of the runs you just made
        {state.nodeVersion ? ` on Node ${state.nodeVersion}` : ''}, so when a run surprises, the text says so.
      </p>
      <p className="muted">The runs share the lab&apos;s queue with the dashboard and go one at a time: each starts its own database and load generator.</p>
    </WalkthroughPage>
  );
}
