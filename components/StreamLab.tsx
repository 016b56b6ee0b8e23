'use client';

/** The whole page: form, live runs, comparison, results and code, fed by one socket. */
import Link from 'next/link';
import { useCallback, useMemo, useState } from 'react';
import { useLabSocket } from '@/components/hooks/useLabSocket';
import { defaultFormValues, type ExperimentFormValues } from '@/lib/form/experiment-form';
import { followedExperiment, isActive, runsOf } from '@/lib/lab-state';
import { RoomPanel } from '@/components/RoomPanel';
import { ConnectionStatus } from '@/components/ConnectionStatus';
import { ExperimentForm } from '@/components/ExperimentForm';
import { DataProgress } from '@/components/DataProgress';
import { LiveRuns } from '@/components/LiveRuns';
import { ComparisonPanel } from '@/components/ComparisonPanel';
import { ResultsPanel } from '@/components/ResultsPanel';
import { CodePanel } from '@/components/CodePanel';
import { LessonsLink } from '@/components/lessons/LessonsLink';
// readouts: scroll to and announce the runs a Start created; prefill the form with a running experiment.
import { useStartFeedback } from '@/components/hooks/useStartFeedback';

/** Root client component of Stream Lab. */
export function StreamLab() {
  const { state, connection, feeds, send, reintroduce } = useLabSocket();
  const [form, setForm] = useState<ExperimentFormValues>(defaultFormValues);
  // An experiment of someone else's chosen in the Room panel; null: this browser's latest.
  const [watching, setWatching] = useState<string | null>(null);

  const experiment = followedExperiment(state, watching);
  const runs = useMemo(() => (experiment ? runsOf(state, experiment) : []), [state, experiment]);

  // readouts (start feedback, prefill)
  const feedback = useStartFeedback(experiment, runs, state.strategies);
  const runningExperiment = runs.some(isActive) ? experiment : null;

  const stopRun = useCallback((runId: string) => send({ type: 'run.stop', runId }), [send]);
  const stopExperiment = useCallback((experimentId: string) => send({ type: 'experiment.stop', experimentId }), [send]);

  // Code for what is ticked now and for what the latest experiment ran, in catalog order.
  const codeStrategies = useMemo(() => {
    const ids = new Set([...form.strategies, ...runs.map((r) => r.strategy)]);
    return state.strategies.filter((s) => ids.has(s.id));
  }, [form.strategies, runs, state.strategies]);

  return (
    <>
      <header className="site-header">
        <div>
          <h1>Stream Lab</h1>
          <p className="tagline">
            Push readers buffer the whole file; pull readers stay flat. Watch <code>process.memoryUsage()</code> while a slow consumer
            reads.
          </p>
        </div>
        <div className="header-meta">
          <Link href="/runs" data-testid="history-link">
            History
          </Link>
          <LessonsLink />
          <ConnectionStatus connection={connection} />
          {state.nodeVersion && <p className="muted">Node {state.nodeVersion}</p>}
        </div>
      </header>
      <main className="layout">
        <ExperimentForm
          strategies={state.strategies}
          maxSizeMb={state.maxSizeMb}
          connected={connection === 'connected'}
          values={form}
          onChange={setForm}
          send={send}
          serverError={state.error}
          runningExperiment={runningExperiment}
          operator={state.me?.operator ?? false}
          onStarted={() => {
            setWatching(null);
            feedback.markStarted();
          }}
        />
        <p className="visually-hidden" role="status" aria-live="polite" data-testid="runs-announcer">
          {feedback.announcement}
        </p>
        <RoomPanel
          state={state}
          watching={watching}
          onWatch={setWatching}
          onStop={stopExperiment}
          onIdentityChange={reintroduce}
        />
        <DataProgress data={state.data} />
        <LiveRuns state={state} experiment={experiment} runs={runs} feeds={feeds} onStopRun={stopRun} onStopExperiment={stopExperiment} />
        <ComparisonPanel runs={runs} feeds={feeds} strategies={state.strategies} />
        <ResultsPanel state={state} latestRuns={runs} />
        <CodePanel strategies={codeStrategies} />
      </main>
    </>
  );
}
