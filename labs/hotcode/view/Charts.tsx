'use client';

/** A hot-code run card's charts: the /health probe first (a frozen server is a wait for every other request), then one view at a time; a sweep's chart once it has ended. */
import { useMemo, useState } from 'react';
import { TimeChart } from '@/components/charts/TimeChart';
import { viewLines } from '@/components/charts/chart-lines';
import { hotcodeSchema } from '../shared/schema';
import { ViewButtons } from '@/components/run-card/ViewButtons';
import type { RunChartsProps } from '@/components/lab-view';
import { HOTCODE_PROBE_SERIES, HOTCODE_VIEWS, type HotcodeView } from './series';
import { SweepChart } from './SweepChart';
import { LAB_ID } from '../shared/id';

export function HotcodeCharts({ run, label, source, outside, active, scaleGroups }: RunChartsProps) {
  const [view, setView] = useState<HotcodeView>('cpu');
  const sampleMs = run.params.sampleMs;
  const probe = useMemo(() => viewLines(source, outside, HOTCODE_PROBE_SERIES, sampleMs, hotcodeSchema.watchesBlockedHeap), [source, outside, sampleMs]);
  const chosen = HOTCODE_VIEWS.find((v) => v.id === view)!;
  const load = useMemo(() => viewLines(source, outside, chosen.specs, sampleMs, hotcodeSchema.watchesBlockedHeap), [source, outside, chosen, sampleMs]);
  return (
    <>
      <TimeChart
        testId="run-chart"
        label={`/health wait and event-loop delay of the ${label} run over seconds`}
        lines={probe}
        height={150}
        scaleGroup={scaleGroups?.of('hotcode-probe') ?? null}
        zoomable={!active}
        reportsTiming
      />
      <ViewButtons<HotcodeView> label={label} views={HOTCODE_VIEWS} value={view} onChange={setView} />
      <TimeChart
        testId="run-chart-load"
        label={`${chosen.label} of the ${label} run over seconds`}
        lines={load}
        height={120}
        scaleGroup={scaleGroups?.of(`hotcode-${view}`, view === 'memory' ? 1024 : 1000) ?? null}
        zoomable={!active}
      />
      {run.summary?.lab === LAB_ID && run.summary.params.sweep && <SweepChart summary={run.summary} label={label} />}
    </>
  );
}
