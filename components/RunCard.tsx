'use client';

/** One run, live: its five memory series, progress with ETA, its figures, and the verdict. */
import { memo, useMemo, useState } from 'react';
import type { ProcSample, RunState, RunSummary, Sample, StrategyInfo } from '@/lib/protocol';
import { MIB } from '@/lib/params';
import { runProgress } from '@/lib/readouts/progress';
import { verdictFor } from '@/lib/readouts/verdict';
import { formatMb, formatPercent, formatSeconds } from '@/lib/readouts/format';
import { isActive } from '@/lib/lab-state';
import { TimeChart } from '@/components/charts/TimeChart';
import { EXTRA_SERIES, MEMORY_SERIES, sampleLines } from '@/components/charts/chart-lines';
import type { SampleSource } from '@/components/charts/sample-source';
import type { ScaleGroup } from '@/components/charts/scale-group';
import { useArraySource } from '@/components/hooks/useArraySource';
import { StatusBadge } from '@/components/StatusBadge';

export interface RunCardProps {
  run: RunState;
  /** The run's samples so far, updated at a human rate: figures and progress come from them. */
  samples: readonly Sample[];
  proc: readonly ProcSample[];
  dropped: number;
  info: StrategyInfo | undefined;
  onStop(runId: string): void;
  /** False for another browser's run (only it, or the operator, may stop it). */
  canStop?: boolean;
  /** Its place in the room's queue while it waits. */
  waiting?: { place: number; etaMs: number | null } | null;
  /** Samples as they arrive, for the chart; without it the chart follows `samples`. */
  feed?: SampleSource<Sample>;
  /** The y-scale shared with the experiment's other cards; null for the card's own. */
  scaleGroup?: ScaleGroup | null;
}

/** The text beside the progress bar: "12 of 31 MB (40%) · 6.2 MB/s · ETA 3.1 s". */
function progressText(processed: number, fileBytes: number, fraction: number, bytesPerSec: number | null, etaMs: number | null, live: boolean): string {
  const parts = [`${formatMb(processed).replace(/ MB$/, '')} of ${formatMb(fileBytes)} (${formatPercent(fraction)})`];
  if (live && bytesPerSec !== null) parts.push(`${(bytesPerSec / MIB).toFixed(1)} MB/s`);
  if (live && etaMs !== null && fraction < 1) parts.push(`ETA ${formatSeconds(etaMs)}`);
  return parts.join(' · ');
}

/** "Waiting: #3 in the queue, about 40 s". */
function waitingText(waiting: RunCardProps['waiting']): string {
  if (!waiting) return 'Waiting for its turn';
  const eta = waiting.etaMs === null ? '' : `, about ${formatSeconds(waiting.etaMs)}`;
  return waiting.place === 1 ? `Waiting: next in the queue${eta}` : `Waiting: #${waiting.place} in the queue${eta}`;
}

interface Figure {
  id: string;
  term: string;
  value: number | null;
  text: string;
  /** "now" while running, "peak"/"max" from the summary once ended, "last" for a run without one. */
  kind: 'now' | 'peak' | 'max' | 'last' | 'total';
}

/** A finished run shows its summary's peaks and maxima; a running one its latest sample, labelled "now". */
function runFigures(summary: RunSummary | null, last: Sample | undefined, lastProc: ProcSample | undefined): Figure[] {
  if (summary) {
    const cpuMs = summary.cpu ? summary.cpu.userMs + summary.cpu.systemMs : null;
    return [
      { id: 'el-delay', term: 'Event-loop delay', value: summary.eventLoopDelayMs.max, text: `${summary.eventLoopDelayMs.max.toFixed(1)} ms`, kind: 'max' },
      { id: 'array-buffers', term: 'arrayBuffers', value: summary.peak.arrayBuffers, text: formatMb(summary.peak.arrayBuffers), kind: 'peak' },
      { id: 'rss-outside', term: 'RSS from outside', value: summary.procPeakRss, text: formatMb(summary.procPeakRss), kind: 'peak' },
      // CPU time of the whole run (runs recorded before CPU was measured have none).
      ...(cpuMs === null ? [] : [{ id: 'cpu', term: 'CPU', value: cpuMs, text: `up to ${summary.cpu!.peakPct.toFixed(0)}% of a core, ${formatSeconds(cpuMs)}`, kind: 'total' as const }]),
    ];
  }
  const kind = 'now' as const;
  const cpuPct = last?.cpuPct ?? lastProc?.cpuPct;
  return [
    { id: 'el-delay', term: 'Event-loop delay', value: last?.elMaxMs ?? null, text: last ? `${last.elMaxMs.toFixed(1)} ms` : '–', kind },
    { id: 'array-buffers', term: 'arrayBuffers', value: last?.arrayBuffers ?? null, text: last ? formatMb(last.arrayBuffers) : '–', kind },
    { id: 'rss-outside', term: 'RSS from outside', value: lastProc?.rss ?? null, text: lastProc ? formatMb(lastProc.rss) : '–', kind },
    { id: 'cpu', term: 'CPU', value: cpuPct ?? null, text: cpuPct === undefined ? '–' : `${cpuPct.toFixed(0)}% of a core`, kind },
  ];
}

