'use client';

/**
 * What a run's heap showed, on its card and its history page: the allocations by function (heap
 * profile), "Snapshot now" while it runs, and its heap snapshots; the downloads once it is recorded.
 * Each snapshot's pause is shaded on the charts around it through ChartBands (bands.ts).
 */
import type { ReactNode } from 'react';
import { describeTrigger, parseSnapshotTrigger } from '@/lib/heap/trigger';
import type { RunHeap } from '@/lib/heap/run-heap';
import { AllocationsPanel } from './AllocationsPanel';
import { SnapshotList } from './SnapshotList';

/** Where a recorded run's heap files are served (server/http/profile-routes.ts). */
const heapFileUrl = (runId: string, file: string) => `/api/runs/${encodeURIComponent(runId)}/${file}`;

export interface HeapPanelProps {
  runId: string;
  label: string;
  heap: RunHeap;
  /** The run's heap params: whether it sampled its allocations, and its snapshot trigger. */
  params: { heapProfile?: boolean; heapSnapshot?: string };
  /** Still going: the profile is live, the files are not written yet. */
  active: boolean;
  /** The run has ended with a summary: its files are in its record. */
  recorded: boolean;
  /** "Snapshot now", while the run goes and this page may ask. */
  control?: ReactNode;
}

/** The run's snapshot trigger in words ("when arrayBuffers > 32 MB"); null without one (or one this page cannot read). */
function triggerText(spec: string | undefined): string | null {
  if (!spec) return null;
  try {
    return describeTrigger(parseSnapshotTrigger(spec));
  } catch {
    return null;
  }
}

export function HeapPanel({ runId, label, heap, params, active, recorded, control }: HeapPanelProps) {
  const profileUrl = recorded && heap.profile && !heap.profile.error ? heapFileUrl(runId, 'heap.heapprofile') : null;
  const trigger = triggerText(params.heapSnapshot);
  return (
    <section className="heap-panel" data-testid="heap-panel" aria-label={`Heap of the ${label} run`}>
      {params.heapProfile && <AllocationsPanel label={label} profile={heap.profile} live={active} downloadUrl={profileUrl} />}
      {control}
      {(heap.snapshots.length > 0 || control || trigger) && (
        <SnapshotList
          snapshots={heap.snapshots}
          trigger={trigger}
          active={active}
          downloadUrl={(n) => (recorded ? heapFileUrl(runId, `snapshot-${n}.heapsnapshot`) : null)}
        />
      )}
    </section>
  );
}
