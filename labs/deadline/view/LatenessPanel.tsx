'use client';

/**
 * A deadlines card's timers: the live chart of how late the service's timers fire (p99 and max over
 * the last second, with the event-loop delay), the spike shaded from the params and the moment the
 * load's schedule started; once the run has ended, the scatter of individual timers under it.
 */
import { useMemo } from 'react';
import type { ProcSample, RunSummary, Sample } from '@/lib/protocol';
import { TimeChart, type TimeBand } from '@/components/charts/TimeChart';
import { viewLines } from '@/components/charts/chart-lines';
import { deadlineSchema } from '../shared/schema';
import { DEADLINE_LATENESS_SERIES } from './series';
import { LatenessScatter } from './LatenessScatter';
import type { SampleSource } from '@/components/charts/sample-source';
import type { ScaleGroups } from '@/components/charts/scale-group';
import { LAB_ID } from '../shared/id';

export interface LatenessPanelProps {
  label: string;
  summary: RunSummary | null;
  source: SampleSource<Sample>;
  outside: SampleSource<ProcSample>;
  sampleMs: number | null;
  active: boolean;
  band: TimeBand | null;
  scaleGroups: ScaleGroups | null;
}

export function LatenessPanel({ label, summary, source, outside, sampleMs, active, band, scaleGroups }: LatenessPanelProps) {
  const lines = useMemo(() => viewLines(source, outside, DEADLINE_LATENESS_SERIES, sampleMs, deadlineSchema.watchesBlockedHeap), [source, outside, sampleMs]);
  const bands = useMemo(() => (band ? [band] : []), [band]);
  const points = summary?.lab === LAB_ID ? summary.lateness : null;
  return (
    <>
      <TimeChart
        testId="run-chart"
        label={`Timer lateness in the ${label} service over seconds`}
        lines={lines}
        height={160}
        bands={bands}
        scaleGroup={scaleGroups?.of('lateness') ?? null}
        zoomable={!active}
        reportsTiming
        data-spike-from-ms={band ? Math.round(band.fromMs) : undefined}
        data-spike-to-ms={band ? Math.round(band.toMs) : undefined}
      />
      <p className="note" data-testid="spike-band-note">
        {band
          ? `Shaded: the spike, ${(band.fromMs / 1000).toFixed(1)}–${(band.toMs / 1000).toFixed(1)} s into the run.`
          : 'The spike is shaded once the load has started its schedule.'}
      </p>
      {points && points.length > 0 && <LatenessScatter points={points} band={band} label={`Timer lateness of the ${label} run`} />}
    </>
  );
}
