'use client';

/**
 * A deadlines run card's charts: the timers' lateness first (LatenessPanel), then the load and the
 * service, one unit at a time; the spike is shaded on both once the load has said when its
 * schedule began.
 */
import { useMemo, useState } from 'react';
import { TimeChart } from '@/components/charts/TimeChart';
import { viewLines } from '@/components/charts/chart-lines';
import { deadlineSchema } from '../shared/schema';
import { ViewButtons } from '@/components/run-card/ViewButtons';
import type { RunChartsProps } from '@/components/lab-view';
import { paramsOfLab } from '@/lib/labs';
import { DEADLINE_LOAD_VIEWS, spikeBand, type DeadlineLoadView } from './series';
import { LatenessPanel } from './LatenessPanel';
import { LAB_ID } from '../shared/id';

export function DeadlineCharts({ run, samples, label, source, outside, active, scaleGroups }: RunChartsProps) {
  const [view, setView] = useState<DeadlineLoadView>('rates');
  const chosen = DEADLINE_LOAD_VIEWS.find((v) => v.id === view)!;
  const sampleMs = run.params.sampleMs;
  const load = useMemo(() => viewLines(source, outside, chosen.specs, sampleMs, deadlineSchema.watchesBlockedHeap), [source, outside, chosen, sampleMs]);
  const params = paramsOfLab(run, LAB_ID);
  const scheduleStartMs = run.summary?.lab === LAB_ID ? run.summary.scheduleStartMs : samples.findLast((s) => (s.scheduleStartMs ?? -1) >= 0)?.scheduleStartMs;
  const band = useMemo(() => {
    const b = params ? spikeBand(params, scheduleStartMs) : null;
    return b ? { ...b, label: 'spike' } : null;
  }, [params, scheduleStartMs]);
  const bands = useMemo(() => (band ? [band] : []), [band]);
  return (
    <>
      <LatenessPanel
        label={label}
        summary={run.summary}
        source={source}
        outside={outside}
        sampleMs={sampleMs}
        active={active}
        band={band}
        scaleGroups={scaleGroups}
      />
      <ViewButtons<DeadlineLoadView> label={label} views={DEADLINE_LOAD_VIEWS} value={view} onChange={setView} />
      <TimeChart
        testId="run-chart-load"
        label={`${chosen.label} of the ${label} run over seconds`}
        lines={load}
        height={130}
        bands={bands}
        scaleGroup={scaleGroups?.of(`deadline-${view}`) ?? null}
        zoomable={!active}
      />
    </>
  );
}
