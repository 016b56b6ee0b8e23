'use client';

/** The guided hot-code walkthrough: three steps, each running hot-code lab experiments and concluding from their figures. */
import { describeHotcodeParams, HOTCODE_LESSON_STEPS } from './steps';
import type { RunState } from '@/lib/protocol';
import { HotcodeLessonRun } from './LessonRun';
import { useLessonSteps } from '../../../components/lessons/useLessonSteps';
import { WalkthroughPage } from '../../../components/lessons/WalkthroughPage';
import { LAB_ID } from '../shared/id';

/** The first step's experiment as an embeddable page (docs/embedding.md). */
export const HOTCODE_EMBED_PATH = `/embed/experiment?lab=${LAB_ID}&strategies=report-slow,report-fixed&rows=10000&requests=1`;

export function HotcodeWalkthrough() {
  const lesson = useLessonSteps(HOTCODE_LESSON_STEPS);
  const { state } = lesson;
  const renderRuns = (runs: readonly RunState[]) => runs.map((r) => <HotcodeLessonRun key={r.id} run={r} />);
  return (
    <WalkthroughPage
      page={LAB_ID}
      title="Hot code: find it in a profile, fix it, see the server answer again"
      steps={HOTCODE_LESSON_STEPS}
      lesson={lesson}
      describeParams={describeHotcodeParams}
      renderRuns={renderRuns}
    >
      <p>
        A report endpoint took 200 s, 185 s of it synchronous: two lines, <code>toLocaleString</code> with a time zone and a <code>groupBy</code> that spreads
        its array on every row. Each step starts a fresh Node server that computes the report in its request handler while a separate load process probes{' '}
        <code>/health</code> every 100 ms. The conclusions are computed from the runs you just made{state.nodeVersion ? ` on Node ${state.nodeVersion}` : ''}.
      </p>
      <p className="muted">
        Embed the first step’s experiment in training material: <code>{HOTCODE_EMBED_PATH}</code> (<a href={HOTCODE_EMBED_PATH}>open it</a>).
      </p>
    </WalkthroughPage>
  );
}
