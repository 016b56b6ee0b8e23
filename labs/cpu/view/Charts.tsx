'use client';

/**
 * A CPU run card's charts: the process tree's memory, then its CPU, processes and threads, or
 * /ping, one at a time (the lab runs one strategy at a time); under them the requests panel.
 */
import { useMemo, useState } from 'react';
import { TimeChart } from '@/components/charts/TimeChart';
import { viewLines } from '@/components/charts/chart-lines';
import { cpuSchema } from '../shared/schema';
import { ViewButtons } from '@/components/run-card/ViewButtons';
import type { RunChartsProps } from '@/components/lab-view';
import { CPU_LOAD_VIEWS, CPU_MEMORY_SERIES, type CpuLoadView } from './series';
import { RequestsPanel } from './RequestsPanel';

export function CpuCharts({ run, label, source, outside, active, scaleGroups, live }: RunChartsProps) {
  // CPU first: the tree climbing to every core (or staying at one) is the lab's point.
  const [view, setView] = useState<CpuLoadView>('cpu');
  const sampleMs = run.params.sampleMs;
  const memory = useMemo(() => viewLines(source, outside, CPU_MEMORY_SERIES, sampleMs, cpuSchema.watchesBlockedHeap), [source, outside, sampleMs]);
  const chosen = CPU_LOAD_VIEWS.find((v) => v.id === view)!;
  const load = useMemo(() => viewLines(source, outside, chosen.specs, sampleMs, cpuSchema.watchesBlockedHeap), [source, outside, chosen, sampleMs]);
  return (
    <>
      <TimeChart
        testId="run-chart"
        label={`RSS of the server's process tree (${label}) over seconds`}
        lines={memory}
        height={150}
        scaleGroup={scaleGroups?.of('memory', 1024) ?? null}
        zoomable={!active}
        reportsTiming
      />
      <ViewButtons<CpuLoadView> label={label} views={CPU_LOAD_VIEWS} value={view} onChange={setView} />
      <TimeChart
        testId="run-chart-load"
        label={`${chosen.label} of the ${label} run over seconds`}
        lines={load}
        height={130}
        scaleGroup={scaleGroups?.of(`cpu-${view}`) ?? null}
        zoomable={!active}
      />
      <RequestsPanel label={label} summary={run.summary} source={source} active={active} live={live} />
    </>
  );
}
