'use client';

/** One run inside an HTTP walkthrough step: the server's heap, RSS and socket buffers, and its measured figures. */
import { memo, useMemo } from 'react';
import type { RunState, Sample } from '@/lib/protocol';
import { formatMb, formatMs } from '@/lib/readouts/format';
import { MemoryChart } from '@/components/charts/MemoryChart';
import { specSeries } from '@/components/charts/series';
import { HTTP_MEMORY_SERIES } from './series';
import { LessonRunPanel } from '@/components/lessons/LessonRunPanel';
import { LAB_ID } from '../shared/id';

export interface HttpLessonRunProps {
  run: RunState;
  samples: readonly Sample[];
  /** Shared top of the step's memory charts, so its runs compare at a glance. */
  memoryTop?: number;
}

/** What the step's charts show: heapUsed (where the rows live), RSS, and the bytes queued in sockets. */
export const HTTP_LESSON_SERIES = ['heapUsed', 'rss', 'writableBytes'];
const POINTS_PER_SERIES = 200;

function HttpLessonRunImpl({ run, samples, memoryTop = 0 }: HttpLessonRunProps) {
  const series = useMemo(() => specSeries(HTTP_MEMORY_SERIES, samples).filter((s) => HTTP_LESSON_SERIES.includes(s.id)), [samples]);
  const s = run.summary?.lab === LAB_ID ? run.summary : null;
  const figures = s && {
    data: {
      'peak-heap-used': s.peak?.heapUsed ?? '',
      'peak-writable-bytes': s.peakWritableBytes,
      // Empty when not measured, as the heap's.
      'latency-p50-ms': s.latencyP50Ms ?? '',
      'ttfb-p50-ms': s.ttfbP50Ms ?? '',
      'responses-ok': s.responsesOk,
    },
    items: [
      ['responses right', `${s.responsesOk} of ${s.requestsPlanned}`],
      ['peak heapUsed', formatMb(s.peak?.heapUsed ?? null)],
      ['socket buffers', formatMb(s.peakWritableBytes)],
      ['p50 latency / first byte', `${formatMs(s.latencyP50Ms)} / ${formatMs(s.ttfbP50Ms)}`],
    ] as Array<[string, string]>,
  };
  return (
    <LessonRunPanel run={run} figures={figures}>
      <MemoryChart
        label={`Memory and socket buffers of the server running ${run.strategy}, MB over seconds`}
        series={series}
        height={170}
        maxPointsPerSeries={POINTS_PER_SERIES}
        yAtLeast={memoryTop}
      />
    </LessonRunPanel>
  );
}

/** A run of an HTTP lesson step; re-renders only when its own state or samples change. */
export const HttpLessonRun = memo(HttpLessonRunImpl);
