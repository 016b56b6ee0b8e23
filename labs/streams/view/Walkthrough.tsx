'use client';

/** The guided push-vs-pull walkthrough: the streams lab's seven steps, each with its runs' memory and buffer-level charts. */
import { describeParams, LESSON_STEPS } from './steps';
import type { ProcSample, RunState, Sample } from '@/lib/protocol';
import { LessonRun } from './LessonRun';
import { useLessonSteps } from '../../../components/lessons/useLessonSteps';
import { WalkthroughPage } from '../../../components/lessons/WalkthroughPage';

/** The largest memory reading and the largest read-ahead of the step's runs. */
function sharedTops(runs: ReadonlyArray<{ samples: readonly Sample[]; proc: readonly ProcSample[] }>): { memoryTop: number; bufferTop: number } {
  let memoryTop = 0;
  let bufferTop = 0;
  for (const { samples, proc } of runs) {
    for (const s of samples) {
      memoryTop = Math.max(memoryTop, s.rss, s.heapUsed, s.arrayBuffers);
      bufferTop = Math.max(bufferTop, s.bytesRead - s.bytesProcessed, s.readableLength);
    }
    for (const p of proc) memoryTop = Math.max(memoryTop, p.rss);
  }
  return { memoryTop, bufferTop };
}

export function BackpressureWalkthrough() {
  const lesson = useLessonSteps(LESSON_STEPS);
  const { state, samplesOf, procOf } = lesson;
  const renderRuns = (runs: readonly RunState[]) => {
    // One y scale for the step's runs: side by side they must compare at a glance (a push run's
    // 30 MB and a pull run's 150 KB on their own scales looked equally high).
    const tops = sharedTops(runs.map((r) => ({ samples: samplesOf(r.id), proc: procOf(r.id) })));
    return runs.map((r) => <LessonRun key={r.id} run={r} samples={samplesOf(r.id)} proc={procOf(r.id)} {...tops} />);
  };
  return (
    <WalkthroughPage
      page="backpressure"
      title="Push vs pull, step by step"
      steps={LESSON_STEPS}
      lesson={lesson}
      describeParams={describeParams}
      renderRuns={renderRuns}
    >
      <p>
        Each step runs a small experiment on this server, in a fresh Node process, and draws two charts per run: memory, and how far the reader got ahead of the
        consumer. The conclusion under each step is computed from the figures of the run you just made{state.nodeVersion ? ` on Node ${state.nodeVersion}` : ''}
        , so when a run surprises, the text says so.
      </p>
      <p className="muted">
        The runs share the lab&apos;s queue with the dashboard: if someone else is running an experiment, a step waits for its turn. writableLength is not
        shown: the runs&apos; strategies do not expose a Writable to the sampler.
      </p>
    </WalkthroughPage>
  );
}
