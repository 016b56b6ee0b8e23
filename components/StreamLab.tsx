'use client';

/** The whole page: lab switch, form, live runs, comparison, results and code, fed by one socket. */
import Link from 'next/link';
import { useCallback, useMemo, useState, useSyncExternalStore } from 'react';
import { useLabSocket } from '@/components/hooks/useLabSocket';
import { buildStartMessage, DEFAULT_FORM_LAB, defaultFormValues, labFromQuery, type ExperimentFormValues } from '@/lib/form/experiment-form';
import { followedExperiment, isActive, isOwnRun, runsOf } from '@/lib/lab-state';
import { isPageLab, LAB_NAMES, labOf, PAGE_LABS, type PageLabId } from '@/lib/labs';
import type { RunState } from '@/lib/protocol';
import { RoomPanel } from '@/components/RoomPanel';
import { ConnectionStatus } from '@/components/ConnectionStatus';
import { ThemeToggle } from '@/components/ThemeToggle';
import { ExperimentForm } from '@/components/ExperimentForm';
import { DataProgress } from '@/components/DataProgress';
import { QueueBackendNotice } from '@/components/QueueBackendNotice';
import { LabSwitch } from '@/components/LabSwitch';
import { LiveRuns } from '@/components/LiveRuns';
import { ComparisonPanel } from '@/components/ComparisonPanel';
import { ResultsPanel } from '@/components/ResultsPanel';
import { CodePanel } from '@/components/CodePanel';
import { LessonsLink } from '@/components/lessons/LessonsLink';
import { labView } from '@/labs/views';
// readouts: scroll to and announce the runs a Start created; prefill the form with a running experiment.
import { useStartFeedback } from '@/components/hooks/useStartFeedback';

/** The lab a link names, read after hydration (the server renders the default lab). */
function useLinkedLab(): PageLabId {
  return useSyncExternalStore(
    () => () => {},
    () => labFromQuery(new URLSearchParams(window.location.search)).lab,
    () => DEFAULT_FORM_LAB,
  );
}

/** The lab id a link names when no lab has it (read after hydration), else null. */
function useUnknownLinkedLab(): string | null {
  return useSyncExternalStore(
    () => () => {},
    () => {
      const raw = new URLSearchParams(window.location.search).get('lab');
      return raw && !isPageLab(raw) ? raw : null;
    },
    () => null,
  );
}

/** What a link to a lab this Stream Lab does not have gets: that said, and the labs it has; never another lab's page. */
function NoSuchLab({ id }: { id: string }) {
  return (
    <>
      <header className="site-header">
        <div className="site-title">
          <h1>Stream Lab</h1>
        </div>
        <div className="header-meta">
          <Link href="/runs" data-testid="history-link">
            History
          </Link>
        </div>
      </header>
      <main className="layout">
        <section className="panel" data-testid="no-such-lab" aria-labelledby="no-such-lab-heading">
          <h2 id="no-such-lab-heading">No such lab</h2>
          <p>
            This link asks for the lab <code>{id.slice(0, 40)}</code>, which this Stream Lab does not have (a lab id is one of its folders in labs/). The labs
            it has:
          </p>
          <ul>
            {PAGE_LABS.map((l) => (
              <li key={l}>
                {/* A full load, not a client navigation: the page reads its lab from the URL once, when it loads. */}
                <a href={`/?lab=${l}`} data-testid={`no-such-lab-link-${l}`}>
                  {LAB_NAMES[l]}
                </a>{' '}
                <span className="muted">({l})</span>
              </li>
            ))}
          </ul>
        </section>
      </main>
    </>
  );
}

/** Root client component of Stream Lab: the lab a link names, or a "no such lab" page for an unknown one. */
export function StreamLab() {
  const unknown = useUnknownLinkedLab();
  return unknown === null ? <LabPage /> : <NoSuchLab id={unknown} />;
}

