'use client';

/**
 * /embed/experiment?strategies=…&sizeMb=…: a preset experiment for training material. Shows the
 * preset and a Start button; nothing starts until the visitor presses it. The runs it started are
 * shown live, like in the lab.
 */
import { useCallback, useMemo, useState } from 'react';
import { useLabSocket } from '@/components/hooks/useLabSocket';
import { buildStartMessage, formFromQuery, labFromQuery, type BuildResult, type ExperimentFormValues } from '@/lib/form/experiment-form';
import { runsOf } from '@/lib/lab-state';
import { labSchema } from '@/labs/schemas';
import { RunCard } from '@/components/RunCard';
import { ComparisonPanel } from '@/components/ComparisonPanel';
import { ConnectionStatus } from '@/components/ConnectionStatus';
import { strategyInfo, strategyLabel } from '@/components/history/labels';

/** "4 MB file · 1 ms/chunk · 64 KB chunks", "1,000-row table · 20 requests · …": the preset, in its lab's words. */
function presetText(values: ExperimentFormValues, built: BuildResult | null): string {
  const main = built?.ok
    ? (labSchema(values.lab)
        ?.describe(built.message.params as Record<string, unknown>, 'experiment')
        .join(' · ') ?? '')
    : '';
  return `${main}${values.retained ? ' · retained' : ''}${values.parallel ? ' · in parallel' : ''}`;
}

/** The embeddable preset experiment. */
export function EmbedExperiment({ query }: { query: string }) {
  const { state, connection, send, feeds } = useLabSocket();
  // Experiments that existed when Start was pressed: the first new one with our strategies is ours.
  const [startedAfter, setStartedAfter] = useState<Set<string> | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The link names its lab (lab=http; none: streams): its strategies are that lab's.
  const lab = labFromQuery(new URLSearchParams(query)).lab;
  const catalog = useMemo(() => state.strategies.filter((s) => s.lab === lab).map((s) => s.id), [state.strategies, lab]);
  const preset = useMemo(
    () => (state.synced ? formFromQuery(new URLSearchParams(query), catalog, state.maxSizeMb) : null),
    [state.synced, query, catalog, state.maxSizeMb],
  );
  const built = preset ? buildStartMessage(preset.values, catalog, state.maxSizeMb) : null;

  const ours = useMemo(() => {
    if (!startedAfter || !built?.ok) return null;
    const want = built.message.strategies.join(',');
    return state.experiments.find((e) => !startedAfter.has(e.id) && e.strategies.join(',') === want) ?? null;
  }, [startedAfter, built, state.experiments]);
  const runs = ours ? runsOf(state, ours) : [];

  const start = () => {
    if (!built?.ok) return;
    setError(null);
    setStartedAfter(new Set(state.experiments.map((e) => e.id)));
    if (!send(built.message)) setError('Not connected to the server yet.');
  };
  const stop = useCallback((runId: string) => send({ type: 'run.stop', runId }), [send]);
  const labels = (ids: readonly string[]) => ids.map((id) => strategyLabel(state.strategies, lab, id)).join(' vs ');

  return (
    <main className="embed" data-testid="embed-experiment">
      <section className="embed-card">
        <header className="run-detail-header">
          <h2>{preset ? labels(preset.values.strategies) : 'Stream Lab experiment'}</h2>
          <ConnectionStatus connection={connection} />
        </header>
        {preset && (
          <p className="muted" data-testid="embed-preset">
            {presetText(preset.values, built)}
          </p>
        )}
        {preset && preset.notes.length > 0 && (
          <p className="note" data-testid="share-notes">
            Ignored in the link: {preset.notes.join('; ')}
          </p>
        )}
        {built && !built.ok && (
          <p className="form-error" role="alert">
            {built.error}
          </p>
        )}
        <div className="actions">
          <button type="button" className="primary" data-testid="embed-start" onClick={start} disabled={connection !== 'connected' || !built?.ok}>
            {ours ? 'Start again' : 'Start'}
          </button>
        </div>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
      </section>
      {runs.length > 0 && (
        <div className="embed-runs">
          {runs.map((run) => (
            <RunCard
              key={run.id}
              run={run}
              samples={state.samples[run.id] ?? []}
              proc={state.proc[run.id] ?? []}
              dropped={state.dropped[run.id] ?? 0}
              info={strategyInfo(state.strategies, run.lab, run.strategy)}
              onStop={stop}
              feed={feeds.feed(run.id)}
            />
          ))}
        </div>
      )}
      {/* The strategies on one chart, as on the dashboard: the point of running them side by side. */}
      {runs.length > 1 && <ComparisonPanel runs={runs} feeds={feeds} strategies={state.strategies} lab={lab} />}
      <p className="embed-credit">
        <a href={`/?${query}`} target="_blank" rel="noopener">
          Open in Stream Lab
        </a>
      </p>
    </main>
  );
}
