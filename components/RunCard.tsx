'use client';

/** One run, live: its lab's charts, progress with ETA, its figures, its heap when watched, and the verdict. */
import Link from 'next/link';
import { memo } from 'react';
import type { LiveState, ProcSample, RunState, RunSummary, Sample, StrategyInfo } from '@/lib/protocol';
import { labOf } from '@/lib/labs';
import { labView } from '@/labs/views';
import { verdictOf } from '@/labs/verdict-of';
import { formatSeconds } from '@/lib/readouts/format';
import { workerText } from '@/lib/readouts/workers';
import { isActive, type LabError } from '@/lib/lab-state';
import { watchesHeap } from '@/lib/heap/run-heap';
import type { SampleSource } from '@/components/charts/sample-source';
import type { ScaleGroups } from '@/components/charts/scale-group';
import { useArraySource } from '@/components/hooks/useArraySource';
import { StatusBadge } from '@/components/StatusBadge';
import { ProfilePanel } from '@/components/profile/ProfilePanel';
import { commonCard } from '@/components/run-card/common-card';
import { truthfulFigures } from '@/components/run-card/figures';
import { blockedNowMs, blockedText } from '@/lib/readouts/blocked';
import { ChartPlaceholder } from '@/components/charts/placeholder';
import { VerdictLine } from '@/components/run-card/VerdictLine';
import { ChartBands } from '@/components/charts/bands';
import { HeapPanel } from '@/components/heap/HeapPanel';
import { SnapshotButton } from '@/components/heap/SnapshotButton';
import { KeptSnapshotButton, verdictFoundKept } from '@/components/heap/KeptSnapshotButton';
import { useSnapshotBands } from '@/components/heap/bands';
import { useRunHeap } from '@/components/heap/useRunHeap';

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
  /** Asks for a heap snapshot of the running run (false: not sent); without it the card offers none. */
  onSnapshot?(runId: string): boolean;
  /** Starts this run's strategy again alone with these extra params (a kept verdict's snapshot); a refusal's words, or null. */
  onRunAgain?(run: RunState, heapSnapshot: string): string | null;
  /** The page's latest refusal of a snapshot (an error answering run.snapshot), for the card that asked. */
  snapshotError?: LabError | null;
  /** False for another browser's run (only it, or the operator, may stop it, or snapshot it). */
  canStop?: boolean;
  /** Its place in the room's queue while it waits. */
  waiting?: { place: number; etaMs: number | null } | null;
  /** Samples as they arrive, for the charts; without it the charts follow `samples`. */
  feed?: SampleSource<Sample>;
  /** The y-scales shared with the experiment's other cards; null for the card's own. */
  scaleGroups?: ScaleGroups | null;
  /** The experiment's finished runs: the HTTP lab's verdict compares with them. */
  siblings?: readonly RunSummary[];
  /** Why an ended run's charts stay empty (history had none, or could not be read); unset while reading. */
  historyNote?: string;
}

const NO_SIBLINGS: readonly RunSummary[] = [];

/** What the card's empty charts say: an ended run never "waits", since nothing more will come. */
function placeholderOf(run: RunState, active: boolean, historyNote: string | undefined): string {
  if (active) return 'Waiting for samples…';
  if (run.startedAt === null) return 'This run ended before it started: no samples';
  return historyNote ?? 'Reading this run’s samples from history…';
}

/** "Waiting: #3 in the queue, about 40 s". */
function waitingText(waiting: RunCardProps['waiting']): string {
  if (!waiting) return 'Waiting for its turn';
  const eta = waiting.etaMs === null ? '' : `, about ${formatSeconds(waiting.etaMs)}`;
  return waiting.place === 1 ? `Waiting: next in the queue${eta}` : `Waiting: #${waiting.place} in the queue${eta}`;
}

