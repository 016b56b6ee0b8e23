/**
 * A run's heap readings as its card shows them: the latest allocation profile and the snapshots so
 * far, from its summary once it has ended, else from what it shows live (`run.live`: `heapProfile`
 * replaced every few seconds, `heapSnapshots` appended one per snapshot). Client-safe, pure.
 */
import { z } from 'zod';
import { heapProfileSummarySchema, heapSnapshotSummarySchema, type HeapProfileSummary, type HeapSnapshotSummary } from '../protocol/common';

export interface RunHeap {
  profile: HeapProfileSummary | null;
  snapshots: readonly HeapSnapshotSummary[];
}

/** The heap part of a run's summary (absent in runs that did not ask for it). */
export type HeapSummary = { heapProfile?: HeapProfileSummary | null; heapSnapshots?: HeapSnapshotSummary[] };

const NO_SNAPSHOTS: readonly HeapSnapshotSummary[] = [];
const liveSnapshots = z.array(heapSnapshotSummarySchema);

/** The run's heap profile: the summary's once it has one, else the live one (anything else reads as none yet). */
export function heapProfileOf(summary: HeapSummary | null, live: unknown): HeapProfileSummary | null {
  if (summary) return summary.heapProfile ?? null;
  const parsed = heapProfileSummarySchema.safeParse(live);
  return parsed.success ? parsed.data : null;
}

/** The run's heap snapshots: the summary's once it has one, else the live ones. */
export function heapSnapshotsOf(summary: HeapSummary | null, live: unknown): readonly HeapSnapshotSummary[] {
  if (summary) return summary.heapSnapshots ?? NO_SNAPSHOTS;
  const parsed = liveSnapshots.safeParse(live);
  return parsed.success ? parsed.data : NO_SNAPSHOTS;
}

/** Whether a run's params ask for its heap to be watched (a heap profile, or a snapshot trigger): its card then shows the heap panel. */
export function watchesHeap(params: { heapProfile?: boolean; heapSnapshot?: string }): boolean {
  return params.heapProfile === true || (params.heapSnapshot ?? '') !== '';
}

/** When each snapshot held the run still, on the charts' time axis (ms since the strategy started); refused ones never paused it. */
export function snapshotPauses(snapshots: readonly HeapSnapshotSummary[]): Array<{ n: number; fromMs: number; toMs: number }> {
  return snapshots.filter((s) => s.pauseMs > 0).map((s) => ({ n: s.n, fromMs: s.atMs, toMs: s.atMs + s.pauseMs }));
}
