'use client';

/**
 * The frame every guided walkthrough shares: the lessons' header with the connection, the
 * intro (each walkthrough's own words), the "not sent" alert, and one card per step. Each
 * walkthrough keeps what is its own: the intro, and how a step's runs are drawn.
 */
import type { ReactNode } from 'react';
import { ConnectionStatus } from '@/components/ConnectionStatus';
import type { LabId, ParamsOfLab } from '@/lib/labs';
import type { LessonStep } from '@/lib/lessons/lesson';
import type { RunState } from '@/lib/protocol';
import { LessonStepCard } from './LessonStepCard';
import { LessonsNav, type LessonPage } from './LessonsNav';
import type { LessonSteps } from './useLessonSteps';

export interface WalkthroughPageProps<L extends LabId> {
  page: LessonPage;
  title: string;
  steps: readonly LessonStep<L>[];
  /** What useLessonSteps(steps) returned. */
  lesson: LessonSteps<L>;
  /** A preset's params in words ("fib(37), 4 requests"). */
  describeParams(params: ParamsOfLab[L]): string;
  renderRuns(runs: readonly RunState[]): ReactNode;
  /** The intro under the title. */
  children: ReactNode;
}

export function WalkthroughPage<L extends LabId>({ page, title, steps, lesson, describeParams, renderRuns, children }: WalkthroughPageProps<L>) {
  const { connection, progress, run, sendFailed } = lesson;
  return (
    <>
      <LessonsNav current={page}>
        <ConnectionStatus connection={connection} />
      </LessonsNav>
      <main className="lessons-layout">
        <header className="lesson-intro">
          <h1>{title}</h1>
          {children}
          {sendFailed && (
            <p className="form-error" role="alert">
              Not connected to the server: the run was not sent. Wait for &quot;connected&quot; and try again.
            </p>
          )}
        </header>
        {steps.map((step, i) => (
          <LessonStepCard
            key={step.n}
            step={step}
            progress={progress[i]}
            canRun={connection === 'connected'}
            presetText={step.presets.map((p) => `${p.strategies.join(' + ')}: ${describeParams(p.params)}`).join(' · then ')}
            renderRuns={renderRuns}
            onRun={run}
          />
        ))}
      </main>
    </>
  );
}
