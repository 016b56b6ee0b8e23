'use client';

/** One run, live: its lab's charts, progress with ETA, its figures, and the verdict. */
import { memo, useMemo } from 'react';
import type { LiveState, ProcSample, RunState, RunSummary, Sample, StrategyInfo } from '@/lib/protocol';
import { labOf, paramsOfLab, type LabId } from '@/lib/labs';
import { verdictFor } from '@/lib/readouts/verdict';
import { formatSeconds } from '@/lib/readouts/format';
import { workerText } from '@/lib/readouts/workers';
import { isActive } from '@/lib/lab-state';
import type { SampleSource } from '@/components/charts/sample-source';
import type { ScaleGroups } from '@/components/charts/scale-group';
import { useArraySource } from '@/components/hooks/useArraySource';
import { StatusBadge } from '@/components/StatusBadge';
import { RunCharts } from '@/components/run-card/RunCharts';
import { httpCard } from '@/labs/http/view/card';
import { cpuCard } from '@/labs/cpu/view/card';
import { hotcodeCard } from '@/labs/hotcode/view/card';
import { SweepChart } from '@/labs/hotcode/view/SweepChart';
import { ProfilePanel } from '@/components/profile/ProfilePanel';
import { RequestsPanel } from '@/labs/http/view/RequestsPanel';
import { deadlineCard } from '@/labs/deadline/view/card';
import { LatenessPanel } from '@/labs/deadline/view/LatenessPanel';
import { spikeBand } from '@/labs/deadline/view/series';
import { streamsCard } from '@/labs/streams/view/card';
import { commonCard } from '@/components/run-card/common-card';
import type { CardLab } from '@/components/run-card/figures';

export interface RunCardProps {
  run: RunState;
  /** The run's samples so far, updated at a human rate: figures and progress come from them. */
  samples: readonly Sample[];
  proc: readonly ProcSample[];
  /** What the run shows live beyond its samples (the CPU lab's request bars), if anything. */
  live?: LiveState;
  dropped: number;
  info: StrategyInfo | undefined;
  onStop(runId: string): void;
  /** False for another browser's run (only it, or the operator, may stop it). */
  canStop?: boolean;
  /** Its place in the room's queue while it waits. */
  waiting?: { place: number; etaMs: number | null } | null;
  /** Samples as they arrive, for the charts; without it the charts follow `samples`. */
  feed?: SampleSource<Sample>;
  /** The y-scales shared with the experiment's other cards; null for the card's own. */
  scaleGroups?: ScaleGroups | null;
  /** The experiment's finished runs: the HTTP lab's verdict compares with them. */
  siblings?: readonly RunSummary[];
}

const NO_SIBLINGS: readonly RunSummary[] = [];

/** Each lab's part of the card; a lab without one gets the figures every run has. */
const CARDS: Partial<Record<LabId, CardLab>> = { streams: streamsCard, http: httpCard, cpu: cpuCard, deadline: deadlineCard, hotcode: hotcodeCard };

/** "Waiting: #3 in the queue, about 40 s". */
function waitingText(waiting: RunCardProps['waiting']): string {
  if (!waiting) return 'Waiting for its turn';
  const eta = waiting.etaMs === null ? '' : `, about ${formatSeconds(waiting.etaMs)}`;
  return waiting.place === 1 ? `Waiting: next in the queue${eta}` : `Waiting: #${waiting.place} in the queue${eta}`;
}

function RunCardImpl({ run, samples, proc, live, dropped, info, onStop, feed, scaleGroups = null, canStop = true, waiting = null, siblings = NO_SIBLINGS }: RunCardProps) {
  const fallback = useArraySource(samples);
  const source = feed ?? fallback;
  const lab = labOf(run);
  const card = CARDS[lab] ?? commonCard;
  const active = isActive(run);
  const progress = card.progress(run, samples, active);
  const label = info?.label ?? run.strategy;
  const figures = card.figures(run.summary, samples.at(-1), proc.at(-1));
  const lastKind = !active && !run.summary ? 'last' : null;
  // The deadlines lab's spike, on the charts' axis once the load has said when its schedule began.
  const deadline = paramsOfLab(run, 'deadline');
  const scheduleStartMs = run.summary?.lab === 'deadline' ? run.summary.scheduleStartMs : samples.findLast((s) => (s.scheduleStartMs ?? -1) >= 0)?.scheduleStartMs;
  const band = useMemo(() => {
    const b = deadline ? spikeBand(deadline, scheduleStartMs) : null;
    return b ? { ...b, label: 'spike' } : null;
  }, [deadline, scheduleStartMs]);
  const bands = useMemo(() => (band ? [band] : []), [band]);

  return (
    <article
      className={`run-card panel status-${run.status}`}
      data-testid="run-card"
      data-run-id={run.id}
      data-strategy={run.strategy}
      data-status={run.status}
      data-lab={lab}
      aria-label={`${label} run`}
    >
      <header className="run-card-header">
        <h3>{label}</h3>
        {info?.mode && <span className={`badge mode-${info.mode}`}>{info.mode}</span>}
        <StatusBadge status={run.status} />
      </header>

      {lab === 'deadline' && <LatenessPanel label={label} summary={run.summary} source={source} active={active} band={band} scaleGroups={scaleGroups} />}
      <RunCharts lab={lab} label={label} source={source} active={active} scaleGroups={scaleGroups} bands={bands} />
      {lab === 'cpu' && <RequestsPanel label={label} summary={run.summary} source={source} active={active} live={live} />}
      {run.summary?.lab === 'hotcode' && run.summary.params.sweep && <SweepChart summary={run.summary} label={label} />}
      {run.summary?.profile && <ProfilePanel runId={run.id} label={label} summary={run.summary.profile} />}

      <div className="run-progress" data-testid="run-progress" data-fraction={progress.fraction.toFixed(4)}>
        <progress max={1} value={progress.fraction} aria-label={`${label}: ${progress.label}`} />
        <span>{run.status === 'queued' ? waitingText(waiting) : run.status === 'preparing' ? card.preparing(run) : progress.text}</span>
      </div>

      <dl className="run-stats">
        {figures.map((f) => (
          <div key={f.id} data-testid={`run-figure-${f.id}`} data-value={f.value ?? ''} data-kind={lastKind ?? f.kind} data-alert={f.alert ? 'true' : undefined} className={f.alert ? 'figure-alert' : undefined}>
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
      {run.worker && (
        <p className="muted run-worker" data-testid="run-worker" data-host={run.worker.host} data-worker-id={run.worker.id}>
          {workerText(run.worker)}
        </p>
      )}
      {dropped > 0 && <p className="note">{dropped} samples were merged by the server because this page read slowly.</p>}

      {active && canStop && (
        <button type="button" className="run-stop" data-testid="run-stop" onClick={() => onStop(run.id)}>
          Stop
        </button>
      )}
      {run.summary && (
        <p className={`verdict outcome-${run.summary.outcome}`} data-testid="run-verdict">
          {verdictFor(run.summary, info, siblings)}
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
