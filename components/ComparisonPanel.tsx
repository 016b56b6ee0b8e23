'use client';

/** One metric of every run of an experiment, overlaid on one time axis (seconds since each run started). */
import { memo, useMemo, useState } from 'react';
import type { RunState, StrategyInfo } from '@/lib/protocol';
import { METRIC_LABELS, metricsOfLabs, type ComparisonMetric } from '@/lib/readouts/metrics';
import { DEFAULT_LAB, type LabId } from '@/lib/labs';
import { isActive } from '@/lib/lab-state';
import { TimeChart } from '@/components/charts/TimeChart';
import { ChartPlaceholder } from '@/components/charts/placeholder';
import { MetricSelect } from '@/components/charts/MetricSelect';
import { metricLines } from '@/components/charts/chart-lines';
import { strategyStyle } from '@/components/charts/palette';
import type { LiveFeeds } from '@/components/charts/sample-source';

export interface ComparisonPanelProps {
  runs: readonly RunState[];
  feeds: LiveFeeds;
  strategies: readonly StrategyInfo[];
  /** The runs' lab: which metrics the picker offers. */
  lab?: LabId;
}

/**
 * What the lines depend on, as a string: runs are new objects on every update of their state,
 * but the chart must only be rebuilt when the set of runs (or the catalog) changes.
 */
function linesKey(runs: readonly RunState[], strategies: readonly StrategyInfo[]): string {
  return JSON.stringify([runs.map((r) => [r.id, r.strategy]), strategies.map((s) => [s.id, s.label])]);
}

function ComparisonPanelImpl({ runs, feeds, strategies: catalog, lab = DEFAULT_LAB }: ComparisonPanelProps) {
  const metrics = metricsOfLabs([lab]);
  // The lab's own strategies only: ids repeat across labs, and labels and colours follow the lab's list.
  const strategies = useMemo(() => catalog.filter((s) => s.lab === lab), [catalog, lab]);
  // Until one is picked, each lab's first metric; one the runs' lab lacks falls back to it too.
  const [picked, setMetric] = useState<ComparisonMetric | null>(null);
  const metric = picked !== null && metrics.includes(picked) ? picked : metrics[0];
  const key = linesKey(runs, strategies);
  const lines = useMemo(() => {
    const [runPairs, catalog] = JSON.parse(key) as [Array<[string, string]>, Array<[string, string]>];
    const catalogIds = catalog.map(([id]) => id);
    const labelOf = (id: string) => catalog.find(([sid]) => sid === id)?.[1] ?? id;
    return metricLines(
      runPairs.map(([id, strategy], i) => {
        const repeated = runPairs.filter(([, s]) => s === strategy).length > 1;
        return { key: id, label: `${labelOf(strategy)}${repeated ? ` #${i + 1}` : ''}`, style: strategyStyle(strategy, catalogIds), source: feeds.feed(id) };
      }),
      metric,
    );
  }, [key, metric, feeds]);
  const finished = runs.length > 0 && !runs.some(isActive);

  return (
    <section className="panel comparison" aria-labelledby="comparison-heading">
      <header className="panel-header">
        <h2 id="comparison-heading">Comparison</h2>
        <MetricSelect id="comparison-metric" testId="comparison-metric" value={metric} onChange={setMetric} metrics={metrics} />
      </header>
      <p className="muted">Latest experiment; each strategy keeps its colour and line style on every page. Time is counted from each run’s own start.</p>
      {/* Mounted before the first run, so its plot is built by then and a run's first sample is only a redraw
          (mounting it with the first card cost ~40 ms of Start → first sample drawn, npm run bench:ui). */}
      <ChartPlaceholder.Provider
        value={
          runs.length === 0
            ? 'Start an experiment: each of its runs is drawn here, one line a run.'
            : finished
              ? 'Reading these runs’ samples from history…'
              : 'Waiting for samples…'
        }
      >
        <TimeChart testId="comparison-chart" label={`${METRIC_LABELS[metric]} of every run over seconds`} lines={lines} height={260} zoomable={finished} />
      </ChartPlaceholder.Provider>
    </section>
  );
}

/** Chart overlaying the chosen metric for the given runs, with a metric picker. */
export const ComparisonPanel = memo(ComparisonPanelImpl);
