import { describe, expect, it } from 'vitest';
import type { HeapProfileSummary, HeapSnapshotSummary } from '../protocol';
import { heapProfileOf, heapSnapshotsOf, snapshotPauses, watchesHeap } from './run-heap';

const profile = (atMs: number): HeapProfileSummary => ({ intervalKb: 512, sampledBytes: 1 << 20, atMs, top: [], error: null });
const snapshot = (n: number, atMs: number, pauseMs: number, error: string | null = null): HeapSnapshotSummary => ({
  n,
  trigger: 'now',
  atMs,
  pauseMs,
  before: null,
  bytes: pauseMs > 0 ? 1000 : 0,
  analysis: null,
  error,
});

describe('a run’s heap on its card', () => {
  it('reads the live profile and snapshots while the run goes, the summary’s once it has one', () => {
    expect(heapProfileOf(null, profile(3000))).toEqual(profile(3000));
    expect(heapSnapshotsOf(null, [snapshot(1, 2000, 150)])).toEqual([snapshot(1, 2000, 150)]);
    const summary = { heapProfile: profile(9000), heapSnapshots: [snapshot(1, 2000, 150), snapshot(2, 5000, 90)] };
    expect(heapProfileOf(summary, profile(3000))).toEqual(profile(9000));
    expect(heapSnapshotsOf(summary, [])).toHaveLength(2);
    // Nothing yet, or something of another shape: none.
    expect(heapProfileOf(null, undefined)).toBeNull();
    expect(heapSnapshotsOf(null, [{ n: 'one' }])).toEqual([]);
    expect(heapSnapshotsOf({}, undefined)).toEqual([]);
  });

  it('shows the panel for a heap profile or a snapshot trigger only', () => {
    expect([
      watchesHeap({}),
      watchesHeap({ heapProfile: true }),
      watchesHeap({ heapSnapshot: 'at=5' }),
      watchesHeap({ heapProfile: false, heapSnapshot: '' }),
    ]).toEqual([false, true, true, false]);
  });

  it('marks each snapshot’s pause on the time axis, not a refused one', () => {
    expect(snapshotPauses([snapshot(1, 2000, 150), snapshot(2, 4000, 0, 'refused: budget'), snapshot(3, 6000, 80)])).toEqual([
      { n: 1, fromMs: 2000, toMs: 2150 },
      { n: 3, fromMs: 6000, toMs: 6080 },
    ]);
  });
});
