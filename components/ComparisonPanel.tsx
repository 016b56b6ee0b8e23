'use client';

/** One metric of every run of an experiment, overlaid on one time axis (seconds since each run started). */
import { useMemo, useState } from 'react';
import type { RunState, Sample, StrategyInfo } from '@/lib/protocol';
import { METRIC_LABELS, metricValue, type ComparisonMetric } from '@/lib/metrics';
import { MemoryChart, type ChartSeries } from '@/components/charts/MemoryChart';
import { MetricSelect } from '@/components/charts/MetricSelect';
import { seriesColor } from '@/components/charts/palette';

export interface ComparisonPanelProps {
  runs: readonly RunState[];
  samples: Readonly<Record<string, readonly Sample[]>>;
  strategies: readonly StrategyInfo[];
}

/** Chart overlaying the chosen metric for the given runs, with a metric picker. */
export function ComparisonPanel({ runs, samples, strategies }: ComparisonPanelProps) {
  const [metric, setMetric] = useState<ComparisonMetric>('arrayBuffers');

  const series = useMemo<ChartSeries[]>(
    () =>
      runs.map((run, i) => {
        const info = strategies.find((s) => s.id === run.strategy);
        const repeated = runs.filter((r) => r.strategy === run.strategy).length > 1;
        return {
          id: run.id,
          label: `${info?.label ?? run.strategy}${repeated ? ` #${i + 1}` : ''}`,
          color: seriesColor(i),
          // Pull readers dashed: the line style says the mode even without colour.
          dashed: info?.mode === 'pull',
          points: (samples[run.id] ?? []).map((s) => ({ x: s.t, y: metricValue(s, metric) })),
        };
      }),
    [runs, samples, strategies, metric],
  );
  const total = runs.reduce((n, r) => n + (samples[r.id]?.length ?? 0), 0);

  return (
    <section className="panel comparison" aria-labelledby="comparison-heading">
      <header className="panel-header">
        <h2 id="comparison-heading">Comparison</h2>
        <MetricSelect id="comparison-metric" testId="comparison-metric" value={metric} onChange={setMetric} />
      </header>
      <p className="muted">Latest experiment; solid lines are push readers, dashed lines pull readers. Time is counted from each run’s own start.</p>
      <MemoryChart
        testId="comparison-chart"
        label={`${METRIC_LABELS[metric]} of every run, MB over seconds`}
        series={series}
        sampleCount={total}
        height={260}
      />
    </section>
  );
}
