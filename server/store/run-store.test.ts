import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunStore, type RunStoreOptions } from './run-store';
import { makeRecord, makeRun, makeSummary, sampleAt, testRunId } from './store-fixtures';
import { MAX_SAMPLES_PER_RUN as MAX_STORED_SAMPLES, Thinning } from '../../lib/series';

let dir: string;
let logged: string[];
const stores: RunStore[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'stream-lab-store-'));
  logged = [];
});
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

async function openStore(patch: Partial<RunStoreOptions> = {}): Promise<RunStore> {
  const store = await RunStore.open({ dir, keepRuns: 100, keepBytes: 100 * 1024 * 1024, log: (m) => logged.push(m), ...patch });
  stores.push(store);
  return store;
}

/** Records a whole run: queued, running, `samples` samples, ended completed at `endedAt`. */
async function recordRun(store: RunStore, n: number, samples: number, endedAt: number) {
  const run = makeRun(testRunId(n), { queuedAt: endedAt - 5000 });
  store.begin(makeRecord(run));
  const running = { ...run, status: 'running' as const, pid: 1234, startedAt: run.queuedAt + 10 };
  store.update(running);
  for (let i = 0; i < samples; i++) store.appendSample(run.id, sampleAt(i));
  store.appendProc(run.id, { t: 0, at: run.queuedAt, rss: 42e6 });
  const summary = makeSummary(run, { sampleCount: samples });
  await store.end({ ...running, status: 'completed', pid: null, summary }, endedAt);
  return { run, summary };
}

