/** Chart series comparing recorded runs (one run's memory series: components/charts/series.ts). Pure. */
import type { ChartSeries } from '@/components/charts/MemoryChart';
import { strategyStyle } from '@/components/charts/palette';
import { METRIC_UNITS, metricValue, type ComparisonMetric } from '@/lib/readouts/metrics';
import { legendParamsText } from '@/lib/readouts/params-text';
import type { StrategyInfo } from '@/lib/protocol';
import type { RunDetail } from '@/lib/history';
import { formatDateTime, strategyLabel } from './labels';

/** One metric of several runs, each in its strategy's colour and dash (the same as on the dashboard). */
export function comparisonSeries(details: readonly RunDetail[], strategies: readonly StrategyInfo[], metric: ComparisonMetric): ChartSeries[] {
  const catalogIds = strategies.map((s) => s.id);
  return details.map((d) => {
    const run = d.record.run;
    const style = strategyStyle(run.strategy, catalogIds);
    return {
      id: run.id,
      label: `${strategyLabel(strategies, run.strategy)} (${legendParamsText(run)}, ${formatDateTime(run.queuedAt)})`,
      color: style.color,
      dash: style.dash,
      points: d.samples.map((s) => ({ x: s.t, y: metricValue(s, metric) })),
      valueUnit: METRIC_UNITS[metric],
    };
  });
}
