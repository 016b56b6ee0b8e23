'use client';

/** The guided deadlines walkthrough: two steps, each running deadlines lab experiments and concluding from their figures. */
import { DEADLINE_LESSON_STEPS, describeDeadlineParams } from './steps';
import type { RunState } from '@/lib/protocol';
import { DeadlineLessonRun } from './LessonRun';
import { deadlineEmbedHref } from './embed';
import { useLessonSteps } from '../../../components/lessons/useLessonSteps';
import { WalkthroughPage } from '../../../components/lessons/WalkthroughPage';
import { LAB_ID } from '../shared/id';

const EMBED_HREF = deadlineEmbedHref();

export function DeadlineWalkthrough() {
  const lesson = useLessonSteps(DEADLINE_LESSON_STEPS);
  const { state } = lesson;
  const renderRuns = (runs: readonly RunState[]) => runs.map((r) => <DeadlineLessonRun key={r.id} run={r} />);
  return (
    <WalkthroughPage
      page={LAB_ID}
      title="Deadlines under a traffic spike"
      steps={DEADLINE_LESSON_STEPS}
      lesson={lesson}
      describeParams={describeDeadlineParams}
      renderRuns={renderRuns}
    >
      <p>
        Each step starts three processes: a mock object store, the service under test (it fetches K objects per request, parses each, and has a deadline timer
        per request), and a load generator that sends requests on schedule whether or not earlier ones were answered. The service&apos;s timers are measured
        from the service itself: how much later than due each one fired. The conclusion under each step is computed from the runs you just made
        {state.nodeVersion ? ` on Node ${state.nodeVersion}` : ''}, so when a run surprises, the text says so.
      </p>
      <p className="muted">
        The runs share the lab&apos;s queue with the dashboard and go one at a time. To put this experiment in another page, embed{' '}
        <a href={EMBED_HREF} data-testid="deadline-embed-link">
          <code>/embed/experiment?lab={LAB_ID}…</code>
        </a>{' '}
        in an iframe (docs/embedding.md).
      </p>
    </WalkthroughPage>
  );
}
