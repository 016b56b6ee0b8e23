'use client';

/** One run inside a deadlines walkthrough step: its timer scatter once it ends, and the figures the step concludes from. */
import { memo } from 'react';
import type { RunState } from '@/lib/protocol';
import { LessonRunPanel } from '@/components/lessons/LessonRunPanel';
import { formatMs } from '@/lib/readouts/format';
import { coresText, outcomesText } from './verdict';
import { LatenessScatter } from './LatenessScatter';
import { spikeBand } from './series';
import { LAB_ID } from '../shared/id';

function DeadlineLessonRunImpl({ run }: { run: RunState }) {
  const s = run.summary?.lab === LAB_ID ? run.summary : null;
  const band = s ? spikeBand(s.params, s.scheduleStartMs) : null;
  const figures = s && {
    data: { 'lateness-max-ms': s.latenessMaxMs, 'spike-lateness-p99-ms': s.spikeLatenessP99Ms },
    items: [
      ['timers late: spike p99 / max', `${formatMs(s.spikeLatenessP99Ms)} / ${formatMs(s.latenessMaxMs)}`],
      ['answers', outcomesText(s)],
      ['slowest answer', formatMs(s.latencyMaxMs)],
      ['spike asked', s.spikeDemandCores === null ? '–' : `${coresText(s.spikeDemandCores)} (${formatMs(s.workMsPerObject)} an object)`],
    ] as Array<[string, string]>,
  };
  return (
    <LessonRunPanel run={run} figures={figures}>
      {s && s.lateness.length > 0 ? (
        <LatenessScatter points={s.lateness} band={band ? { ...band, label: 'spike' } : null} label={`Timers of the ${run.strategy} run`} />
      ) : (
        <p className="muted">The timer scatter appears when the run ends.</p>
      )}
    </LessonRunPanel>
  );
}

/** A run of a deadlines lesson step; re-renders only when its own state changes. */
export const DeadlineLessonRun = memo(DeadlineLessonRunImpl);