function RunCardImpl({
  run,
  samples,
  proc,
  live,
  dropped,
  info,
  onStop,
  onSnapshot,
  onRunAgain,
  snapshotError = null,
  feed,
  scaleGroups = null,
  canStop = true,
  waiting = null,
  siblings = NO_SIBLINGS,
  historyNote,
}: RunCardProps) {
  const fallback = useArraySource(samples);
  const source = feed ?? fallback;
  // The /proc readings follow React state (a human rate): enough for lines that matter while the loop is blocked.
  const outside = useArraySource(proc);
  const lab = labOf(run);
  const view = labView(lab);
  // A lab without a view half gets the figures every run has, and no charts of its own.
  const card = view?.card ?? commonCard;
  const active = isActive(run);
  const progress = card.progress(run, samples, active);
  const label = info?.label ?? run.strategy;
  const blockedMs = run.status === 'running' ? blockedNowMs(samples.at(-1), proc.at(-1), run.params.sampleMs) : null;
  const figures = truthfulFigures(card.figures(run.summary, samples.at(-1), proc.at(-1), info?.role, { run, samples }), run.summary, blockedMs, proc.at(-1));
  const lastKind = !active && !run.summary ? 'last' : null;
  const heap = useRunHeap(run.summary, live);
  const bands = useSnapshotBands(heap.snapshots);
  const verdict = run.summary ? verdictOf(run.summary, info, siblings) : null;
  const snapshotControl =
    onSnapshot && canStop && run.status === 'running' ? (
      <SnapshotButton runId={run.id} count={heap.snapshots.length} error={snapshotError} onSnapshot={onSnapshot} />
    ) : null;

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
        {info?.origin === 'yours' && (
          <span className="badge badge-yours" title={`A strategy of yours, from ${info.file ?? 'its file'}; run fenced`} data-testid="run-card-yours">
            yours
          </span>
        )}
        <StatusBadge status={run.status} />
        {blockedMs !== null && (
          <span className="badge badge-blocked" data-testid="run-blocked" data-blocked-ms={Math.round(blockedMs)} role="status">
            {blockedText(blockedMs)}
          </span>
        )}
        {/* Once ended, the run's own page: its recorded series and figures, a link to keep or share. */}
        {!active && (
          <Link href={`/runs/${run.id}`} className="run-card-link" data-testid="run-card-link" aria-label={`${label} run's page`}>
            Run page
          </Link>
        )}
      </header>

      {view && (
        <ChartPlaceholder.Provider value={placeholderOf(run, active, historyNote)}>
          <ChartBands.Provider value={bands}>
            <view.RunCharts run={run} samples={samples} label={label} source={source} outside={outside} active={active} scaleGroups={scaleGroups} live={live} />
          </ChartBands.Provider>
        </ChartPlaceholder.Provider>
      )}
      {run.summary?.profile && <ProfilePanel runId={run.id} label={label} summary={run.summary.profile} />}

      <div className="run-progress" data-testid="run-progress" data-fraction={progress.fraction.toFixed(4)}>
        <progress max={1} value={progress.fraction} aria-label={`${label}: ${progress.label}`} />
        <span>{run.status === 'queued' ? waitingText(waiting) : run.status === 'preparing' ? card.preparing(run) : progress.text}</span>
      </div>

      <dl className="run-stats">
        {figures.map((f) => (
          <div
            key={f.id}
            data-testid={`run-figure-${f.id}`}
            data-value={f.value ?? ''}
            data-kind={lastKind ?? f.kind}
            data-alert={f.alert ? 'true' : undefined}
            className={f.alert ? 'figure-alert' : undefined}
          >
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
      {watchesHeap(run.params) && (
        <HeapPanel runId={run.id} label={label} heap={heap} params={run.params} active={active} recorded={run.summary !== null} control={snapshotControl} />
      )}

      {active && canStop && (
        <button type="button" className="run-stop" data-testid="run-stop" onClick={() => onStop(run.id)}>
          Stop
        </button>
      )}
      {run.summary && <VerdictLine outcome={run.summary.outcome} verdict={verdict} />}
      {run.summary && onRunAgain && verdictFoundKept(verdict) && !watchesHeap(run.params) && <KeptSnapshotButton run={run} onRunAgain={onRunAgain} />}
      {!run.summary && run.status === 'interrupted' && (
        <VerdictLine
          outcome="crashed"
          verdict={{ text: 'Interrupted: the server stopped while this run was going, so it has no result.', figures: {}, expected: null }}
        />
      )}
    </article>
  );
}

/** Card for one run; re-renders only when its own run state or figures change. */
export const RunCard = memo(RunCardImpl);
