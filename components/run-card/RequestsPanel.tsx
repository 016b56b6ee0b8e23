'use client';

/**
 * A CPU card's requests: while the run goes, a chart of requests done and in flight (the load only
 * reports each request's bar at the end); once it has ended, the request timeline.
 */
import { useMemo } from 'react';
import type { RunSummary, Sample } from '@/lib/protocol';
import { TimeChart } from '@/components/charts/TimeChart';
import { sampleLines } from '@/components/charts/chart-lines';
import { CPU_REQUEST_SERIES } from '@/components/charts/cpu-series';
import { RequestTimeline } from '@/components/charts/RequestTimeline';
import type { SampleSource } from '@/components/charts/sample-source';

export interface RequestsPanelProps {
  label: string;
  summary: RunSummary | null;
  source: SampleSource<Sample>;
  active: boolean;
}

export function RequestsPanel({ label, summary, source, active }: RequestsPanelProps) {
  const lines = useMemo(() => sampleLines(source, CPU_REQUEST_SERIES), [source]);
  const bars = summary?.lab === 'cpu' ? summary.timeline : null;
  if (bars && bars.length > 0) return <RequestTimeline bars={bars} label={`Request timeline of the ${label} run`} />;
  if (!active) {
    return (
      <p className="note" data-testid="request-timeline-none">
        No request timeline: the run ended before its load generator reported the requests.
      </p>
    );
  }
  return (
    <>
      <TimeChart testId="run-chart-requests" label={`Requests done and in flight of the ${label} run over seconds`} lines={lines} height={90} />
      <p className="note" data-testid="request-timeline-pending">
        Each request’s bar (who served it, when) appears when the run ends.
      </p>
    </>
  );
}
