/**
 * Heap snapshot triggers on real runs whose main thread is held (server/runner/heap-watch.ts):
 * groupby-spread copies its group on every row, so one report of 2.5e4 rows holds the loop for
 * ~3 s here, and the run's samples stop meanwhile. The trigger is met from outside, and the
 * inspector takes the snapshot in the middle of the report.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_HOTCODE_PARAMS } from '../../labs/hotcode/shared/params';
import type { HeapSnapshotSummary, ProcSample } from '../../lib/protocol';
import { MIB } from '../../lib/protocol/params';
import { withTempDataDir } from '../test-support';
import { prepareAndStart } from './lab-run';
import { liveChildCount } from './runner';

let seq = 0;

/**
 * The run's one snapshot, the samples' times around the moment `ms` (the last before, the first
 * after), and the /proc reading the snapshot's `before` had: the latest when it was taken.
 */
async function snapshotDuringReport(heapSnapshot: string, ms: (snap: HeapSnapshotSummary) => number) {
  const times: number[] = [];
  const proc: ProcSample[] = [];
  const handle = prepareAndStart({
    lab: 'hotcode',
    runId: `heap-watch-${++seq}`,
    strategy: 'groupby-spread',
    params: { ...DEFAULT_HOTCODE_PARAMS, rows: 25_000, requests: 1, budgetMb: null, timeoutS: 120, heapSnapshot },
    onSample: (s) => void times.push(s.t),
    onProc: (p) => void proc.push(p),
  });
  const s = await handle.done;
  expect([s.outcome, s.reason]).toEqual(['completed', null]);
  expect(s.heapSnapshots, 'no snapshot').toHaveLength(1);
  const [snap] = s.heapSnapshots!;
  const at = ms(snap);
  const held = { from: times.filter((t) => t <= at).at(-1)!, to: times.find((t) => t > at)! };
  const upTo = proc.filter((p) => p.t <= snap.atMs);
  // A reading of the snapshot's own millisecond may have come just after it.
  const read = upTo.length > 1 && upTo.at(-1)!.t === snap.atMs && upTo.at(-1)!.rss !== snap.before?.rss ? upTo.at(-2)! : upTo.at(-1)!;
  const said = JSON.stringify({ snap: { ...snap, analysis: null }, held, read, times: times.map(Math.round) });
  expect(liveChildCount()).toBe(0);
  return { snap, held, read, said };
}

describe('heap snapshot triggers while the loop is held', () => {
  withTempDataDir('heap-watch');

  it('at= fires on time, and the snapshot is taken before the report lets the loop go, not at the first sample after it', async () => {
    const { snap, held, read, said } = await snapshotDuringReport('at=1', () => 1000);
    // The report held the loop across 1 s: no sample for half a second on either side at least.
    expect(held.to - held.from, said).toBeGreaterThan(1000);
    expect(snap.error, said).toBeNull();
    expect(snap.bytes, said).toBeGreaterThan(0);
    // Asked for at 1 s, on this process's clock (a busy machine may run the timer a little late).
    expect(snap.atMs, said).toBeGreaterThanOrEqual(1000);
    expect(snap.atMs, said).toBeLessThan(1500);
    // Written while the report still ran: a snapshot V8 could take only once the loop came back
    // would end after the first sample that followed.
    expect(snap.atMs + snap.pauseMs, said).toBeLessThan(held.to);
    // `before` is what was read at 1 s, not the sample from before the report: /proc's RSS and the
    // heap the watcher thread read with it (when it had one); nobody read external or arrayBuffers.
    expect(read.t, said).toBeGreaterThan(held.from);
    expect(snap.before, said).toEqual({
      rss: read.rss,
      heapUsed: read.heapUsed ?? null,
      heapTotal: read.heapTotal ?? null,
      external: null,
      arrayBuffers: null,
    });
  });

  it('when=rss> is met by the /proc readings the parent takes while the samples have stopped', async () => {
    // RSS here: 47 MB at the start, 80–135 MB while the report copies (2026-12-03).
    const { snap, held, read, said } = await snapshotDuringReport('when=rss>80MB', (s) => s.atMs);
    expect(snap.error, said).toBeNull();
    expect(snap.trigger).toBe('when rss > 80 MB');
    // Met between two samples half a second or more apart, and taken before the second.
    expect(held.to - held.from, said).toBeGreaterThan(500);
    expect(snap.atMs + snap.pauseMs, said).toBeLessThan(held.to);
    // Its `before` has the RSS that met the trigger, not the last sample's from before it.
    expect(snap.before?.rss, said).toBe(read.rss);
    expect(snap.before?.rss, said).toBeGreaterThan(80 * MIB);
  });
});
