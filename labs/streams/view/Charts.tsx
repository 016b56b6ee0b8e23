'use client';

/** A streams run card's chart: memory, or CPU or long tasks on request. */
import { useMemo, useState } from 'react';
import type { Sample } from '@/lib/protocol';
import { TimeChart } from '@/components/charts/TimeChart';
import { EXTRA_SERIES, MEMORY_SERIES, sampleLines, type SeriesSpec } from '@/components/charts/chart-lines';
import { ViewButtons } from '@/components/run-card/ViewButtons';
import type { RunChartsProps } from '@/components/lab-view';

const VIEWS = [
  { id: 'memory', label: 'Memory', specs: MEMORY_SERIES },
  { id: 'cpu', label: 'CPU', specs: [EXTRA_SERIES.cpuPct] as readonly SeriesSpec<Sample>[] },
  { id: 'loop', label: 'Long tasks', specs: [EXTRA_SERIES.longTaskMs, EXTRA_SERIES.elMaxMs] as readonly SeriesSpec<Sample>[] },
] as const;
type View = (typeof VIEWS)[number]['id'];

export function StreamsCharts({ label, source, active, scaleGroups }: RunChartsProps) {
  // Memory by default; CPU (% of one core, from the child's samples) on request.
  const [view, setView] = useState<View>('memory');
  const chosen = VIEWS.find((v) => v.id === view)!;
  const lines = useMemo(() => sampleLines(source, chosen.specs), [source, chosen]);
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
        reportsTiming
      />
    </>
  );
}
