'use client';

/**
 * The verdict said the strategy keeps what it read (`keptBytes` in its figures): a finished run can't
 * be snapshotted any more, so this offers the same run again, alone, with a heap snapshot taken near
 * where the kept memory stood (its last fifth), so the snapshot's holders name what keeps it.
 */
import type { RunState, Verdict } from '@/lib/protocol';

/** The `heapSnapshot` trigger for a run like this one: at four fifths of its duration, at least 1 s in. */
export function keptSnapshotTrigger(durationMs: number): string {
  return `at=${Math.max(1, Math.round((0.8 * durationMs) / 1000))}`;
}

/** Whether a verdict found memory the strategy keeps (what the button is for). */
export function verdictFoundKept(verdict: Verdict | null): boolean {
  return typeof verdict?.figures.keptBytes === 'number' && verdict.figures.keptBytes > 0;
}

export function KeptSnapshotButton({ run, onRunAgain }: { run: RunState; onRunAgain(run: RunState, heapSnapshot: string): string | null }) {
  const durationMs = run.summary?.durationMs ?? 0;
  return (
    <div className="kept-snapshot">
      <button
        type="button"
        data-testid="kept-snapshot"
        onClick={() => {
          const refusal = onRunAgain(run, keptSnapshotTrigger(durationMs));
          if (refusal) window.alert(refusal);
        }}
      >
        Snapshot: run it again with a heap snapshot
      </button>
      <span className="muted"> shows what holds the memory it kept (a new run of this strategy alone)</span>
    </div>
  );
}
