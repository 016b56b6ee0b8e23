/**
 * A heap snapshot's `before` figures (lib/protocol's snapshotBeforeSchema): the memory just before
 * it. An `at=` or `when=rss>` trigger fires on the runner's clock, so a snapshot can come while the
 * run's main thread is held and its sampler silent: the last sample may be seconds old (one from
 * 51 ms for a snapshot at 1001 ms). Then what was read from outside since stands in. Pure.
 */
import type { ProcSample, Sample, SnapshotBefore } from '../../lib/protocol';
import { SILENT_INTERVALS } from '../child/block-heap';

/**
 * `nowAt`: the snapshot's moment (epoch ms, the clock of samples' and readings' `at`). A sample is
 * current until it is as old as a held loop's, when the child's watcher thread takes over reading
 * the heap (server/child/block-heap.ts). RSS is the newest reading of it, the sample's or /proc's;
 * the rest is the current sample's, or with a stale one the heap the watcher read with the latest
 * /proc reading, and null where nobody read it since. Null when nothing was read since the sample.
 */
export function snapshotBefore(sample: Sample | null, proc: ProcSample | null, nowAt: number, sampleMs: number | null): SnapshotBefore | null {
  const outside = proc && (!sample || proc.at > sample.at) ? proc : null;
  const current = sample && (sampleMs === null || nowAt - sample.at <= SILENT_INTERVALS * sampleMs);
  if (sample && current) {
    const { rss, heapTotal, heapUsed, external, arrayBuffers } = sample;
    return { rss: outside?.rss ?? rss, heapTotal, heapUsed, external, arrayBuffers };
  }
  if (!outside) return null;
  return { rss: outside.rss, heapTotal: outside.heapTotal ?? null, heapUsed: outside.heapUsed ?? null, external: null, arrayBuffers: null };
}
