/**
 * A blocked event loop seen from outside, with real processes: a server (the app's wiring without
 * Next), a hot-code run whose one report holds the run's main thread for seconds, the page's socket,
 * and the record the store keeps. While the child's sampler is silent the runner's /proc readings
 * go on at the sample rate, say how long the sampler has been silent, reach the page live, and are
 * stored with the run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runDetailSchema } from '../../lib/history';
import type { ProcSample } from '../../lib/protocol';
import { DEFAULT_HOTCODE_PARAMS } from '../../labs/hotcode/shared/params';
import { killAndWait, startServerProcess } from '../test-support';
import { TestClient } from '../test-client';
import { parseHeapLine, windowedCpuPct } from './proc-poller';

const dataDir = mkdtempSync(join(tmpdir(), 'stream-lab-proc-readings-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const SAMPLE_MS = 50;

describe('readings from outside while the loop is blocked', () => {
  it('a hot-code report that blocks for ≥ 3 s yields RSS and CPU at the sample rate during the block, live and stored with the run', async () => {
    const server = await startServerProcess(dataDir);
    const client = new TestClient(server.url);
    try {
      await client.opened;
      // report-slow at 30,000 rows: one report of about 4 s of synchronous work here (3 s at 20,000).
      client.send({
        type: 'experiment.start',
        lab: 'hotcode',
        strategies: ['report-slow'],
        params: { ...DEFAULT_HOTCODE_PARAMS, rows: 30_000, requests: 1, sampleMs: SAMPLE_MS, budgetMb: null, timeoutS: 120 },
        parallel: false,
      });
      const runId = (await client.next('run.queued')).run.id;
      const ended = await client.next('run.ended', (m) => m.run.id === runId);
      expect(ended.summary?.outcome).toBe('completed');

      const res = await fetch(`${server.url}/api/runs/${runId}?points=20000`);
      expect(res.status).toBe(200);
      const detail = runDetailSchema.parse(await res.json());
      // The block: the longest silence between two of the child's own samples.
      const ts = detail.samples.map((s) => s.t);
      let from = 0;
      for (let i = 1; i < ts.length; i++) if (ts[i] - ts[i - 1] > ts[from + 1] - ts[from]) from = i - 1;
      const [t0, t1] = [ts[from], ts[from + 1]];
      expect(t1 - t0).toBeGreaterThanOrEqual(3000);
      // The sample after it says the loop was held about that long (the sampler's own lateness at least).
      expect(detail.samples[from + 1].elMaxMs).toBeGreaterThan(0.8 * (t1 - t0) - 2 * SAMPLE_MS);

      // Stored with the run: /proc readings all through the block, at (at least half) the sample rate.
      const during = (ps: readonly ProcSample[]) => ps.filter((p) => p.t > t0 && p.t < t1);
      const stored = during(detail.proc);
      expect(stored.length).toBeGreaterThanOrEqual(Math.floor((0.5 * (t1 - t0)) / SAMPLE_MS));
      expect(stored.every((p) => p.rss > 0)).toBe(true);
      expect(stored.filter((p) => typeof p.cpuPct === 'number').length).toBeGreaterThanOrEqual(stored.length - 3);
      // The report burns CPU all along: some of it is seen from outside at every reading taken a window into the block.
      expect(stored.filter((p) => p.t > t0 + 500 && (p.cpuPct ?? 0) <= 0)).toEqual([]);
      // The sampler's silence grows through the block, to about its length.
      const silent = stored.map((p) => p.sinceSampleMs ?? -1);
      expect(silent.every((ms, i) => i === 0 || ms >= silent[i - 1])).toBe(true);
      expect(silent.at(-1)!).toBeGreaterThan(t1 - t0 - 4 * SAMPLE_MS);
      // Outside a block the silence stays within a few intervals.
      const calm = detail.proc.filter((p) => p.t < t0 - 200 && p.sinceSampleMs !== null && p.sinceSampleMs !== undefined);
      expect(calm.every((p) => p.sinceSampleMs! < 10 * SAMPLE_MS)).toBe(true);

      // The heap too, read by the child's watcher thread through the inspector while the report ran
      // (server/child/block-heap.ts): at most of the readings once the sampler is two intervals late.
      const deep = stored.filter((p) => p.t > t0 + 4 * SAMPLE_MS);
      const withHeap = deep.filter((p) => typeof p.heapUsed === 'number');
      expect(withHeap.length).toBeGreaterThanOrEqual(0.5 * deep.length);
      expect(withHeap.every((p) => p.heapUsed! > 0 && p.heapUsed! <= p.heapTotal!)).toBe(true);
      // While the loop is free the samples carry the heap, and the watcher reads nothing.
      expect(calm.filter((p) => p.heapUsed !== undefined).length).toBeLessThanOrEqual(Math.max(2, 0.1 * calm.length));

      // Live: the page's socket had them during the block, not only afterwards.
      const live = client.messages.flatMap((m) => (m.type === 'run.samples' && m.runId === runId ? m.proc : []));
      expect(during(live).length).toBeGreaterThanOrEqual(stored.length - 3);
    } finally {
      client.close();
      await killAndWait(server.proc, 'SIGTERM');
    }
  }, 120_000);
});

describe('windowedCpuPct', () => {
  it('takes the share over a window of readings, none before 100 ms of them, and never more cores than the machine has', () => {
    // /proc ticks: 10 ms of CPU in a 50 ms interval is 20 %, 60 ms in 50 ms would be 120 %.
    expect(windowedCpuPct([{ at: 0, ms: 0 }])).toBeUndefined();
    expect(
      windowedCpuPct([
        { at: 0, ms: 0 },
        { at: 50, ms: 60 },
      ]),
    ).toBeUndefined();
    // Over 250 ms the ±1 tick of each reading matters less: 260 ms of CPU in 250 ms is 104 %.
    const steady = [0, 50, 100, 150, 200, 250, 300].map((at, i) => ({ at, ms: [0, 60, 100, 160, 200, 260, 300][i] }));
    expect(windowedCpuPct(steady, 2)).toBe(96);
    // A burst of ticks counted late cannot make 2 cores into 3.
    expect(
      windowedCpuPct(
        [
          { at: 0, ms: 0 },
          { at: 100, ms: 320 },
        ],
        2,
      ),
    ).toBe(200);
  });
});

describe('parseHeapLine', () => {
  it('takes the watcher thread’s readings and nothing else a strategy might write to its pipe', () => {
    expect(parseHeapLine('{"at":1,"heapUsed":4118232,"heapTotal":4694016}')).toEqual({ heapUsed: 4118232, heapTotal: 4694016 });
    expect(parseHeapLine('{"heapUsed":-1,"heapTotal":5}')).toBeNull();
    expect(parseHeapLine('{"heapUsed":"1","heapTotal":5}')).toBeNull();
    expect(parseHeapLine('not json')).toBeNull();
    expect(parseHeapLine(`{"heapUsed":1,"heapTotal":2,"pad":"${'x'.repeat(300)}"}`)).toBeNull();
  });
});
