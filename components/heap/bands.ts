/** A run's heap snapshot pauses as chart bands (components/charts/bands.ts shades them on the card's charts). */
import { useMemo } from 'react';
import type { HeapSnapshotSummary } from '@/lib/protocol';
import { snapshotPauses } from '@/lib/heap/run-heap';
import type { TimeBand } from '@/components/charts/uplot-options';

/** A snapshot's pause on the charts: grey, as the run stood still. */
export const SNAPSHOT_BAND_COLOR = 'rgba(90, 90, 90, 0.22)';

/** The snapshots' pauses as chart bands ("snapshot 1", …), the same array while the snapshots are. */
export function useSnapshotBands(snapshots: readonly HeapSnapshotSummary[]): readonly TimeBand[] {
  return useMemo(
    () => snapshotPauses(snapshots).map((p) => ({ fromMs: p.fromMs, toMs: p.toMs, label: `snapshot ${p.n}`, color: SNAPSHOT_BAND_COLOR })),
    [snapshots],
  );
}
