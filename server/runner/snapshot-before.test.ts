/** A heap snapshot's `before`: the last sample's while it is current, else what was read from outside since. */
import { describe, expect, it } from 'vitest';
import type { ProcSample } from '../../lib/protocol';
import { makeSample } from '../../lib/test-fixtures';
import { snapshotBefore } from './snapshot-before';

const T0 = 1_700_000_000_000;
const sample = makeSample({ t: 51, at: T0 + 51, rss: 55e6, heapTotal: 6e6, heapUsed: 5e6, external: 2e6, arrayBuffers: 24e3 });
const proc = (at: number, heap?: { heapUsed: number; heapTotal: number }): ProcSample => ({ t: at, at: T0 + at, rss: 99e6, sinceSampleMs: at - 51, ...heap });

describe('snapshotBefore', () => {
  it('takes the last sample while it is current (two sample intervals), with the newer /proc RSS', () => {
    expect(snapshotBefore(sample, proc(90), T0 + 140, 50)).toEqual({ rss: 99e6, heapTotal: 6e6, heapUsed: 5e6, external: 2e6, arrayBuffers: 24e3 });
    // A /proc reading from before the sample is older than it: the sample's own RSS.
    expect(snapshotBefore(sample, proc(40), T0 + 140, 50)).toMatchObject({ rss: 55e6 });
  });

  it('takes what was read mid-block for a stale sample (a snapshot at 1001 ms, the sample from 51 ms), null for what nobody read', () => {
    const read = proc(960, { heapUsed: 14e6, heapTotal: 49e6 });
    expect(snapshotBefore(sample, read, T0 + 1001, 50)).toEqual({ rss: 99e6, heapTotal: 49e6, heapUsed: 14e6, external: null, arrayBuffers: null });
    // The watcher thread had read no heap with that reading: no heap figure, rather than the sample's of 950 ms before.
    expect(snapshotBefore(sample, proc(960), T0 + 1001, 50)).toEqual({ rss: 99e6, heapTotal: null, heapUsed: null, external: null, arrayBuffers: null });
  });

  it('is null when nothing was read since a stale sample, and /proc alone with the sampler off', () => {
    expect(snapshotBefore(sample, proc(40), T0 + 1001, 50)).toBeNull();
    expect(snapshotBefore(sample, null, T0 + 1001, 50)).toBeNull();
    expect(snapshotBefore(null, proc(960), T0 + 1001, null)).toEqual({ rss: 99e6, heapTotal: null, heapUsed: null, external: null, arrayBuffers: null });
    expect(snapshotBefore(null, null, T0 + 1001, null)).toBeNull();
  });
});
