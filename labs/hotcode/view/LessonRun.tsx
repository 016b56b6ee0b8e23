'use client';

/** One run inside a hot-code walkthrough step: its sweep chart once it ends, and the figures the step concludes from. */
import { memo } from 'react';
import type { RunState } from '@/lib/protocol';
import { LessonRunPanel } from '@/components/lessons/LessonRunPanel';
import { formatMs } from '@/lib/readouts/format';
import { SweepChart } from './SweepChart';
import { LAB_ID } from '../shared/id';

function HotcodeLessonRunImpl({ run }: { run: RunState }) {
  const s = run.summary?.lab === LAB_ID ? run.summary : null;
  const figures = s && {
    data: { 'report-ms': s.reportMsMin, exponent: s.sweepExponent },
    items: [
      ['report', formatMs(s.reportMsMin)],
      ['/health max', s.probes > 0 ? formatMs(s.probeMaxMs) : 'not probed'],
    ] as Array<[string, string]>,
  };
  return (
    <LessonRunPanel run={run} figures={figures}>
      {s?.params.sweep && <SweepChart summary={s} label={run.strategy} />}
    </LessonRunPanel>
  );
}

/** A run of a hot-code lesson step; re-renders only when its own state changes. */
export const HotcodeLessonRun = memo(HotcodeLessonRunImpl);
