'use client';

/** One run inside a CPU walkthrough step: its request timeline once it ends, and the figures the step concludes from. */
import { memo } from 'react';
import type { RunState } from '@/lib/protocol';
import { speedupText } from './verdict';
import { formatMb, formatMs, formatSeconds } from '@/lib/readouts/format';
import { RequestTimeline } from './RequestTimeline';
import { StatusBadge } from '@/components/StatusBadge';

function CpuLessonRunImpl({ run }: { run: RunState }) {
  const s = run.summary?.lab === 'cpu' ? run.summary : null;
  return (
    <section className="lesson-run" data-testid="lesson-run-panel" data-run-id={run.id} data-strategy={run.strategy} data-status={run.status} aria-label={`${run.strategy} run`}>
      <header className="lesson-run-header">
        <h4>{run.strategy}</h4>
        <StatusBadge status={run.status} />
      </header>
      {s && s.timeline.length > 0 ? <RequestTimeline bars={s.timeline} label={`Requests of the ${run.strategy} run`} /> : <p className="muted">The request timeline appears when the run ends.</p>}
      {s && (
        <dl className="lesson-figures" data-testid="lesson-run-result" data-strategy={s.strategy} data-outcome={s.outcome} data-makespan-ms={s.makespanMs} data-listeners={s.peakMessageListeners}>
          <div>
            <dt>makespan</dt>
            <dd>{formatSeconds(s.makespanMs)}</dd>
          </div>
          <div>
            <dt>speed-up</dt>
            <dd>{speedupText(s)}</dd>
          </div>
          <div>
            <dt>worker start p50</dt>
            <dd>{formatMs(s.spawnP50Ms)}</dd>
          </div>
          <div>
            <dt>tree RSS / processes</dt>
            <dd>
              {formatMb(s.peakTreeRss)} / {s.peakProcesses}
            </dd>
          </div>
          <div>
            <dt>listeners</dt>
            <dd>{s.peakMessageListeners}</dd>
          </div>
        </dl>
      )}
    </section>
  );
}

/** A run of a CPU lesson step; re-renders only when its own state changes. */
export const CpuLessonRun = memo(CpuLessonRunImpl);
