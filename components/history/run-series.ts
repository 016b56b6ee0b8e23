/** Chart series of recorded runs, the same shapes and colours the live cards use. Pure. */
import type { ChartSeries } from '@/components/charts/MemoryChart';
import { MEMORY_COLORS, seriesColor } from '@/components/charts/palette';
import { metricValue, type ComparisonMetric } from '@/lib/metrics';
import { MEMORY_FIELDS, type Sample, type StrategyInfo } from '@/lib/protocol';
import type { RunDetail } from '@/lib/history';
import { formatDateTime, strategyLabel } from './labels';

/** The five memory fields of one run (arrayBuffers emphasised, like the run cards). */
export function memorySeries(samples: readonly Sample[]): ChartSeries[] {
  return MEMORY_FIELDS.map((field) => ({
    id: field,
    label: field,
    color: MEMORY_COLORS[field],
    emphasis: field === 'arrayBuffers',
    dashed: field === 'heapTotal',
    points: samples.map((s) => ({ x: s.t, y: s[field] })),
  }));
}

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