function RunCardImpl({ run, samples, proc, dropped, info, onStop, feed, scaleGroup = null, canStop = true, waiting = null }: RunCardProps) {
  const fallback = useArraySource(samples);
  const source = feed ?? fallback;
  // Memory by default; CPU (% of one core, from the child's samples) on request.
  const [view, setView] = useState<'memory' | 'cpu'>('memory');
  const lines = useMemo(() => sampleLines(source, view === 'memory' ? MEMORY_SERIES : [EXTRA_SERIES.cpuPct]), [source, view]);
  const fileBytes = run.summary?.fileBytes ?? run.fileBytes ?? run.params.sizeMb * MIB;
  const progress = useMemo(() => runProgress(samples, fileBytes), [samples, fileBytes]);
  const active = isActive(run);
  const processed = run.summary?.bytesProcessed ?? progress.processedBytes;
  const fraction = fileBytes > 0 ? Math.min(1, processed / fileBytes) : 0;
  const label = info?.label ?? run.strategy;
  const figures = runFigures(run.summary, samples.at(-1), proc.at(-1));
  const lastKind = !active && !run.summary ? 'last' : null;

  return (
    <article
      className={`run-card panel status-${run.status}`}
      data-testid="run-card"
      data-run-id={run.id}
      data-strategy={run.strategy}
      data-status={run.status}
      aria-label={`${label} run`}
    >
      <header className="run-card-header">
        <h3>{label}</h3>
        {info && <span className={`badge mode-${info.mode}`}>{info.mode}</span>}
        <StatusBadge status={run.status} />
      </header>

      <div className="chart-view" role="group" aria-label={`${label}: chart shows`}>
        {(['memory', 'cpu'] as const).map((v) => (
          <button key={v} type="button" aria-pressed={view === v} data-testid={`run-view-${v}`} onClick={() => setView(v)}>
            {v === 'memory' ? 'Memory' : 'CPU'}
          </button>
        ))}
      </div>
      <TimeChart
        testId="run-chart"
        label={`${view === 'memory' ? 'Memory' : 'CPU'} of the ${label} run over seconds`}
        lines={lines}
        height={170}
        scaleGroup={view === 'memory' ? scaleGroup : null}
        zoomable={!active}
        reportsTiming
      />

      <div className="run-progress" data-testid="run-progress" data-fraction={fraction.toFixed(4)}>
        <progress max={1} value={fraction} aria-label={`${label}: share of the file processed`} />
        <span>
          {run.status === 'queued'
            ? waitingText(waiting)
            : run.status === 'preparing'
              ? 'Preparing the data file'
              : progressText(processed, fileBytes, fraction, progress.bytesPerSec, progress.etaMs, active)}
        </span>
      </div>

      <dl className="run-stats">
        {figures.map((f) => (
          <div key={f.id} data-testid={`run-figure-${f.id}`} data-value={f.value ?? ''} data-kind={lastKind ?? f.kind}>
            <dt>{f.term}</dt>
            <dd>
              {f.text}
              {f.value !== null && <span className="figure-kind"> {lastKind ?? f.kind}</span>}
            </dd>
          </div>
        ))}
        {run.pid !== null && active && (
          <div>
            <dt>pid</dt>
            <dd>{run.pid}</dd>
          </div>
        )}
      </dl>
      {dropped > 0 && <p className="note">{dropped} samples were merged by the server because this page read slowly.</p>}

      {active && canStop && (
        <button type="button" className="run-stop" data-testid="run-stop" onClick={() => onStop(run.id)}>
          Stop
        </button>
      )}
      {run.summary && (
        <p className={`verdict outcome-${run.summary.outcome}`} data-testid="run-verdict">
          {verdictFor(run.summary, info)}
        </p>
      )}
      {!run.summary && run.status === 'interrupted' && (
        <p className="verdict outcome-crashed" data-testid="run-verdict">
          Interrupted: the server stopped while this run was going, so it has no result.
        </p>
      )}
    </article>
  );
}

/** Card for one run; re-renders only when its own run state or figures change. */
export const RunCard = memo(RunCardImpl);