function LabPage() {
  const { state, connection, feeds, send, reintroduce, restore, unrecorded } = useLabSocket();
  // Each lab keeps its own form, so switching back finds it as it was left.
  const [forms, setForms] = useState<Record<PageLabId, ExperimentFormValues>>(
    () => Object.fromEntries(PAGE_LABS.map((l) => [l, defaultFormValues(l)])) as Record<PageLabId, ExperimentFormValues>,
  );
  // The lab chosen on this page; until then, the one the link names.
  const linked = useLinkedLab();
  const [chosen, setChosen] = useState<PageLabId | null>(null);
  const lab = chosen ?? linked;
  const form = forms[lab];
  const setForm = useCallback((values: ExperimentFormValues) => {
    setForms((prev) => ({ ...prev, [values.lab]: values }));
    setChosen(values.lab);
  }, []);
  // An experiment of someone else's chosen in the Room panel; null: this browser's latest of the lab.
  const [watching, setWatching] = useState<string | null>(null);

  const experiment = followedExperiment(state, watching, lab);
  const runs = useMemo(() => (experiment ? runsOf(state, experiment) : []), [state, experiment]);
  // A page opened while this browser's experiment runs shows that experiment's form, whatever its lab.
  const latest = followedExperiment(state, null);
  const runningExperiment = latest && isPageLab(latest.lab) && runsOf(state, latest).some(isActive) ? latest : null;
  const operator = state.me?.operator ?? false;
  // Stop all / Stop mine is offered only while it would stop something.
  const stoppable = Object.values(state.runs).some((r) => isActive(r) && (operator || isOwnRun(state, r)));
  const labStrategies = useMemo(() => state.strategies.filter((s) => s.lab === lab), [state.strategies, lab]);

  // readouts (start feedback, prefill)
  const feedback = useStartFeedback(experiment, runs, state.strategies);

  const stopRun = useCallback((runId: string) => send({ type: 'run.stop', runId }), [send]);
  const stopExperiment = useCallback((experimentId: string) => send({ type: 'experiment.stop', experimentId }), [send]);
  const snapshotRun = useCallback((runId: string) => send({ type: 'run.snapshot', runId }), [send]);
  const watch = (id: string | null) => {
    setWatching(id);
    // Watching shows that experiment's lab, so its form and results match its cards.
    const e = id === null ? null : state.experiments.find((x) => x.id === id);
    const of = e ? labOf(e) : null;
    if (isPageLab(of)) setChosen(of);
  };

  // A kept verdict's Snapshot: the run's own strategy and params again, alone, with a heap snapshot.
  const runAgainWithSnapshot = (run: RunState, heapSnapshot: string): string | null => {
    const message = { type: 'experiment.start' as const, lab: run.lab, strategies: [run.strategy], params: { ...run.params, heapSnapshot }, parallel: false };
    if (!send(message)) return 'Not started: not connected to the server.';
    setWatching(null);
    feedback.markStarted();
    return null;
  };

  // A copy saved in the code panel's editor, started beside its original with this form's knobs.
  const runBeside = (originalId: string, copyId: string): string | null => {
    const values = { ...form, strategies: [originalId, copyId] };
    setForm(values);
    // The copy is in the catalog once the server has read it; until then it goes last.
    const order = labStrategies.map((s) => s.id);
    const built = buildStartMessage(values, order.includes(copyId) ? order : [...order, copyId], state.maxSizeMb);
    if (!built.ok) return `Not started: ${built.error}`;
    if (!send(built.message)) return 'Not started: not connected to the server.';
    setWatching(null);
    feedback.markStarted();
    return null;
  };

  // Code for what is ticked now and for what the latest experiment ran, in catalog order.
  const codeStrategies = useMemo(() => {
    const ids = new Set([...form.strategies, ...runs.map((r) => r.strategy)]);
    return state.strategies.filter((s) => s.lab === lab && ids.has(s.id));
  }, [form.strategies, runs, state.strategies, lab]);

  return (
    <>
      <header className="site-header">
        <div>
          <div className="site-title">
            <h1>Stream Lab</h1>
            <LabSwitch lab={lab} onChange={(l) => setChosen(l)} />
          </div>
          <p className="tagline" data-testid="tagline">
            {labView(lab)?.tagline}
          </p>
        </div>
        <div className="header-meta">
          <Link href="/runs" data-testid="history-link">
            History
          </Link>
          <LessonsLink lab={lab} />
          <ConnectionStatus connection={connection} />
          {state.nodeVersion && <p className="muted">Node {state.nodeVersion}</p>}
          <ThemeToggle />
        </div>
      </header>
      <main className="layout">
        <ExperimentForm
          strategies={labStrategies}
          catalog={state.strategies}
          maxSizeMb={state.maxSizeMb}
          connected={connection === 'connected'}
          values={form}
          onChange={setForm}
          send={send}
          serverError={state.error}
          runningExperiment={runningExperiment}
          identified={state.me !== null}
          operator={operator}
          stoppable={stoppable}
          runtimes={state.runtimes}
          onStarted={() => {
            setWatching(null);
            feedback.markStarted();
          }}
        />
        <p className="visually-hidden" role="status" aria-live="polite" data-testid="runs-announcer">
          {feedback.announcement}
        </p>
        <RoomPanel state={state} watching={watching} onWatch={watch} onStop={stopExperiment} onIdentityChange={reintroduce} />
        <QueueBackendNotice backend={state.backend} />
        <DataProgress data={state.data} />
        <LiveRuns
          state={state}
          lab={lab}
          experiment={experiment}
          runs={runs}
          feeds={feeds}
          onStopRun={stopRun}
          onSnapshotRun={snapshotRun}
          onRunAgain={runAgainWithSnapshot}
          onStopExperiment={stopExperiment}
          restore={restore}
          unrecorded={unrecorded}
        />
        <ComparisonPanel runs={runs} feeds={feeds} strategies={state.strategies} lab={experiment ? labOf(experiment) : lab} />
        <ResultsPanel state={state} latestRuns={runs} lab={lab} />
        <CodePanel strategies={codeStrategies} labIds={labStrategies.map((s) => s.id)} onRunBeside={runBeside} />
      </main>
    </>
  );
}
