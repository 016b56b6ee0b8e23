'use client';

/**
 * 2–8 recorded runs (from any experiments) overlaid on the same axes, with their results table
 * and Markdown/CSV exports. The embed shows chart and table only.
 */
import { useMemo, useState } from 'react';
import { parseRunIds, type RunDetail } from '@/lib/history';
import { summariesToMarkdown } from '@/lib/history/export';
import { isComparisonMetric, METRIC_LABELS, metricsOfLabs, type ComparisonMetric } from '@/lib/readouts/metrics';
import { LAB_IDS, labOf } from '@/lib/labs';
import type { StrategyInfo } from '@/lib/protocol';
import { ResultsByLab } from '@/components/ResultsByLab';
import { runtimesDiffer } from '@/lib/readouts/runtime-verdict';
import { MetricSelect } from '@/components/charts/MetricSelect';
import { strategiesSchema } from './api';
import { CopyBox } from './CopyBox';
import { ExportedChart } from './ExportedChart';
import { HistoryHeader } from './HistoryHeader';
import { useOrigin } from './RunDetailView';
import { comparisonSeries } from './run-series';
import { useFetched } from './useFetched';
import { useRunDetails } from './useRunDetails';
import { EMBED_RESIZE_SCRIPT } from '@/components/embed/resize-script';

/** /runs/compare?ids=… and /embed/compare?ids=… */
export function RunComparison({ idsParam, metricParam, embed = false }: { idsParam: string | null; metricParam?: string | null; embed?: boolean }) {
  const ids = parseRunIds(idsParam);
  const details = useRunDetails(ids.ok ? ids.value : null);
  const catalog = useFetched('/api/strategies', strategiesSchema);
  const strategies = catalog.state === 'ready' ? catalog.data : [];
  const body = !ids.ok ? (
    <p className="form-error" role="alert" data-testid="compare-error">
      {ids.error}
    </p>
  ) : details.state === 'loading' ? (
    <p className="muted">Loading the runs…</p>
  ) : details.state === 'error' ? (
    <p className="form-error" role="alert" data-testid="compare-error">
      {details.error}
    </p>
  ) : (
    <ComparisonView details={details.data} strategies={strategies} embed={embed} metricParam={metricParam ?? null} />
  );
  if (embed) return <main className="embed">{body}</main>;
  return (
    <>
      <HistoryHeader title="Compare runs" />
      <main className="layout">{body}</main>
    </>
  );
}

interface ComparisonViewProps {
  details: readonly RunDetail[];
  strategies: readonly StrategyInfo[];
  embed: boolean;
  /** ?metric= of the page; a metric none of the runs' labs has is ignored. */
  metricParam: string | null;
}

function ComparisonView({ details, strategies, embed, metricParam }: ComparisonViewProps) {
  // The metrics of the labs compared, each lab's in its order (streams first, as before labs).
  const metrics = useMemo(() => metricsOfLabs(LAB_IDS.filter((l) => details.some((d) => labOf(d.record.run) === l))), [details]);
  const [metric, setMetric] = useState<ComparisonMetric>(() =>
    metricParam && isComparisonMetric(metricParam) && metrics.includes(metricParam) ? metricParam : metrics[0],
  );
  const series = useMemo(() => comparisonSeries(details, strategies, metric), [details, strategies, metric]);
  const runs = useMemo(() => details.map((d) => d.record.run), [details]);
  const interrupted = runs.filter((r) => r.summary === null);
  const ids = runs.map((r) => r.id).join(',');
  const origin = useOrigin();
  const total = details.reduce((n, d) => n + d.samples.length, 0);
  const markdown = useMemo(
    () =>
      summariesToMarkdown(
        details.map((d) => d.record),
        Object.fromEntries(strategies.map((s) => [`${s.lab}/${s.id}`, s.label])),
      ),
    [details, strategies],
  );

  return (
    <section className={embed ? 'embed-card' : 'panel'} aria-labelledby="compare-heading" data-testid="comparison" data-runs={runs.length}>
      <header className="panel-header">
        <h2 id="compare-heading">{runs.length} runs compared</h2>
        <MetricSelect id="compare-metric" testId="compare-metric" value={metric} onChange={setMetric} metrics={metrics} />
      </header>
      <p className="muted">
        Same axes for every run; time counts from each run’s own start.{' '}
        {runtimesDiffer(runs)
          ? 'Each strategy keeps its colour; the line style is the Node version (solid: the oldest).'
          : 'Each strategy keeps its colour and line style on every page.'}
      </p>
      <ExportedChart
        series={series}
        sampleCount={total}
        title={`${METRIC_LABELS[metric]} of ${runs.length} recorded runs over seconds`}
        fileName={`stream-lab-compare-${metric}`}
        testId="compare-chart"
        height={embed ? 260 : 340}
        bare={embed}
      />
      <ResultsByLab runs={runs.filter((r) => r.summary !== null)} strategies={strategies} experiments={[]} showExperiment={false} />
      {interrupted.length > 0 && <p className="note">{interrupted.length} interrupted run(s) have no result row; their samples are on the chart.</p>}
      {embed ? (
        <p className="embed-credit">
          <a href={`/runs/compare?ids=${ids}`} target="_blank" rel="noopener">
            Open in Stream Lab
          </a>
        </p>
      ) : (
        <section className="exports" aria-labelledby="compare-exports">
          <h3 id="compare-exports">Export and share</h3>
          <div className="export-buttons">
            <a className="button" href={`/api/summaries.md?ids=${ids}`} download data-testid="compare-md">
              Table as Markdown
            </a>
            <a className="button" href={`/api/summaries.csv?ids=${ids}`} download data-testid="compare-csv">
              Summaries CSV
            </a>
            <a className="button" href={`/api/summaries.json?ids=${ids}`} download data-testid="compare-json">
              Summaries JSON
            </a>
          </div>
          <CopyBox label="Results table as Markdown (paste into a wiki page)" text={markdown} testId="compare-markdown" rows={Math.min(10, runs.length + 2)} />
          <CopyBox
            label="Embed this comparison in a training page"
            text={`<iframe src="${origin}/embed/compare?ids=${ids}&metric=${metric}" data-stream-lab title="Stream Lab: ${runs.length} runs compared" width="100%" height="680" style="border:0" loading="lazy"></iframe>\n${EMBED_RESIZE_SCRIPT}`}
            testId="embed-snippet"
            rows={3}
          />
        </section>
      )}
    </section>
  );
}