describe('RunStore', () => {
  it('keeps a run, its summary and every sample across a reopen', async () => {
    const first = await openStore();
    const { run, summary } = await recordRun(first, 1, 25, 1_700_000_010_000);
    await first.close();

    const again = await openStore();
    expect(again.list().map((r) => [r.id, r.status, r.sampleCount])).toEqual([[run.id, 'completed', 25]]);
    // The list's peak RSS is the card's: the summary's peak and the RSS read from outside both travel.
    expect(again.list().map((r) => [r.peak?.rss, r.procPeakRss])).toEqual([[summary.peak?.rss, summary.procPeakRss]]);
    const detail = (await again.read(run.id, 20_000))!;
    expect(detail.record.run.summary).toEqual(summary);
    expect(detail.record.endedAt).toBe(1_700_000_010_000);
    expect(detail.samples).toEqual(Array.from({ length: 25 }, (_, i) => sampleAt(i)));
    expect(detail.proc).toEqual([{ t: 0, at: run.queuedAt, rss: 42e6 }]);
    expect(detail.warnings).toEqual([]);
    expect(logged).toEqual([]);
  });

  it('marks a run that was going when the store was left as interrupted, with the samples it had', async () => {
    const first = await openStore();
    const run = makeRun(testRunId(2));
    first.begin(makeRecord(run));
    first.update({ ...run, status: 'running', pid: 99, startedAt: run.queuedAt + 5 });
    for (let i = 0; i < 30; i++) first.appendSample(run.id, sampleAt(i));
    await first.flushAll();
    // No end(): as if the process died here. A new store opens the same directory.
    const again = await openStore();
    const [item] = again.list();
    expect(item).toMatchObject({ id: run.id, status: 'interrupted', sampleCount: 30, durationMs: 29 * 50 });
    expect(item.peak).toEqual({
      rss: sampleAt(29).rss,
      heapTotal: 8e6,
      heapUsed: sampleAt(29).heapUsed,
      external: sampleAt(29).external,
      arrayBuffers: 29 * 65536,
    });
    const detail = (await again.read(run.id, 20_000))!;
    expect(detail.samples).toHaveLength(30);
    expect(detail.record.run.summary).toBeNull();
    expect(detail.record.endedAt).toBe(sampleAt(29).at);
    expect(detail.record.notes).toEqual(['The server stopped while this run was running; the 30 samples saved until then are kept.']);
    // Written back, so the next start sees it interrupted without re-reading its samples.
    expect(JSON.parse(readFileSync(join(dir, run.id, 'meta.json'), 'utf8')).run.status).toBe('interrupted');
  });

  it('skips a truncated or corrupt meta.json with a warning and keeps the other records', async () => {
    const first = await openStore();
    const good = await recordRun(first, 1, 3, 1_700_000_001_000);
    const truncated = await recordRun(first, 2, 3, 1_700_000_002_000);
    const wrongShape = await recordRun(first, 3, 3, 1_700_000_003_000);
    await first.close();
    const meta = (id: string) => join(dir, id, 'meta.json');
    truncateSync(meta(truncated.run.id), Math.floor(statSync(meta(truncated.run.id)).size / 2));
    writeFileSync(meta(wrongShape.run.id), JSON.stringify({ format: 1, run: { id: wrongShape.run.id } }));
    // A temp file left by a write the crash interrupted is removed, not mistaken for a record.
    writeFileSync(join(dir, good.run.id, 'meta.json.tmp-1-1'), '{"half');

    const again = await openStore();
    expect(again.list().map((r) => r.id)).toEqual([good.run.id]);
    expect(again.warnings()).toHaveLength(2);
    expect(again.warnings()[0] + again.warnings()[1]).toContain(`run ${truncated.run.id}: meta.json is not valid JSON`);
    expect(again.warnings().find((w) => w.startsWith(`run ${wrongShape.run.id}: meta.json does not match the record format`))).toBeDefined();
    expect(logged).toEqual(again.warnings());
    expect(existsSync(join(dir, good.run.id, 'meta.json.tmp-1-1'))).toBe(false);
  });

  it('skips a torn last sample line and a corrupt line, and reports both', async () => {
    const store = await openStore();
    const { run } = await recordRun(store, 1, 10, 1_700_000_001_000);
    const file = join(dir, run.id, 'samples.ndjson');
    const lines = readFileSync(file, 'utf8').split('\n');
    lines[3] = '{"s":{"t":"not a number"}}';
    writeFileSync(file, lines.join('\n'));
    appendFileSync(file, '{"s":{"t":500,"at":17000'); // a write cut short

    const detail = (await store.read(run.id, 20_000))!;
    expect(detail.samples).toHaveLength(9);
    expect(detail.warnings).toEqual([
      'the last sample line was incomplete (24 bytes, a write cut short) and was skipped',
      '1 corrupt sample line(s) were skipped',
    ]);
    expect(store.warnings()).toEqual(detail.warnings.map((w) => `run ${run.id}: ${w}`));
  });

  it('deletes the oldest ended runs when there are more than keepRuns', async () => {
    const store = await openStore({ keepRuns: 3 });
    for (let n = 1; n <= 5; n++) await recordRun(store, n, 5, 1_700_000_000_000 + n * 1000);
    expect(store.list().map((r) => r.id)).toEqual([testRunId(5), testRunId(4), testRunId(3)]);
    expect([1, 2, 3, 4, 5].map((n) => existsSync(join(dir, testRunId(n))))).toEqual([false, false, true, true, true]);
  });

  it('spares runs younger than minAgeMs while it runs, and applies the limit to them once reopened', async () => {
    const store = await openStore({ keepRuns: 2, minAgeMs: 60_000 });
    const now = Date.now();
    for (let n = 1; n <= 4; n++) await recordRun(store, n, 5, now - 1000 + n);
    // A flood of recent runs may pass the limit for a while, but deletes nothing.
    expect(store.list()).toHaveLength(4);
    await store.close();
    const reopened = await openStore({ keepRuns: 2, minAgeMs: 60_000 });
    expect(reopened.list().map((r) => r.id)).toEqual([testRunId(4), testRunId(3)]);
  });

  it('discards a run that never started, leaving nothing on disk', async () => {
    const store = await openStore();
    const run = makeRun(testRunId(9));
    store.begin(makeRecord(run));
    await store.flushAll();
    await store.discard(run.id);
    expect(store.list()).toEqual([]);
    expect(existsSync(join(dir, run.id))).toBe(false);
  });

  it('deletes the oldest ended runs when the records pass keepBytes', async () => {
    const probe = await openStore();
    await recordRun(probe, 99, 40, 1_700_000_000_000);
    const perRun = probe.storage().bytes;
    await probe.close();
    rmSync(join(dir, testRunId(99)), { recursive: true });

    const store = await openStore({ keepBytes: Math.floor(2.5 * perRun) });
    for (let n = 1; n <= 4; n++) await recordRun(store, n, 40, 1_700_000_000_000 + n * 1000);
    expect(store.list().map((r) => r.id)).toEqual([testRunId(4), testRunId(3)]);
    expect(store.storage().bytes).toBeLessThanOrEqual(2.5 * perRun);
  });

  it('reports a full disk (ENOSPC) instead of throwing, and still records how the run ended', async () => {
    const store = await openStore();
    const run = makeRun(testRunId(7));
    store.begin(makeRecord(run));
    await store.flushAll();
    // /dev/full answers every write with ENOSPC: a real full disk, for this one file.
    symlinkSync('/dev/full', join(dir, run.id, 'samples.ndjson'));
    for (let i = 0; i < 12; i++) store.appendSample(run.id, sampleAt(i));
    await store.flushAll();
    expect(store.warnings()).toEqual([expect.stringMatching(new RegExp(`^run ${run.id}: could not save samples \\(ENOSPC.*the server goes on`))]);
    await store.end({ ...run, status: 'completed', summary: makeSummary(run) }, 1_700_000_009_000);
    const again = await openStore();
    const record = again.record(run.id)!;
    expect(record.run.status).toBe('completed');
    expect(record.notes).toEqual(['12 samples were not saved because a write failed (see warnings).']);
  });

  it('refuses to delete a run that is still going and deletes an ended one', async () => {
    const store = await openStore();
    const going = makeRun(testRunId(1));
    store.begin(makeRecord(going));
    const { run } = await recordRun(store, 2, 3, 1_700_000_001_000);
    expect(await store.remove(going.id)).toBe('active');
    expect(await store.remove(run.id)).toBe('removed');
    expect(await store.remove(run.id)).toBe('not-found');
    expect(existsSync(join(dir, run.id))).toBe(false);
    expect(store.list().map((r) => r.id)).toEqual([going.id]);
  });
});

describe('Thinning', () => {
  it('keeps the first half of the budget whole, thins the rest, and still covers the end of a very long run', () => {
    const t = new Thinning();
    const kept: number[] = [];
    const n = 360_000; // the longest run the limits allow: 3600 s at 10 ms
    for (let i = 0; i < n; i++) if (t.take()) kept.push(i);
    expect(kept.slice(0, MAX_STORED_SAMPLES / 2)).toEqual(Array.from({ length: MAX_STORED_SAMPLES / 2 }, (_, i) => i));
    expect(kept[MAX_STORED_SAMPLES / 2 + 1] - kept[MAX_STORED_SAMPLES / 2]).toBe(2);
    expect(t.kept).toBe(kept.length);
    expect(kept.length).toBe(20_291);
    expect(kept.at(-1)).toBeGreaterThan(n - 1 - t.stride);
  });
});
