'use client';

/** A streams run card's chart: memory, or CPU or long tasks on request. */
import { useMemo, useState } from 'react';
import type { Sample } from '@/lib/protocol';
import { TimeChart } from '@/components/charts/TimeChart';
import { EXTRA_SERIES, MEMORY_SERIES, viewLines, type SeriesSpec } from '@/components/charts/chart-lines';
import { ViewButtons } from '@/components/run-card/ViewButtons';
import type { RunChartsProps } from '@/components/lab-view';
import type { ReferenceLine } from '@/components/charts/TimeChart';
import { MIB } from '@/lib/protocol/params';
import { shownBudgetMb } from './LessonRun';
import { LAB_ID } from '../shared/id';
import { requireParamsOfLab } from '@/lib/labs';

const VIEWS = [
  { id: 'memory', label: 'Memory', specs: MEMORY_SERIES },
  { id: 'cpu', label: 'CPU', specs: [EXTRA_SERIES.cpuPct] as readonly SeriesSpec<Sample>[] },
  { id: 'loop', label: 'Long tasks', specs: [EXTRA_SERIES.longTaskMs, EXTRA_SERIES.elMaxMs] as readonly SeriesSpec<Sample>[] },
] as const;
type View = (typeof VIEWS)[number]['id'];

export function StreamsCharts({ run, label, source, outside, active, scaleGroups }: RunChartsProps) {
  // Memory by default; CPU (% of one core, from the child's samples) on request.
  const [view, setView] = useState<View>('memory');
  const chosen = VIEWS.find((v) => v.id === view)!;
  const sampleMs = run.params.sampleMs;
  const lines = useMemo(() => viewLines(source, outside, chosen.specs, sampleMs), [source, outside, chosen, sampleMs]);
  // The budget the run is held to, as on the lesson's chart (an out-of-memory card shows what it hit).
  const budgetMb = run.lab === LAB_ID ? shownBudgetMb(requireParamsOfLab(run, LAB_ID)) : null;
  const budget = useMemo<ReferenceLine[]>(() => (budgetMb === null ? [] : [{ y: budgetMb * MIB, label: `budget (${budgetMb} MB)` }]), [budgetMb]);
  return (
    <>
      <ViewButtons<View> label={label} views={VIEWS} value={view} onChange={setView} />
      <TimeChart
        testId="run-chart"
        label={`${chosen.label} of the ${label} run over seconds`}
        lines={lines}
        height={170}
        scaleGroup={view === 'memory' ? (scaleGroups?.of('memory', 1024) ?? null) : null}
        zoomable={!active}
        referenceLines={view === 'memory' ? budget : undefined}
        reportsTiming
      />
    </>
  );
}
