'use client';

/** One run, live: its five memory series, progress with ETA, event-loop delay, and the verdict. */
import { memo, useMemo } from 'react';
import type { ProcSample, RunState, Sample, StrategyInfo } from '@/lib/protocol';
import { MIB } from '@/lib/params';
import { runProgress } from '@/lib/progress';
import { verdictFor } from '@/lib/verdict';
import { formatMb, formatPercent, formatSeconds } from '@/lib/format';
import { isActive } from '@/lib/lab-state';
import { MemoryChart } from '@/components/charts/MemoryChart';
import { memorySeries } from '@/components/charts/series';
import { StatusBadge } from '@/components/StatusBadge';

export interface RunCardProps {
  run: RunState;
  samples: readonly Sample[];
  proc: readonly ProcSample[];
  dropped: number;
  info: StrategyInfo | undefined;
  onStop(runId: string): void;
  /** False for another browser's run (only it, or the operator, may stop it). */
  canStop?: boolean;
  /** Its place in the room's queue while it waits. */
  waiting?: { place: number; etaMs: number | null } | null;
}

/** A card's chart is ~300 px wide: more points than this per series would not show, only cost. */
const CARD_POINTS_PER_SERIES = 200;

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

function RunCardImpl({ run, samples, proc, dropped, info, onStop, canStop = true, waiting = null }: RunCardProps) {
  const series = useMemo(() => memorySeries(samples), [samples]);
  const fileBytes = run.summary?.fileBytes ?? run.fileBytes ?? run.params.sizeMb * MIB;
  const progress = useMemo(() => runProgress(samples, fileBytes), [samples, fileBytes]);
  const active = isActive(run);
  const processed = run.summary?.bytesProcessed ?? progress.processedBytes;
  const fraction = fileBytes > 0 ? Math.min(1, processed / fileBytes) : 0;
  const last = samples.at(-1);
  const lastProc = proc.at(-1);
  const label = info?.label ?? run.strategy;

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

      <MemoryChart testId="run-chart" label={`Memory of the ${label} run, MB over seconds`} series={series} sampleCount={samples.length} height={170} maxPointsPerSeries={CARD_POINTS_PER_SERIES} />

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
        <div>
          <dt>Event-loop delay</dt>
          <dd>{last ? `${last.elMaxMs.toFixed(1)} ms max` : '–'}</dd>
        </div>
        <div>
          <dt>arrayBuffers</dt>
          <dd>{last ? formatMb(last.arrayBuffers) : '–'}</dd>
        </div>
        <div>
          <dt>RSS from outside</dt>
          <dd>{lastProc ? formatMb(lastProc.rss) : '–'}</dd>
        </div>
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

/** Card for one run; re-renders only when its own run state or samples change. */
export const RunCard = memo(RunCardImpl);
