/**
 * What a hostile or broken page can cost the server, measured on a real server process: resync
 * storms while a run streams, and start + stop floods against the history.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { runDetailSchema, runListResponseSchema } from '../../lib/history';
import { DEFAULT_STREAMS_PARAMS, type StreamsParams } from '../../labs/streams/shared/params';
import type { ServerMessage } from '../../lib/protocol';
import { readProcCpuMs } from '../runner/proc-status';
import { killAndWait, processRss, startServerProcess } from '../test-support';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'stream-lab-flood-'));
  dirs.push(d);
  return d;
}

/** A page's socket (same origin) that hands every parsed message to `onMessage`. */
async function open(url: string, onMessage: (m: ServerMessage) => void = () => {}): Promise<WebSocket> {
  const ws = new WebSocket(`${url.replace('http', 'ws')}/ws`, { origin: url });
  ws.on('message', (d) => onMessage(JSON.parse(d.toString()) as ServerMessage));
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  return ws;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const STRATEGIES = ['rxjs-from', 'ixjs-from', 'pipeline-generator', 'iterator-helper', 'for-await', 'web-streams'];

describe('a resync storm', () => {
  it('keeps server memory and the storm’s CPU bounded, and a normal viewer gets the samples, while 20 clients resync 20 times a second', async () => {
    const server = await startServerProcess(tempDir());
    /** Sample ages (ms from the child's reading to this viewer) before the storm, and during it. */
    const calm: number[] = [];
    const ages: number[] = [];
    let storming = false;
    /** Samples the viewer got (and merged away for it) per run: to hold against what each run recorded. */
    const received = new Map<string, number>();
    let runsEnded = 0;
    const viewer = await open(server.url, (m) => {
      if (m.type === 'run.samples') {
        for (const s of m.samples) (storming ? ages : calm).push(Date.now() - s.at);
        received.set(m.runId, (received.get(m.runId) ?? 0) + m.samples.length + m.dropped);
      }
      if (m.type === 'run.ended') runsEnded += 1;
    });
    // Six strategies at once, ~34 s each, sampled every 20 ms: a busy server with a growing history.
    // Long enough to outlast the wait for every run's first sample and the storm on a loaded machine
    // (at 18 MB one run ended mid-storm beside two busy loops once the wait was added).
    const params: StreamsParams = { ...DEFAULT_STREAMS_PARAMS, sizeMb: 36, delayMs: 60, sampleMs: 20, timeoutS: 120 };
    viewer.send(JSON.stringify({ type: 'experiment.start', strategies: STRATEGIES, params, parallel: true }));
    // Until the runs sample (the data file is made first), then 2.5 s of them without a storm:
    // what this machine gives the viewer now.
    await expect.poll(() => calm.length, { timeout: 60_000, interval: 100 }).toBeGreaterThan(STRATEGIES.length);
    // Every run sampling, not just the first few: beside two busy loops one child once had not sent
    // its first sample by the storm's end (the viewer heard from 5 of 6 runs).
    await expect.poll(() => received.size, { timeout: 60_000, interval: 100 }).toBe(STRATEGIES.length);
    await new Promise((r) => setTimeout(r, 500));
    calm.length = 0;
    const calmCpu0 = (await readProcCpuMs(server.proc.pid!))!;
    await new Promise((r) => setTimeout(r, 2500));
    const calmCpuMs = (await readProcCpuMs(server.proc.pid!))! - calmCpu0;
    storming = true;
    const stormCpu0 = (await readProcCpuMs(server.proc.pid!))!;
    const rssBefore = processRss(server.proc.pid!)!;

    let refused = 0;
    let snapshots = 0;
    let resyncs = 0;
    const stormers = await Promise.all(
      Array.from({ length: 20 }, () =>
        open(server.url, (m) => {
          if (m.type === 'error' && m.code === 'rate-limited') refused += 1;
          if (m.type === 'snapshot') snapshots += 1;
        }),
      ),
    );
    let rssPeak = rssBefore;
    const started = Date.now();
    while (Date.now() - started < 10_000) {
      for (const ws of stormers) ws.send(JSON.stringify({ type: 'resync' }));
      resyncs += stormers.length;
      rssPeak = Math.max(rssPeak, processRss(server.proc.pid!) ?? 0);
      await new Promise((r) => setTimeout(r, 50));
    }
    const stormCpuMs = (await readProcCpuMs(server.proc.pid!))! - stormCpu0;
    const stormMs = Date.now() - started;
    for (const ws of stormers) ws.close();
    // What the runs recorded by now (read just after the viewer's count, so it can only be more).
    const got = [...received.values()].reduce((a, b) => a + b, 0);
    const recorded = (
      await Promise.all(
        [...received.keys()].map(async (id) => runDetailSchema.parse(await (await fetch(`${server.url}/api/runs/${id}?points=10`)).json()).storedSamples),
      )
    ).reduce((a, b) => a + b, 0);
    const growthMb = (rssPeak - rssBefore) / 2 ** 20;
    const [p99, calmP99] = [percentile(ages, 99), percentile(calm, 99)];
    console.log(
      `resync storm: server RSS ${(rssBefore / 2 ** 20).toFixed(0)} → peak ${(rssPeak / 2 ** 20).toFixed(0)} MB (+${growthMb.toFixed(1)}), viewer sample age p50 ${percentile(ages, 50)} ms p99 ${p99} ms over ${ages.length} samples (before the storm p99 ${calmP99} ms over ${calm.length}) (${got} of the ${recorded} the runs recorded); ${snapshots} snapshots sent, ${refused} of ${resyncs} resyncs refused; server CPU ${((100 * calmCpuMs) / 2500).toFixed(0)} % of a core before, ${((100 * stormCpuMs) / stormMs).toFixed(0)} % during`,
    );

    // The storm was real (most resyncs refused with a reason) and the runs were still going. How
    // many it sent depends on how often this loop got the CPU (4000 at full speed, 860 at load
    // average 16), so it must have made 20 rounds at least and refusals are held against what was sent.
    expect(resyncs).toBeGreaterThanOrEqual(20 * 20);
    expect(refused).toBeGreaterThan(0.6 * resyncs);
    expect(snapshots).toBeGreaterThanOrEqual(20);
    expect(runsEnded).toBe(0);
    // The viewer kept getting the runs' samples through the storm: how many the runs made depends
    // on how busy the machine is, so the count is held against what they recorded (the read of the
    // records comes after the count, so it holds a little more; a relay starved by the storm would
    // lose far more than that).
    expect(received.size).toBe(STRATEGIES.length);
    expect(recorded).toBeGreaterThan(STRATEGIES.length * 10);
    expect(got).toBeGreaterThan(0.8 * recorded);
    expect(growthMb).toBeLessThan(100);
    // What the storm costs the server is its CPU: refusing a resync must be cheap, and snapshots
    // are rate-limited. Measured as the server's own CPU time, which a loaded machine does not
    // inflate (beside other work the server got 16 % of a core before and during the storm alike).
    // The viewer's sample age is not bounded here: it measures how much CPU the machine leaves the
    // server (p99 182 ms on a quiet machine, 1.2–3.1 s at load average 12–16 for the same storm),
    // so it is recorded as a benchmark (docs/results.md §14), and this test asserts what survives a
    // loaded machine: nothing lost above, and the storm's CPU.
    // At most 40 % of a core more than before it (unthrottled snapshots, 400 a second, would take it all).
    expect((stormCpuMs / stormMs) * 1000).toBeLessThan((calmCpuMs / 2500) * 1000 + 400);
    viewer.close();
    await killAndWait(server.proc, 'SIGTERM');
  });
});

describe('a start + stop flood', () => {
  it('deletes no recorded run, even past the retention limit', async () => {
    const dir = tempDir();
    const server = await startServerProcess(dir, { STREAM_LAB_KEEP_RUNS: '3' });
    const list = async () => runListResponseSchema.parse(await (await fetch(`${server.url}/api/runs`)).json()).runs;

    // Three real runs fill the history to its limit.
    const quick: StreamsParams = { ...DEFAULT_STREAMS_PARAMS, sizeMb: 1, delayMs: 0, timeoutS: 60 };
    let ended = 0;
    const page = await open(server.url, (m) => {
      if (m.type === 'run.ended') ended += 1;
    });
    page.send(JSON.stringify({ type: 'experiment.start', strategies: ['for-await', 'ixjs-from', 'pipeline-generator'], params: quick, parallel: false }));
    await expect.poll(() => ended, { timeout: 30_000 }).toBe(3);
    await expect.poll(async () => (await list()).length, { timeout: 10_000 }).toBe(3);
    const kept = (await list()).map((r) => r.id).sort();

    // Ten sockets each start five experiments of 16 runs and stop everything, as fast as they may.
    const slow: StreamsParams = { ...DEFAULT_STREAMS_PARAMS, sizeMb: 1, delayMs: 1000, timeoutS: 60 };
    const sockets = await Promise.all(Array.from({ length: 10 }, () => open(server.url)));
    for (let round = 0; round < 5; round++) {
      for (const ws of sockets) {
        ws.send(JSON.stringify({ type: 'experiment.start', strategies: ['for-await'], params: slow, parallel: false }));
        ws.send(JSON.stringify({ type: 'stop.all' }));
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    await new Promise((r) => setTimeout(r, 3000));
    const after = await list();
    console.log(`start + stop flood: ${after.length} runs listed after the flood, ${after.filter((r) => r.status === 'stopped').length} of them stopped runs`);
    for (const id of kept) expect(after.map((r) => r.id)).toContain(id);
    for (const ws of [...sockets, page]) ws.close();
    await killAndWait(server.proc, 'SIGTERM');
  });
});
