/** A run's heap readings for its card, the same objects while they are: its charts rebuild only when a snapshot arrives. */
import { useMemo } from 'react';
import type { LiveState } from '@/lib/protocol';
import { heapProfileOf, heapSnapshotsOf, type HeapSummary, type RunHeap } from '@/lib/heap/run-heap';

export function useRunHeap(summary: HeapSummary | null, live: LiveState | undefined): RunHeap {
  // mergeLive keeps a key's value when an update leaves it alone: a new profile keeps the snapshots' array.
  const liveProfile = live?.heapProfile;
  const liveSnapshots = live?.heapSnapshots;
  const profile = useMemo(() => heapProfileOf(summary, liveProfile), [summary, liveProfile]);
  const snapshots = useMemo(() => heapSnapshotsOf(summary, liveSnapshots), [summary, liveSnapshots]);
  return useMemo(() => ({ profile, snapshots }), [profile, snapshots]);
}
