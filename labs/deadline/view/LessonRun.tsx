'use client';

/** One run inside a deadlines walkthrough step: its timer scatter once it ends, and the figures the step concludes from. */
import { memo } from 'react';
import type { RunState } from '@/lib/protocol';
import { coresText, outcomesText } from './verdict';
import { formatMs } from '@/lib/readouts/format';
import { LatenessScatter } from './LatenessScatter';
import { spikeBand } from './series';
import { StatusBadge } from '@/components/StatusBadge';

function DeadlineLessonRunImpl({ run }: { run: RunState }) {
  const s = run.summary?.lab === 'deadline' ? run.summary : null;
  const band = s ? spikeBand(s.params, s.scheduleStartMs) : null;
  return (
    <section className="lesson-run" data-testid="lesson-run-panel" data-run-id={run.id} data-strategy={run.strategy} data-status={run.status} aria-label={`${run.strategy} run`}>
      <header className="lesson-run-header">
        <h4>{run.strategy}</h4>
        <StatusBadge status={run.status} />
      </header>
      {s && s.lateness.length > 0 ? (
        <LatenessScatter points={s.lateness} band={band ? { ...band, label: 'spike' } : null} label={`Timers of the ${run.strategy} run`} />
      ) : (
        <p className="muted">The timer scatter appears when the run ends.</p>
      )}
      {s && (
        <dl className="lesson-figures" data-testid="lesson-run-result" data-strategy={s.strategy} data-outcome={s.outcome} data-lateness-max-ms={s.latenessMaxMs} data-spike-lateness-p99-ms={s.spikeLatenessP99Ms}>
          <div>
            <dt>timers late: spike p99 / max</dt>
            <dd>
              {formatMs(s.spikeLatenessP99Ms)} / {formatMs(s.latenessMaxMs)}
            </dd>
          </div>
          <div>
            <dt>answers</dt>
            <dd>{outcomesText(s)}</dd>
          </div>
          <div>
            <dt>slowest answer</dt>
            <dd>{formatMs(s.latencyMaxMs)}</dd>
          </div>
          <div>
            <dt>spike asked</dt>
            <dd>
              {coresText(s.spikeDemandCores)} ({formatMs(s.workMsPerObject)} an object)
            </dd>
          </div>
        </dl>
      )}
    </section>
  );
}

/** A run of a deadlines lesson step; re-renders only when its own state changes. */
export const DeadlineLessonRun = memo(DeadlineLessonRunImpl);
