'use client';

/** Figures of finished streams runs next to the article's published ones. */
import { measuredRate, type Experiment, type RunState, type StrategyInfo } from '@/lib/protocol';
import { paramsOfLab } from '@/lib/labs';
import { legendParamsText } from '@/lib/readouts/params-text';
import { formatMbNumber, formatPerSec } from '@/lib/readouts/format';
import { StatusBadge } from '@/components/StatusBadge';
import { RuntimeTag } from '@/components/RuntimeVerdict';
import { runtimesDiffer } from '@/lib/readouts/runtime-verdict';
import { LAB_ID } from '../shared/id';
import { peakRssOf } from '@/lib/readouts/outcome-text';
import { streamsKnobs } from '../shared/params';
import { concurrencyText } from '../shared/describe';

export interface ResultsTableProps {
  /** Finished streams runs (with a summary), in display order. */
  runs: readonly RunState[];
  strategies: readonly StrategyInfo[];
  experiments: readonly Experiment[];
  showExperiment: boolean;
}

/** The article's experiment: its published peaks only compare with runs of the same file size and delay. */
export const ARTICLE_RUN = { sizeMb: 150, delayMs: 10, node: '20.11' } as const;

/** True when a streams run used the article's file size and per-chunk delay, so its peak may stand beside the article's. */
export function likeTheArticle(run: Pick<RunState, 'lab' | 'params'>): boolean {
  const p = paramsOfLab(run, LAB_ID);
  return p !== null && p.sizeMb === ARTICLE_RUN.sizeMb && p.delayMs === ARTICLE_RUN.delayMs;
}

/** `bytes` null: not measured (a run with no sample), a dash rather than 0. */
function MbCell({ field, bytes }: { field: string; bytes: number | null }) {
  return (
    <td className="num" data-field={field} data-bytes={bytes ?? ''}>
      {bytes === null ? '–' : formatMbNumber(bytes)}
    </td>
  );
}

/** Table of ended streams runs: outcome, peak memory, duration, throughput in MB/s and records/s, and the concurrency they ran with. */
export function ResultsTable({ runs, strategies, experiments, showExperiment }: ResultsTableProps) {
  const experimentNumber = (id: string) => experiments.findIndex((e) => e.id === id) + 1;
  // Runs of strategies the article measured, whose parameters differ from the article's: their Article cell stays empty.
  const unlike = runs.filter((r) => r.summary && !likeTheArticle(r) && strategies.find((x) => x.lab === r.lab && x.id === r.strategy)?.article);
  const unlikeParams = [...new Set(unlike.map((r) => legendParamsText(r)))].join('; ');
  const showRuntime = runtimesDiffer(runs);
  return (
    <>
      <p className="scroll-hint" aria-hidden="true">
        Swipe the table sideways for more columns →
      </p>
      <div className="table-scroll" tabIndex={0} role="region" aria-label="Results table, scrolls sideways">
        <table data-testid="results-table">
          <caption className="visually-hidden">Results of finished runs; memory in MB (MiB)</caption>
          <thead>
            <tr>
              {showExperiment && <th scope="col">Exp.</th>}
              <th scope="col">Strategy</th>
              <th scope="col">Outcome</th>
              <th scope="col" className="num">
                Peak RSS
              </th>
              <th scope="col" className="num" title="Peak memory (MB) the source article published: 150 MB file, 10 ms per chunk, Node 20.11">
                Article
              </th>
              <th scope="col" className="num">
                heapUsed
              </th>
              <th scope="col" className="num">
                external
              </th>
              <th scope="col" className="num">
                arrayBuffers
              </th>
              <th scope="col" className="num">
                File
              </th>
              <th scope="col" className="num">
                Duration (s)
              </th>
              <th scope="col" className="num">
                MB/s
              </th>
              <th scope="col" className="num" title="Consumer calls the strategy kept in flight: the knob for a strategy that takes it, 1 for a sequential one">
                Concurrency
              </th>
              <th scope="col" className="num" title="CSV lines (records) processed per second of the run">
                Records/s
              </th>
            </tr>
          </thead>
          <tbody>
            {runs.length === 0 && (
              <tr>
                <td colSpan={showExperiment ? 13 : 12} className="muted">
                  No finished runs yet.
                </td>
              </tr>
            )}
            {runs.map((run) => {
              const s = run.summary;
              if (s?.lab !== LAB_ID) return null;
              const info = strategies.find((x) => x.lab === run.lab && x.id === run.strategy);
              const { consumer } = streamsKnobs(s.params);
              // A run that ended without a sample measured nothing: its rates are dashes here, as its (null) peaks are.
              const recordsPerSec = measuredRate(s, s.recordsPerSec);
              return (
                <tr
                  key={run.id}
                  data-testid="result-row"
                  data-run-id={run.id}
                  data-strategy={run.strategy}
                  data-outcome={s.outcome}
                  className={`outcome-${s.outcome}`}
                >
                  {showExperiment && <td className="num">{experimentNumber(run.experimentId)}</td>}
                  <th scope="row">
                    {info?.label ?? run.strategy}
                    {info?.mode && <span className={`badge mode-${info.mode}`}>{info.mode}</span>}
                    {consumer !== 'sleep' && (
                      <span className="badge" data-testid="result-consumer" title={`The ${consumer} consumer`}>
                        {consumer}
                      </span>
                    )}
                    <RuntimeTag run={run} show={showRuntime} />
                  </th>
                  <td title={s.reason ?? undefined}>
                    <StatusBadge status={s.outcome} />
                  </td>
                  <MbCell field="rss" bytes={peakRssOf(s)} />
                  <td className="num article" title={info?.article?.note} data-testid="article-cell">
                    {info?.article && likeTheArticle(run) ? info.article.peakMb : '–'}
                  </td>
                  <MbCell field="heapUsed" bytes={s.peak?.heapUsed ?? null} />
                  <MbCell field="external" bytes={s.peak?.external ?? null} />
                  <MbCell field="arrayBuffers" bytes={s.peak?.arrayBuffers ?? null} />
                  <td className="num">{formatMbNumber(s.fileBytes)}</td>
                  <td className="num">{(s.durationMs / 1000).toFixed(1)}</td>
                  <td className="num">{measuredRate(s, s.mbPerSec)?.toFixed(1) ?? '–'}</td>
                  <td className="num" data-field="concurrency">
                    {concurrencyText(s.concurrency)}
                  </td>
                  <td className="num" data-field="recordsPerSec" data-value={recordsPerSec ?? ''}>
                    {recordsPerSec === null ? '–' : formatPerSec(recordsPerSec)}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {unlike.length > 0 && (
        <p className="article-note" data-testid="article-note">
          Article figures are shown only beside runs of the article&apos;s experiment ({ARTICLE_RUN.sizeMb} MB file, {ARTICLE_RUN.delayMs} ms per chunk, Node{' '}
          {ARTICLE_RUN.node}); {unlike.length === 1 ? 'one run here' : `${unlike.length} runs here`} used other parameters ({unlikeParams}), so a peak beside
          the article&apos;s would compare unlike runs.
        </p>
      )}
    </>
  );
}
