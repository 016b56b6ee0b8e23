'use client';

/**
 * The frame of one run inside a walkthrough step, for every lab: the strategy and its status, the
 * lab's chart (children), and once the run has a summary, the figures the step concludes from.
 * `data` goes onto the figures as data-* attributes: the e2e tests read the measured numbers there.
 */
import type { ReactNode } from 'react';
import type { RunState } from '@/lib/protocol';
import { StatusBadge } from '@/components/StatusBadge';
import { HeapPanel } from '@/components/heap/HeapPanel';
import { ChartBands } from '@/components/charts/bands';
import { useSnapshotBands } from '@/components/heap/bands';
import { heapProfileOf, heapSnapshotsOf, watchesHeap } from '@/lib/heap/run-heap';

const NO_SNAPSHOTS: ReturnType<typeof heapSnapshotsOf> = [];

export interface LessonRunPanelProps {
  run: RunState;
  /** The figures, or null while the run has no summary. */
  figures: { data: Record<string, string | number | boolean>; items: ReadonlyArray<[term: string, value: ReactNode]> } | null;
  children?: ReactNode;
  /** What the header calls the run (default: its strategy id). */
  name?: string;
}

export function LessonRunPanel({ run, figures, children, name = run.strategy }: LessonRunPanelProps) {
  const data = figures ? Object.fromEntries(Object.entries(figures.data).map(([k, v]) => [`data-${k}`, String(v)])) : {};
  const snapshots = run.summary ? heapSnapshotsOf(run.summary, null) : NO_SNAPSHOTS;
  // A snapshot's pause shaded on the lab's charts, as on a run card.
  const bands = useSnapshotBands(snapshots);
  return (
    <section
      className="lesson-run"
      data-testid="lesson-run-panel"
      data-run-id={run.id}
      data-strategy={run.strategy}
      data-status={run.status}
      aria-label={`${name} run`}
    >
      <header className="lesson-run-header">
        <h4>{name}</h4>
        <StatusBadge status={run.status} />
      </header>
      <ChartBands.Provider value={bands}>{children}</ChartBands.Provider>
      {figures && run.summary && (
        <dl className="lesson-figures" data-testid="lesson-run-result" data-strategy={run.summary.strategy} data-outcome={run.summary.outcome} {...data}>
          {figures.items.map(([term, value]) => (
            <div key={term}>
              <dt>{term}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      )}
      {/* A step that snapshots its runs (the streams walkthrough's "Who holds the file?") shows each run's findings under it, side by side. */}
      {run.summary && watchesHeap(run.params) && (
        <HeapPanel runId={run.id} label={name} heap={{ profile: heapProfileOf(run.summary, null), snapshots }} params={run.params} active={false} recorded />
      )}
    </section>
  );
}
