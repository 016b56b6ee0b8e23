/** Chart series comparing recorded runs (one run's memory series: components/charts/series.ts). Pure. */
import type { ChartSeries } from '@/components/charts/MemoryChart';
import { seriesColor } from '@/components/charts/palette';
import { metricValue, type ComparisonMetric } from '@/lib/metrics';
import type { StrategyInfo } from '@/lib/protocol';
import type { RunDetail } from '@/lib/history';
import { formatDateTime, strategyLabel } from './labels';

/** One metric of several runs; pull readers dashed so the mode reads without colour. */
export function comparisonSeries(details: readonly RunDetail[], strategies: readonly StrategyInfo[], metric: ComparisonMetric): ChartSeries[] {
  return details.map((d, i) => {
    const run = d.record.run;
    const info = strategies.find((s) => s.id === run.strategy);
    return {
      id: run.id,
      label: `${strategyLabel(strategies, run.strategy)} (${run.params.sizeMb} MB, ${run.params.delayMs} ms, ${formatDateTime(run.queuedAt)})`,
      color: seriesColor(i),
      dashed: info?.mode === 'pull',
      points: d.samples.map((s) => ({ x: s.t, y: metricValue(s, metric) })),
    };
  });
}
