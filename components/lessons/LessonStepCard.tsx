'use client';

/** One walkthrough step: its text, a Run button, live charts of its runs and the measured conclusion. */
import { describeParams, type LessonStep } from '@/lib/lessons/steps';
import type { ProcSample, Sample } from '@/lib/protocol';
import { LessonRun } from './LessonRun';
import type { StepProgress } from './step-progress';

export interface LessonStepCardProps {
  step: LessonStep;
  progress: StepProgress;
  canRun: boolean;
  samplesOf(runId: string): readonly Sample[];
  procOf(runId: string): readonly ProcSample[];
  onRun(step: LessonStep): void;
}

/** "rxjs-from + pipeline-generator: 32 MB file, 64 KB chunks, 2 ms per chunk", one preset after another. */
function presetText(step: LessonStep): string {
  return step.presets.map((p) => `${p.strategies.join(' + ')}: ${describeParams(p.params)}`).join(' · then ');
}

export function LessonStepCard({ step, progress, canRun, samplesOf, procOf, onRun }: LessonStepCardProps) {
  const { status, runs, conclusion, error } = progress;
  const headingId = `lesson-step-${step.n}-title`;
  // One y scale for the step's runs: side by side they must compare at a glance (a push run's
  // 30 MB and a pull run's 150 KB on their own scales looked equally high).
  const tops = sharedTops(runs.map((r) => ({ samples: samplesOf(r.id), proc: procOf(r.id) })));
  return (
    <section className="lesson-step panel" data-testid="lesson-step" data-step={step.n} data-status={status} aria-labelledby={headingId}>
      <header className="lesson-step-header">
        <span className="lesson-step-number" aria-hidden="true">
          {step.n}
        </span>
        <h2 id={headingId}>{step.title}</h2>
      </header>
      {step.paragraphs.map((p) => (
        <p key={p.slice(0, 40)} className="lesson-text">
          {p}
        </p>
      ))}
      <div className="lesson-controls">
        <button type="button" className="primary" data-testid="lesson-run" disabled={!canRun || status === 'running'} onClick={() => onRun(step)}>
          {status === 'running' ? 'Running…' : status === 'done' ? 'Run again' : 'Run'}
        </button>
        <span className="muted lesson-preset">{presetText(step)}</span>
      </div>
      {error && (
        <p className="form-error" role="alert">
          The server refused the run: {error}
        </p>
      )}
      {runs.length > 0 && (
        <>
          <p className="lesson-watch">
            <strong>What to look at:</strong> {step.watch}
          </p>
          <div className="lesson-runs">
            {runs.map((run) => (
              <LessonRun key={run.id} run={run} samples={samplesOf(run.id)} proc={procOf(run.id)} {...tops} />
            ))}
          </div>
        </>
      )}
      <p
        className={`lesson-conclusion${conclusion ? (conclusion.asExpected ? ' expected' : ' surprise') : ''}`}
        data-testid="lesson-conclusion"
        data-expected={conclusion ? String(conclusion.asExpected) : undefined}
        aria-live="polite"
      >
        {conclusion ? (
          <>
            {conclusion.asExpected && <strong>What this run shows: </strong>}
            {conclusion.text}
          </>
        ) : status === 'running' ? (
          'Running: the conclusion is computed from the figures once every run has ended.'
        ) : (
          'Press Run: the conclusion here is computed from the run you make, not written in advance.'
        )}
      </p>
    </section>
  );
}

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
