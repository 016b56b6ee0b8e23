'use client';

/**
 * A recorded run's charts as its card drew them: the lab's own `RunCharts` (labs/<lab>/view/Charts.tsx,
 * the same component the dashboard's card renders), fed the stored samples instead of a live feed,
 * so a run page shows every chart the card had (CPU, lateness, requests…), not only memory.
 */
import type { ProcSample, RunState, Sample } from '@/lib/protocol';
import type { LabView } from '@/components/lab-view';
import { useArraySource } from '@/components/hooks/useArraySource';
import { ChartPlaceholder } from '@/components/charts/placeholder';

export interface RecordedCardChartsProps {
  view: LabView;
  run: RunState;
  samples: readonly Sample[];
  /** The run's /proc readings, read from outside: the card's outside lines (RSS, CPU, a blocked loop). */
  proc: readonly ProcSample[];
  label: string;
}

export function RecordedCardCharts({ view, run, samples, proc, label }: RecordedCardChartsProps) {
  const source = useArraySource(samples);
  const outside = useArraySource(proc);
  return (
    <section className="recorded-card-charts" data-testid="recorded-card-charts" data-lab={view.id} aria-labelledby="card-charts-heading">
      <h3 id="card-charts-heading">As its card drew it</h3>
      {/* A chart draws once on screen (as on the dashboard): until then it says so, unless there is nothing to draw. */}
      <ChartPlaceholder.Provider value={samples.length === 0 ? 'No samples were stored for this run' : 'Drawn when scrolled into view…'}>
        <view.RunCharts run={run} samples={samples} label={label} source={source} outside={outside} active={false} scaleGroups={null} />
      </ChartPlaceholder.Provider>
    </section>
  );
}
