'use client';

/**
 * What the page does after Start: the Runs section begins below the fold on a laptop and far down
 * on a phone, so once the new experiment arrives the page brings it into view (instantly when the
 * visitor asked for reduced motion) and says so to screen readers; it says so again when it ends.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Experiment, RunState, StrategyInfo } from '@/lib/protocol';
import { isActive } from '@/lib/lab-state';
import { strategyLabel } from '@/components/history/labels';

/** A Start whose experiment has not shown up by then (refused by the server) is forgotten. */
const PENDING_MS = 15_000;
/** The element brought into view: the heading of the Runs section (LiveRuns). */
const RUNS_HEADING_ID = 'live-heading';

export interface StartFeedback {
  /** Call when an experiment.start was sent. */
  markStarted(): void;
  /** The latest announcement, for an aria-live region. */
  announcement: string;
}

function bringRunsIntoView(): void {
  const heading = document.getElementById(RUNS_HEADING_ID);
  if (!heading) return;
  const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  heading.scrollIntoView({ behavior: reduce ? 'auto' : 'smooth', block: 'start' });
}

function outcomeCounts(runs: readonly RunState[]): string {
  const counts = new Map<string, number>();
  for (const r of runs) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
  return [...counts].map(([status, n]) => `${n} ${status}`).join(', ');
}

/** Scrolls to and announces the experiment a Start on this page created, and its end. */
export function useStartFeedback(experiment: Experiment | null, runs: readonly RunState[], strategies: readonly StrategyInfo[]): StartFeedback {
  const [announcement, setAnnouncement] = useState('');
  // The latest experiment id when Start was pressed: the next different one is ours.
  const pending = useRef<{ before: string | null; at: number } | null>(null);
  const watching = useRef<string | null>(null);
  const latestId = experiment?.id ?? null;

  const markStarted = useCallback(() => {
    pending.current = { before: latestId, at: Date.now() };
  }, [latestId]);

  useEffect(() => {
    const p = pending.current;
    if (!p || !experiment || experiment.id === p.before) return;
    pending.current = null;
    if (Date.now() - p.at > PENDING_MS) return;
    watching.current = experiment.id;
    const labels = experiment.strategies.map((id) => strategyLabel(strategies, experiment.lab, id));
    setAnnouncement(`Experiment started: ${labels.length} run${labels.length === 1 ? '' : 's'} (${labels.join(', ')}), shown under Runs.`);
    bringRunsIntoView();
  }, [experiment, strategies]);

  const allEnded = runs.length > 0 && !runs.some(isActive);
  useEffect(() => {
    if (!allEnded || watching.current === null || watching.current !== latestId) return;
    watching.current = null;
    setAnnouncement(`Experiment finished: ${outcomeCounts(runs)}. Verdicts are on the run cards, figures under Results.`);
  }, [allEnded, latestId, runs]);

  return { markStarted, announcement };
}
