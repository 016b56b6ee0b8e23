'use client';

/** One run inside a walkthrough step: its memory and buffer-level charts and its measured figures. */
import { memo, useMemo } from 'react';
import { summaryOfLab, type ProcSample, type RunState, type Sample } from '@/lib/protocol';
import { requireParamsOfLab } from '@/lib/labs';
import type { StreamsParams } from '../shared/params';
import { MIB } from '@/lib/protocol/params';
import { formatMb } from '@/lib/readouts/format';
import { MemoryChart, type ChartSeries } from '@/components/charts/MemoryChart';
import { memorySeries } from '@/components/charts/series';
import { LessonRunPanel } from '@/components/lessons/LessonRunPanel';
import { BufferLevelChart } from './BufferLevelChart';
import { LAB_ID } from '../shared/id';
import { peakRssOf } from '@/lib/readouts/outcome-text';

export interface LessonRunProps {
  run: RunState;
  samples: readonly Sample[];
  proc: readonly ProcSample[];
  /** Shared tops of the step's memory and buffer charts, so its runs compare at a glance. */
  memoryTop?: number;
  bufferTop?: number;
}

const POINTS_PER_SERIES = 200;

/**
 * The RSS budget to draw on a run's memory chart, or null: only a budget near the run's size (the
 * budget lesson's, or a user's tight one); the default 1 GB would flatten the chart.
 */
export function shownBudgetMb(params: StreamsParams): number | null {
  const b = params.budgetMb;
  return b !== null && b * MIB < 4 * params.sizeMb * MIB ? b : null;
}

/** rss, heapUsed and arrayBuffers, plus the /proc RSS and the budget line when the step sets a tight budget. */
function lessonSeries(params: StreamsParams, samples: readonly Sample[], proc: readonly ProcSample[]): ChartSeries[] {
  const series = memorySeries(samples, ['rss', 'heapUsed', 'arrayBuffers']);
  const budgetMb = shownBudgetMb(params);
  if (budgetMb !== null) {
    // The budget is enforced on the RSS read from /proc as well, which sees a blocked child.
    series.push({ id: 'proc-rss', label: 'rss from /proc', color: '#56B4E9', points: proc.map((p) => ({ x: p.t, y: p.rss })) });
    const lastT = Math.max(samples.at(-1)?.t ?? 0, proc.at(-1)?.t ?? 0);
    series.push({
      id: 'budget',
      label: `budget (${budgetMb} MB)`,
      color: '#000000',
      dashed: true,
      points: [
        { x: 0, y: budgetMb * MIB },
        { x: lastT, y: budgetMb * MIB },
      ],
    });
  }
  return series;
}

function LessonRunImpl({ run, samples, proc, memoryTop = 0, bufferTop = 0 }: LessonRunProps) {
  // The push-vs-pull walkthrough runs streams experiments only.
  const params = requireParamsOfLab(run, LAB_ID);
  const series = useMemo(() => lessonSeries(params, samples, proc), [params, samples, proc]);
  const s = run.summary && summaryOfLab(run.summary, LAB_ID);
  // A step that runs one strategy at two concurrencies (step 7) tells them apart by the knob.
  const calls = params.consumer && params.consumer !== 'sleep' ? ` (${params.concurrency ?? 1} in flight)` : '';
  const name = `${run.strategy}${run.params.retained ? ' (retained)' : ''}${calls}`;
  const figures = s && {
    data: {
      retained: String(s.params.retained),
      'file-bytes': s.fileBytes,
      'bytes-processed': s.bytesProcessed,
      'peak-array-buffers': s.peak?.arrayBuffers ?? '',
      'above-idle-array-buffers': s.aboveIdle?.arrayBuffers ?? '',
      'above-idle-heap-used': s.aboveIdle?.heapUsed ?? '',
      'peak-buffered': s.peakBufferedBytes,
      'peak-rss': peakRssOf(s) ?? '',
      concurrency: s.params.concurrency ?? 1,
      'records-per-sec': s.recordsPerSec ?? '',
      'peak-in-flight': s.peakInFlight,
    },
    items: [
      ['processed', `${formatMb(s.bytesProcessed)} of ${formatMb(s.fileBytes)}`],
      ['peak arrayBuffers', formatMb(s.peak?.arrayBuffers ?? null)],
      ['most read ahead', formatMb(s.peakBufferedBytes)],
      ['peak RSS', formatMb(peakRssOf(s))],
      ...(s.recordsPerSec === undefined || s.recordsPerSec === null ? [] : [['records/s', Math.round(s.recordsPerSec).toLocaleString('en-US')]]),
      ...(calls ? [['calls in flight', `at most ${s.peakInFlight}`]] : []),
    ] as Array<[string, string]>,
  };
  return (
    <LessonRunPanel run={run} figures={figures} name={name}>
      <MemoryChart
        label={`Memory of ${name}, MB over seconds`}
        series={series}
        sampleCount={samples.length}
        height={150}
        maxPointsPerSeries={POINTS_PER_SERIES}
        yAtLeast={memoryTop}
      />
      <BufferLevelChart label={`How far ${name} read ahead of its consumer`} samples={samples} chunkKb={params.chunkKb} yAtLeast={bufferTop} />
    </LessonRunPanel>
  );
}

/** A run of a lesson step; re-renders only when its own state or samples change. */
export const LessonRun = memo(LessonRunImpl);
