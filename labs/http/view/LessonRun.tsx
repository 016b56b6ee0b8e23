'use client';

/** One run inside an HTTP walkthrough step: the server's heap, RSS and socket buffers, and its measured figures. */
import { memo, useMemo } from 'react';
import type { RunState, Sample } from '@/lib/protocol';
import { formatMb, formatMs } from '@/lib/readouts/format';
import { MemoryChart } from '@/components/charts/MemoryChart';
import { specSeries } from '@/components/charts/series';
import { HTTP_MEMORY_SERIES } from './series';
import { StatusBadge } from '@/components/StatusBadge';

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
  const s = run.summary?.lab === 'http' ? run.summary : null;
  return (
    <section className="lesson-run" data-testid="lesson-run-panel" data-run-id={run.id} data-strategy={run.strategy} data-status={run.status} aria-label={`${run.strategy} run`}>
      <header className="lesson-run-header">
        <h4>{run.strategy}</h4>
        <StatusBadge status={run.status} />
      </header>
      <MemoryChart label={`Memory and socket buffers of the server running ${run.strategy}, MB over seconds`} series={series} height={170} maxPointsPerSeries={POINTS_PER_SERIES} yAtLeast={memoryTop} />
      {s && (
        <dl
          className="lesson-figures"
          data-testid="lesson-run-result"
          data-strategy={s.strategy}
          data-outcome={s.outcome}
          data-peak-heap-used={s.peak.heapUsed}
          data-peak-writable-bytes={s.peakWritableBytes}
          data-latency-p50-ms={s.latencyP50Ms}
          data-ttfb-p50-ms={s.ttfbP50Ms}
          data-responses-ok={s.responsesOk}
        >
          <div>
            <dt>responses right</dt>
            <dd>
              {s.responsesOk} of {s.requestsPlanned}
            </dd>
          </div>
          <div>
            <dt>peak heapUsed</dt>
            <dd>{formatMb(s.peak.heapUsed)}</dd>
          </div>
          <div>
            <dt>socket buffers</dt>
            <dd>{formatMb(s.peakWritableBytes)}</dd>
          </div>
          <div>
            <dt>p50 latency / first byte</dt>
            <dd>
              {formatMs(s.latencyP50Ms)} / {formatMs(s.ttfbP50Ms)}
            </dd>
          </div>
        </dl>
      )}
    </section>
  );
}

/** A run of an HTTP lesson step; re-renders only when its own state or samples change. */
export const HttpLessonRun = memo(HttpLessonRunImpl);
