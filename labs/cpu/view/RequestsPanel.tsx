'use client';

/**
 * A CPU card's requests and threads. While the run goes: requests done and in flight, each
 * answered request's bar as the load reports it (a few times a second), and the busiest threads;
 * once it has ended: the whole request timeline and each thread's CPU time, from the summary.
 */
import { useMemo } from 'react';
import { z } from 'zod';
import type { LiveState, RunSummary, Sample } from '@/lib/protocol';
import { requestBarSchema, threadCpuSchema, type RequestBar } from '../shared/schema';
import { TimeChart } from '@/components/charts/TimeChart';
import { sampleLines } from '@/components/charts/chart-lines';
import { CPU_REQUEST_SERIES } from './series';
import { RequestTimeline } from './RequestTimeline';
import { layoutTimeline } from './timeline-layout';
import type { SampleSource } from '@/components/charts/sample-source';
import { ThreadCpuList } from './ThreadCpuList';
import { LAB_ID } from '../shared/id';

export interface RequestsPanelProps {
  label: string;
  summary: RunSummary | null;
  source: SampleSource<Sample>;
  active: boolean;
  /** The run's live extras (the CPU lab's: `timeline`, bars so far; `threads`, the busiest now). */
  live: LiveState | undefined;
}

const liveBars = z.array(requestBarSchema);
const liveThreads = z.array(threadCpuSchema);
const NONE: readonly RequestBar[] = [];

/** The live extras as the CPU lab sends them; anything else reads as nothing yet. */
function parseLive(live: LiveState | undefined) {
  const bars = liveBars.safeParse(live?.timeline);
  const threads = liveThreads.safeParse(live?.threads);
  // Bars come in the order requests ended; the timeline has a row per request in the order sent.
  return { bars: bars.success ? [...bars.data].sort((a, b) => a.startMs - b.startMs) : NONE, threads: threads.success ? threads.data : [] };
}

export function RequestsPanel({ label, summary, source, active, live }: RequestsPanelProps) {
  const lines = useMemo(() => sampleLines(source, CPU_REQUEST_SERIES), [source]);
  const now = useMemo(() => parseLive(live), [live]);
  const s = summary?.lab === LAB_ID ? summary : null;
  const bars = s ? s.timeline : now.bars;
  const colorOf = useMemo(() => layoutTimeline(bars).colorOf, [bars]);
  if (s) {
    return (
      <>
        {bars.length > 0 ? (
          <RequestTimeline bars={bars} label={`Request timeline of the ${label} run`} />
        ) : (
          <p className="note" data-testid="request-timeline-none">
            No request timeline: the run ended before its load generator reported the requests.
          </p>
        )}
        {s.threadCpu.length > 0 && <ThreadCpuList threads={s.threadCpu} live={false} colorOf={colorOf} />}
      </>
    );
  }
  if (!active) return null;
  return (
    <>
      <TimeChart testId="run-chart-requests" label={`Requests done and in flight of the ${label} run over seconds`} lines={lines} height={90} />
      {bars.length > 0 ? (
        <RequestTimeline bars={bars} label={`Request timeline so far of the ${label} run`} />
      ) : (
        <p className="note" data-testid="request-timeline-pending">
          Each request’s bar (who served it, when) appears as soon as it is answered.
        </p>
      )}
      {now.threads.length > 0 && <ThreadCpuList threads={now.threads} live colorOf={colorOf} />}
    </>
  );
}
