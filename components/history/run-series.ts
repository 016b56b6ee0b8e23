/** Chart series comparing recorded runs (one run's memory series: components/charts/series.ts). Pure. */
import type { ChartSeries } from '@/components/charts/MemoryChart';
import { strategyStyle } from '@/components/charts/palette';
import { METRIC_UNITS, metricValue, type ComparisonMetric } from '@/lib/readouts/metrics';
import { legendParamsText } from '@/lib/readouts/params-text';
import type { StrategyInfo } from '@/lib/protocol';
import type { RunDetail } from '@/lib/history';
import { formatDateTime, strategyLabel } from './labels';
import { compareVersions } from '@/lib/runtimes';

/** The oldest Node solid, then dashed, dotted… */
const RUNTIME_DASHES: ReadonlyArray<number[] | undefined> = [undefined, [10, 5], [2, 4], [12, 4, 2, 4]];

/** One metric of several runs, each in its strategy's colour and dash (the same as on the dashboard). */
export function comparisonSeries(details: readonly RunDetail[], strategies: readonly StrategyInfo[], metric: ComparisonMetric): ChartSeries[] {
  // Each run's colour by its place in its own lab's list (ids repeat across labs).
  const idsOf = (lab: string) => strategies.filter((s) => s.lab === lab).map((s) => s.id);
  // Runs on several Node versions: the strategy keeps its colour, the runtime gets the dash and a name.
  const versions = [...new Set(details.flatMap((d) => (d.record.run.summary ? [d.record.run.summary.nodeVersion] : [])))].sort(compareVersions);
  return details.map((d) => {
    const run = d.record.run;
    const style = strategyStyle(run.strategy, idsOf(run.lab));
    const version = run.summary?.nodeVersion;
    const runtime =
      versions.length > 1 && version ? { label: ` on Node ${version}`, dash: RUNTIME_DASHES[versions.indexOf(version) % RUNTIME_DASHES.length] } : null;
    return {
      id: run.id,
      label: `${strategyLabel(strategies, run.lab, run.strategy)}${runtime?.label ?? ''} (${legendParamsText(run)}, ${formatDateTime(run.queuedAt)})`,
      color: style.color,
      dash: runtime ? runtime.dash : style.dash,
      points: d.samples.map((s) => ({ x: s.t, y: metricValue(s, metric) })),
      valueUnit: METRIC_UNITS[metric],
    };
  });
}
