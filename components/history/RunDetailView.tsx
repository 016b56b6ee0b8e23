'use client';

/**
 * One recorded run: memory chart, verdict, figures and exports. The embed shows the same view
 * without the header, exports and snippets (`embed`).
 */
import Link from 'next/link';
import { useMemo, useSyncExternalStore } from 'react';
import { formValuesFromParams, formToQuery } from '@/lib/form/experiment-form';
import { HISTORY_LIMITS, runDetailSchema, runIdSchema, type RunDetail } from '@/lib/history';
import { labView, recordSeries } from '@/labs/views';
import { verdictOf } from '@/labs/verdict-of';
import { VerdictLine } from '@/components/run-card/VerdictLine';
import { runParamsText } from '@/lib/readouts/params-text';
import { isPageLab, labOf } from '@/lib/labs';
import type { StrategyInfo } from '@/lib/protocol';
import { ProfilePanel } from '@/components/profile/ProfilePanel';
import { ChartBands } from '@/components/charts/bands';
import { HeapPanel } from '@/components/heap/HeapPanel';
import { useSnapshotBands } from '@/components/heap/bands';
import { useRunHeap } from '@/components/heap/useRunHeap';
import { watchesHeap } from '@/lib/heap/run-heap';
import { StatusBadge } from '@/components/StatusBadge';
import { strategiesSchema } from './api';
import { CopyBox } from './CopyBox';
import { EmbedSnippet } from '@/components/embed/EmbedSnippet';
import { EMBED_RESIZE_SCRIPT } from '@/components/embed/resize-script';
import { ExportedChart } from './ExportedChart';
import { RecordedCardCharts } from './RecordedCardCharts';
import { HistoryHeader } from './HistoryHeader';
import { formatDateTime, strategyInfo, strategyLabel } from './labels';
import { Warnings } from './RunHistory';
import { RunSummaryList } from './RunSummaryList';
import { useFetched } from './useFetched';
import { useExperimentSummaries } from './useExperimentSummaries';

/** The page's origin, for absolute links in snippets (empty during server rendering). */
export function useOrigin(): string {
  return useSyncExternalStore(
    () => () => {},
    () => window.location.origin,
    () => '',
  );
}

/** /runs/<id> and /embed/runs/<id>. */
export function RunDetailView({ id, embed = false }: { id: string; embed?: boolean }) {
  const valid = runIdSchema.safeParse(id);
  const detail = useFetched(valid.success ? `/api/runs/${id}?points=${HISTORY_LIMITS.points.default}` : null, runDetailSchema);
  const catalog = useFetched('/api/strategies', strategiesSchema);
  const strategies = catalog.state === 'ready' ? catalog.data : [];
  const body = !valid.success ? (
    <p className="form-error" role="alert">
      {valid.error.issues[0].message}
    </p>
  ) : detail.state === 'loading' ? (
    <p className="muted">Loading the run…</p>
  ) : detail.state === 'error' ? (
    <p className="form-error" role="alert" data-testid="run-error">
      {detail.error}
    </p>
  ) : (
    <RunView detail={detail.data} strategies={strategies} embed={embed} />
  );
  if (embed) return <main className="embed">{body}</main>;
  return (
    <>
      <HistoryHeader title="Recorded run" />
      <main className="layout">{body}</main>
    </>
  );
}

