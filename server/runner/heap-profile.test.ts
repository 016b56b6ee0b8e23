/**
 * The heap side of an inspected run, with real processes: V8's sampling heap profiler read live
 * and at the end (server/runner/inspection.ts, heap-watch.ts). groupby-spread is the subject: its
 * reducer copies the group's array on every row, so it allocates nearly every byte.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { summaryOfLab, type HeapProfileSummary } from '../../lib/protocol';
import { functionsByAllocation, type HeapProfile } from '../../lib/profile/heap-profile';
import { DEFAULT_HOTCODE_PARAMS, type HotcodeParams } from '../../labs/hotcode/shared/params';
import { runLeftovers, withTempDataDir } from '../test-support';
import { prepareAndStart } from './lab-run';
import { HEAP_PROFILE_FILE, removeStaleSnapshotDirs } from './heap-watch';
import { liveChildCount } from './runner';

let seq = 0;
const params = (over: Partial<HotcodeParams>): HotcodeParams => ({ ...DEFAULT_HOTCODE_PARAMS, requests: 1, budgetMb: null, timeoutS: 120, ...over });

describe('heap profiling a run', () => {
  const dir = withTempDataDir('heap-profile');

  it('a heap-profiled groupby-spread run names the reducer as the top allocating function, live and at the end, and hands on a .heapprofile', async () => {
    const live: HeapProfileSummary[] = [];
    const files = new Map<string, Buffer>();
    const handle = prepareAndStart({
      lab: 'hotcode',
      runId: `heap-${++seq}`,
      strategy: 'groupby-spread',
      // 2e4 rows: a few seconds of copying, long enough for a live read (every 3 s).
      params: params({ rows: 20_000, heapProfile: true }),
      onLive: (u) => {
        const p = u.set.heapProfile as HeapProfileSummary | undefined;
        if (p) live.push(p);
      },
      onFile: (name, data) => files.set(name, data),
    });
    const s = summaryOfLab(await handle.done, 'hotcode');
    const said = JSON.stringify({ outcome: s.outcome, heap: s.heapProfile && { ...s.heapProfile, top: s.heapProfile.top.slice(0, 3) }, live: live.length });
    expect(s.outcome, said).toBe('completed');
    expect(s.heapProfile?.error, said).toBeNull();
    expect(s.heapProfile!.intervalKb).toBe(512);
    expect(s.heapProfile!.top[0], said).toMatchObject({ name: 'groupBySpread' });
    expect(s.heapProfile!.top[0].url).toMatch(/labs\/hotcode\/child\/strategies\/groupby-spread\.mjs$/);
    // Nearly every sampled byte: collected copies count (the profiler keeps samples of collected objects).
    expect(s.heapProfile!.top[0].selfShare, said).toBeGreaterThan(0.5);
    // Read live while it ran, already naming the reducer.
    expect(live.length, said).toBeGreaterThan(0);
    expect(live.at(-1)!.top[0].name).toBe('groupBySpread');
    // The stored profile is the .heapprofile DevTools opens: the same analysis gives the same top.
    const stored = JSON.parse(files.get(HEAP_PROFILE_FILE)!.toString()) as HeapProfile;
    expect(stored.head.callFrame).toBeDefined();
    expect(functionsByAllocation(stored)[0].name).toBe('groupBySpread');
    expect(liveChildCount()).toBe(0);
    expect(runLeftovers(dir.path)).toEqual([]);
  });
});

describe('snapshot temp folders', () => {
  it('a server start removes the ones a dead server left (an hour old), never a fresh one', async () => {
    const old = await mkdtemp(join(tmpdir(), 'stream-lab-heap-'));
    const fresh = await mkdtemp(join(tmpdir(), 'stream-lab-heap-'));
    writeFileSync(join(old, 'run.heapsnapshot'), 'x');
    const hourAgo = (Date.now() - 61 * 60_000) / 1000;
    await utimes(old, hourAgo, hourAgo);
    const removed = await removeStaleSnapshotDirs();
    expect(removed).toContain(old);
    expect(existsSync(old)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
    await rm(fresh, { recursive: true });
  });
});
