'use client';

/** One walkthrough step of any lab: its text, a Run button, its runs as the lab draws them, and the measured conclusion. */
import type { ReactNode } from 'react';
import type { LabId } from '@/lib/labs';
import type { LessonStep } from '@/lib/lessons/lesson';
import type { RunState } from '@/lib/protocol';
import type { StepProgress } from './step-progress';

export interface LessonStepCardProps<L extends LabId> {
  step: LessonStep<L>;
  progress: StepProgress;
  canRun: boolean;
  /** "rxjs-from + pipeline-generator: 32 MB file, 64 KB chunks, 2 ms per chunk", one preset after another. */
  presetText: string;
  /** The step's runs, drawn the lab's way. */
  renderRuns(runs: readonly RunState[]): ReactNode;
  onRun(step: LessonStep<L>): void;
}

export function LessonStepCard<L extends LabId>({ step, progress, canRun, presetText, renderRuns, onRun }: LessonStepCardProps<L>) {
  const { status, runs, conclusion, error } = progress;
  const headingId = `lesson-step-${step.n}-title`;
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
        <span className="muted lesson-preset">{presetText}</span>
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
          <div className="lesson-runs">{renderRuns(runs)}</div>
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
