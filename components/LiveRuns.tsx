'use client';

/** The live view: a card per run of the latest experiment, and a line for runs of older ones still going. */
import { mixedMachinesWarning } from '@/lib/readouts/workers';
import { useEffect, useMemo, useState } from 'react';
import type { Experiment, RunState, RunSummary, StrategyInfo } from '@/lib/protocol';
import type { LabState } from '@/lib/lab-state';
import { isActive, isOwn, isOwnRun, queuePlace } from '@/lib/lab-state';
import { formatClock } from '@/lib/readouts/format';
import { experimentParamsText } from '@/lib/readouts/params-text';
import { RunCard } from '@/components/RunCard';
import { LastExperiment } from '@/components/LastExperiment';
import { useProgressiveCount } from '@/components/hooks/useProgressiveCount';
import { StatusBadge } from '@/components/StatusBadge';
import { ScaleGroups } from '@/components/charts/scale-group';
import type { LiveFeeds } from '@/components/charts/sample-source';
import { strategyInfo } from '@/components/history/labels';

const NO_SAMPLES: never[] = [];

export interface LiveRunsProps {
  state: LabState;
  /** The lab the page shows (an empty dashboard points to this browser's last experiment of it). */
  lab: string;
  experiment: Experiment | null;
  runs: readonly RunState[];
  /** Samples as they arrive, for the cards' charts. */
  feeds: LiveFeeds;
  onStopRun(runId: string): void;
  /** Asks for a heap snapshot of a running run; false when not sent. */
  onSnapshotRun(runId: string): boolean;
  /** Starts a run's strategy again alone with a heap snapshot (a kept verdict's button). */
  onRunAgain?(run: RunState, heapSnapshot: string): string | null;
  onStopExperiment(experimentId: string): void;
  /** Reads ended runs' series from history when the page holds none (useLabSocket's restore). */
  restore(runIds: readonly string[]): void;
  /** Why history gave a run no samples (useLabSocket's unrecorded). */
  unrecorded: Readonly<Record<string, string>>;
}

/**
 * The experiment's finished summaries, the same array while the set of finished runs stays the
 * same: the cards are memoised, and a new array on every state update would re-render them all
 * (4 times a second). A run's summary never changes once it has one (lab-state keeps it).
 */
function useSummaries(runs: readonly RunState[]): readonly RunSummary[] {
  const key = runs.map((r) => (r.summary ? r.id : '')).join(',');
  // eslint-disable-next-line react-hooks/exhaustive-deps
  return useMemo(() => runs.flatMap((r) => (r.summary ? [r.summary] : [])), [key]);
}

/** Cards for the given experiment's runs plus a compact list of other active runs. */
export function LiveRuns({ state, lab, experiment, runs, feeds, onStopRun, onSnapshotRun, onRunAgain, onStopExperiment, restore, unrecorded }: LiveRunsProps) {
  // Cards of one experiment share their y-scale unless the user asks for each card's own.
  const [sharedScale, setSharedScale] = useState(true);
  const experimentId = experiment?.id ?? null;
  const scaleGroups = useMemo(() => (experimentId && sharedScale ? new ScaleGroups() : null), [experimentId, sharedScale]);
  const siblings = useSummaries(runs);
  // Cards mount a couple per frame: a dozen at once was one long task (docs/results.md §7).
  const mounted = useProgressiveCount(runs.length, experiment?.id ?? null);
  const info = (r: RunState): StrategyInfo | undefined => strategyInfo(state.strategies, r.lab, r.strategy);
  const shown = new Set(runs.map((r) => r.id));
  // This browser's earlier runs still going; other browsers' are in the Room panel.
  const othersActive = Object.values(state.runs).filter((r) => isActive(r) && !shown.has(r.id) && isOwnRun(state, r));
  // An ended run the page holds no samples of (freed, or ended before the page joined): read it back.
  const missing = runs.filter((r) => !isActive(r) && r.startedAt !== null && !(state.samples[r.id]?.length ?? 0)).map((r) => r.id);
  const missingKey = missing.join(',');
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => restore(missing), [missingKey, restore]);
  const mayStop = experiment !== null && (isOwn(state, experiment) || (state.me?.operator ?? false));
  // The same object until the next error: the cards are memoised.
  const snapshotError = state.error?.requestType === 'run.snapshot' ? state.error : null;

  return (
    <section className="live" aria-labelledby="live-heading">
      <header className="panel-header">
        <h2 id="live-heading">Runs</h2>
        {experiment && (
          <>
            <span className="muted">
              {isOwn(state, experiment) ? 'started' : `${experiment.owner?.name ?? 'someone else'}’s experiment (watching), started`}{' '}
              {formatClock(experiment.createdAt)} · {experimentParamsText(experiment)}
            </span>
            <span className="check-inline">
              <input
                id="shared-scale"
                type="checkbox"
                data-testid="shared-scale-toggle"
                checked={sharedScale}
                onChange={(e) => setSharedScale(e.target.checked)}
              />
              <label htmlFor="shared-scale">Same y-scale on every card</label>
            </span>
            {runs.some(isActive) && mayStop && (
              <button type="button" onClick={() => onStopExperiment(experiment.id)}>
                Stop experiment
              </button>
            )}
          </>
        )}
      </header>
      {!experiment && (
        <div className="panel empty-runs">
          <p className="muted">No experiment yet: pick strategies and press Start.</p>
          <LastExperiment lab={lab} owner={state.me?.owner.id ?? null} />
        </div>
      )}
      {mixedMachinesWarning(runs) && (
        <p className="note" data-testid="mixed-machines" role="note">
          {mixedMachinesWarning(runs)}
        </p>
      )}
      <div className="run-grid">
        {runs.slice(0, mounted).map((run) => (
          <RunCard
            key={run.id}
            run={run}
            samples={state.samples[run.id] ?? NO_SAMPLES}
            proc={state.proc[run.id] ?? NO_SAMPLES}
            live={state.live[run.id]}
            dropped={state.dropped[run.id] ?? 0}
            info={info(run)}
            onStop={onStopRun}
            onSnapshot={onSnapshotRun}
            onRunAgain={onRunAgain}
            snapshotError={snapshotError}
            canStop={mayStop}
            waiting={queuePlace(state, run.id)}
            feed={feeds.feed(run.id)}
            scaleGroups={scaleGroups}
            siblings={siblings}
            historyNote={unrecorded[run.id]}
          />
        ))}
      </div>
      {othersActive.length > 0 && (
        <div className="panel other-runs">
          {/* While watching another browser's experiment, this browser's own runs stay listed here. */}
          <h3>{experiment && !isOwn(state, experiment) ? 'Your runs still going' : 'Still going from earlier experiments'}</h3>
          <ul>
            {othersActive.map((r) => (
              <li key={r.id}>
                {info(r)?.label ?? r.strategy} <StatusBadge status={r.status} />{' '}
                <button type="button" onClick={() => onStopRun(r.id)}>
                  Stop
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
