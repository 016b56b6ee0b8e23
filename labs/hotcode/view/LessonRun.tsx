'use client';

/** One run inside a hot-code walkthrough step: its sweep chart once it ends, and the figures the step concludes from. */
import { memo } from 'react';
import type { RunState } from '@/lib/protocol';
import { formatMs } from '@/lib/readouts/format';
import { SweepChart } from './SweepChart';
import { StatusBadge } from '@/components/StatusBadge';

function HotcodeLessonRunImpl({ run }: { run: RunState }) {
  const s = run.summary?.lab === 'hotcode' ? run.summary : null;
  return (
    <section className="lesson-run" data-testid="lesson-run-panel" data-run-id={run.id} data-strategy={run.strategy} data-status={run.status} aria-label={`${run.strategy} run`}>
      <header className="lesson-run-header">
        <h4>{run.strategy}</h4>
        <StatusBadge status={run.status} />
      </header>
      {s?.params.sweep && <SweepChart summary={s} label={run.strategy} />}
      {s && (
        <dl className="lesson-figures" data-testid="lesson-run-result" data-strategy={s.strategy} data-outcome={s.outcome} data-report-ms={s.reportMsMin} data-exponent={s.sweepExponent}>
          <div>
            <dt>report</dt>
            <dd>{formatMs(s.reportMsMin)}</dd>
          </div>
          <div>
            <dt>/health max</dt>
            <dd>{formatMs(s.probeMaxMs)}</dd>
          </div>
        </dl>
      )}
    </section>
  );
}

/** A run of a hot-code lesson step; re-renders only when its own state changes. */
export const HotcodeLessonRun = memo(HotcodeLessonRunImpl);
