'use client';

/** One run inside a CPU walkthrough step: its request timeline once it ends, and the figures the step concludes from. */
import { memo } from 'react';
import type { RunState } from '@/lib/protocol';
import { LessonRunPanel } from '@/components/lessons/LessonRunPanel';
import { formatMb, formatMs, formatSeconds } from '@/lib/readouts/format';
import { speedupFigureText } from './verdict';
import { RequestTimeline } from './RequestTimeline';
import { LAB_ID } from '../shared/id';

function CpuLessonRunImpl({ run, role }: { run: RunState; role: string | null }) {
  const s = run.summary?.lab === LAB_ID ? run.summary : null;
  const figures = s && {
    // Not measured: no data attribute rather than a 0.
    data: { ...(s.makespanMs !== null && { 'makespan-ms': s.makespanMs }), listeners: s.peakMessageListeners },
    items: [
      ['makespan', s.makespanMs === null ? '–' : formatSeconds(s.makespanMs)],
      ['speed-up', speedupFigureText(s, role)],
      ['worker start p50', formatMs(s.spawnP50Ms)],
      ['tree RSS / processes', `${formatMb(s.peakTreeRss)} / ${s.peakProcesses}`],
      ['listeners', String(s.peakMessageListeners)],
    ] as Array<[string, string]>,
  };
  return (
    <LessonRunPanel run={run} figures={figures}>
      {s && s.timeline.length > 0 ? (
        <RequestTimeline bars={s.timeline} label={`Requests of the ${run.strategy} run`} />
      ) : (
        <p className="muted">The request timeline appears when the run ends.</p>
      )}
    </LessonRunPanel>
  );
}

/** A run of a CPU lesson step; re-renders only when its own state changes. */
export const CpuLessonRun = memo(CpuLessonRunImpl);