function RunView({ detail, strategies, embed }: { detail: RunDetail; strategies: readonly StrategyInfo[]; embed: boolean }) {
  const { record, samples, proc } = detail;
  const run = record.run;
  const info = strategyInfo(strategies, run.lab, run.strategy);
  const label = strategyLabel(strategies, run.lab, run.strategy);
  const lab = labOf(run);
  const view = labView(lab);
  // Some labs' verdicts compare a run with the others of its experiment (buffered-json, single-thread):
  // the API's summary carries the verdict made with them; a record from elsewhere is judged here.
  const served = run.summary?.verdict ?? null;
  const siblings = useExperimentSummaries(run, !served && (view?.comparesSiblings ?? false));
  const chart = view?.recordChart ?? null;
  const series = useMemo(() => recordSeries(lab, samples), [lab, samples]);
  const origin = useOrigin();
  // Only a lab the dashboard's form knows can be reopened there.
  const experimentLink = isPageLab(lab)
    ? `/?${formToQuery(formValuesFromParams(run.params, record.experiment?.strategies ?? [run.strategy], record.experiment?.parallel ?? false, lab))}`
    : null;
  const title = `${label}: ${chart?.what ?? 'memory'} over time (${runParamsText(run)})`;
  const heap = useRunHeap(run.summary, undefined);
  const snapshotBands = useSnapshotBands(heap.snapshots);

  return (
    <article className={embed ? 'embed-card' : 'panel run-detail'} data-testid="run-detail" data-run-id={run.id} data-status={run.status}>
      <header className="run-detail-header">
        <h2>{label}</h2>
        {info?.mode && <span className={`badge mode-${info.mode}`}>{info.mode}</span>}
        <StatusBadge status={run.status} />
        <span className="muted">
          {formatDateTime(run.queuedAt)} · {runParamsText(run)}
        </span>
      </header>
      <ChartBands.Provider value={snapshotBands}>
        <ExportedChart
          series={series}
          sampleCount={samples.length}
          title={title}
          fileName={`${run.id}-${run.strategy}`}
          testId="history-chart"
          height={embed ? 240 : 320}
          bare={embed}
        />
        {view && !embed && <RecordedCardCharts view={view} run={run} samples={samples} proc={proc} label={label} />}
      </ChartBands.Provider>
      {/* The card's charts above hold what these panels show (timeline, lateness, sweep); the embed shows them alone. */}
      {run.summary && embed && view?.RecordPanels && <view.RecordPanels summary={run.summary} label={label} />}
      {run.summary?.profile && !embed && <ProfilePanel runId={run.id} label={label} summary={run.summary.profile} />}
      {run.summary && watchesHeap(run.params) && !embed && <HeapPanel runId={run.id} label={label} heap={heap} params={run.params} active={false} recorded />}
      {!run.summary ? (
        <VerdictLine
          outcome="crashed"
          verdict={{
            text: 'Interrupted: the server stopped while this run was going; the chart shows the samples saved until then.',
            figures: {},
            expected: null,
          }}
        />
      ) : served ? (
        <VerdictLine outcome={run.summary.outcome} verdict={served} />
      ) : siblings === null ? (
        <VerdictLine outcome={run.summary.outcome} verdict={null} text="Reading the other runs of its experiment to compare with…" />
      ) : strategies.length === 0 ? (
        <VerdictLine outcome={run.summary.outcome} verdict={null} text="Reading what its strategy is there to show…" />
      ) : (
        <VerdictLine outcome={run.summary.outcome} verdict={verdictOf(run.summary, info, siblings)} />
      )}
      {embed ? (
        <p className="embed-credit">
          <a href={`/runs/${run.id}`} target="_blank" rel="noopener">
            Open in Stream Lab
          </a>
        </p>
      ) : (
        <>
          {record.notes.length > 0 && (
            <ul className="record-notes" data-testid="record-notes">
              {record.notes.map((n) => (
                <li key={n}>{n}</li>
              ))}
            </ul>
          )}
          <Warnings warnings={detail.warnings} />
          <RunSummaryList record={record} storedSamples={detail.storedSamples} role={info?.role ?? null} />
          <section className="exports" aria-labelledby="exports-heading">
            <h3 id="exports-heading">Export and share</h3>
            <div className="export-buttons">
              <a className="button" href={`/api/runs/${run.id}/samples.csv`} download data-testid="export-samples-csv">
                Samples CSV
              </a>
              <a className="button" href={`/api/runs/${run.id}/run.json`} download data-testid="export-run-json">
                Run JSON
              </a>
              <a className="button" href={`/api/summaries.csv?ids=${run.id}`} download data-testid="export-summary-csv">
                Summary CSV
              </a>
              <a className="button" href={`/api/summaries.md?ids=${run.id}`} download data-testid="export-summary-md">
                Summary Markdown
              </a>
              <a className="button" href={`/api/summaries.json?ids=${run.id}`} download data-testid="export-summary-json">
                Summary JSON
              </a>
              {experimentLink && (
                <Link className="button" href={experimentLink} data-testid="open-experiment">
                  Open this experiment in the lab
                </Link>
              )}
            </div>
            {experimentLink && <CopyBox label="Link that opens the same experiment" text={`${origin}${experimentLink}`} testId="share-link" rows={3} />}
            <EmbedSnippet
              label="Embed this run in a training page"
              path={`/embed/runs/${run.id}`}
              snippet={`<iframe src="${origin}/embed/runs/${run.id}" data-stream-lab title="${label} run: ${chart?.what ?? 'memory'} over time" width="100%" height="480" style="border:0" loading="lazy"></iframe>\n${EMBED_RESIZE_SCRIPT}`}
              testId="embed-snippet"
            />
          </section>
        </>
      )}
    </article>
  );
}
