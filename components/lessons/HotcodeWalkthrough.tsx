'use client';

/** The guided hot-code walkthrough: three steps, each running hot-code lab experiments and concluding from their figures. */
import { ConnectionStatus } from '@/components/ConnectionStatus';
import { describeHotcodeParams, HOTCODE_LESSON_STEPS } from '@/lib/lessons/hotcode-steps';
import type { RunState } from '@/lib/protocol';
import { HotcodeLessonRun } from './HotcodeLessonRun';
import { LessonStepCard } from './LessonStepCard';
import { LessonsNav } from './LessonsNav';
import { useLessonSteps } from './useLessonSteps';

/** The first step's experiment as an embeddable page (docs/embedding.md). */
export const HOTCODE_EMBED_PATH = '/embed/experiment?lab=hotcode&strategies=report-slow,report-fixed&rows=10000&requests=1';

export function HotcodeWalkthrough() {
  const { state, connection, progress, run, sendFailed } = useLessonSteps(HOTCODE_LESSON_STEPS);
  const renderRuns = (runs: readonly RunState[]) => runs.map((r) => <HotcodeLessonRun key={r.id} run={r} />);
  return (
    <>
      <LessonsNav current="hotcode">
        <ConnectionStatus connection={connection} />
      </LessonsNav>
      <main className="lessons-layout">
        <header className="lesson-intro">
          <h1>Hot code: find it in a profile, fix it, see the server answer again</h1>
          <p>
            A report endpoint took 200 s, 185 s of it synchronous: two lines, <code>toLocaleString</code> with a time zone and a{' '}
            <code>groupBy</code> that spreads its array on every row. Each step starts a fresh Node server that computes the report in its
            request handler while a separate load process probes <code>/health</code> every 100 ms. The conclusions are computed from the
            runs you just made{state.nodeVersion ? ` on Node ${state.nodeVersion}` : ''}.
          </p>
          <p className="muted">
            Embed the first step’s experiment in training material: <code>{HOTCODE_EMBED_PATH}</code> (<a href={HOTCODE_EMBED_PATH}>open it</a>).
          </p>
          {sendFailed && (
            <p className="form-error" role="alert">
              Not connected to the server: the run was not sent. Wait for &quot;connected&quot; and try again.
            </p>
          )}
        </header>
        {HOTCODE_LESSON_STEPS.map((step, i) => (
          <LessonStepCard
            key={step.n}
            step={step}
            progress={progress[i]}
            canRun={connection === 'connected'}
            presetText={step.presets.map((p) => `${p.strategies.join(' + ')}: ${describeHotcodeParams(p.params)}`).join(' · then ')}
            renderRuns={renderRuns}
            onRun={run}
          />
        ))}
      </main>
    </>
  );
}
