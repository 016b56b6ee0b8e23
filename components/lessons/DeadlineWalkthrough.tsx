'use client';

/** The guided deadlines walkthrough: two steps, each running deadlines lab experiments and concluding from their figures. */
import { ConnectionStatus } from '@/components/ConnectionStatus';
import { DEADLINE_LESSON_STEPS, describeDeadlineParams } from '@/lib/lessons/deadline-steps';
import type { RunState } from '@/lib/protocol';
import { DeadlineLessonRun } from './DeadlineLessonRun';
import { LessonStepCard } from './LessonStepCard';
import { LessonsNav } from './LessonsNav';
import { deadlineEmbedHref } from '@/lib/lessons/deadline-embed';
import { useLessonSteps } from './useLessonSteps';

const EMBED_HREF = deadlineEmbedHref();

export function DeadlineWalkthrough() {
  const { state, connection, progress, run, sendFailed } = useLessonSteps(DEADLINE_LESSON_STEPS);
  const renderRuns = (runs: readonly RunState[]) => runs.map((r) => <DeadlineLessonRun key={r.id} run={r} />);
  return (
    <>
      <LessonsNav current="deadline">
        <ConnectionStatus connection={connection} />
      </LessonsNav>
      <main className="lessons-layout">
        <header className="lesson-intro">
          <h1>Deadlines under a traffic spike</h1>
          <p>
            Each step starts three processes: a mock object store, the service under test (it fetches K objects per request, parses each,
            and has a deadline timer per request), and a load generator that sends requests on schedule whether or not earlier ones were
            answered. The service&apos;s timers are measured from the service itself: how much later than due each one fired. The conclusion
            under each step is computed from the runs you just made{state.nodeVersion ? ` on Node ${state.nodeVersion}` : ''}, so when a run
            surprises, the text says so.
          </p>
          <p className="muted">
            The runs share the lab&apos;s queue with the dashboard and go one at a time. To put this experiment in another page, embed{' '}
            <a href={EMBED_HREF} data-testid="deadline-embed-link">
              <code>/embed/experiment?lab=deadline…</code>
            </a>{' '}
            in an iframe (docs/embedding.md).
          </p>
          {sendFailed && (
            <p className="form-error" role="alert">
              Not connected to the server: the run was not sent. Wait for &quot;connected&quot; and try again.
            </p>
          )}
        </header>
        {DEADLINE_LESSON_STEPS.map((step, i) => (
          <LessonStepCard
            key={step.n}
            step={step}
            progress={progress[i]}
            canRun={connection === 'connected'}
            presetText={step.presets.map((p) => `${p.strategies.join(' + ')}: ${describeDeadlineParams(p.params)}`).join(' · then ')}
            renderRuns={renderRuns}
            onRun={run}
          />
        ))}
      </main>
    </>
  );
}
