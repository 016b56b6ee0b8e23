/**
 * Records survive the server process: a real server (server/store/history-test-server.ts, the same
 * history wiring as server/index.ts) is killed with SIGKILL mid-run and started again.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { runDetailSchema, runListResponseSchema, type RunDetail } from '../../lib/history';
import { DEFAULT_STREAMS_PARAMS } from '../../labs/streams/shared/params';
import type { ServerMessage } from '../../lib/protocol';
import { childPids, killAndWait, processesWithEnv, startServerProcess, threadNices } from '../test-support';

const dataDir = mkdtempSync(join(tmpdir(), 'stream-lab-restart-'));

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

const startServer = () => startServerProcess(dataDir);
const killed = killAndWait;

/** Opens /ws, starts one run and resolves with its id. */
async function startRun(
  url: string,
  params: Partial<typeof DEFAULT_STREAMS_PARAMS>,
): Promise<{ ws: WebSocket; runId: string; ended: Promise<void>; closeCode: Promise<number> }> {
  const ws = new WebSocket(`${url.replace('http', 'ws')}/ws`, { origin: url });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  let resolveEnded: () => void;
  const ended = new Promise<void>((r) => (resolveEnded = r));
  const closeCode = new Promise<number>((r) => ws.once('close', (code) => r(code)));
  const runId = await new Promise<string>((resolve) => {
    let id: string | null = null;
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString()) as ServerMessage;
      if (m.type === 'run.queued' && id === null) resolve((id = m.run.id));
      if (m.type === 'run.ended' && m.run.id === id) resolveEnded();
    });
    ws.send(
      JSON.stringify({
        type: 'experiment.start',
        strategies: ['for-await'],
        params: { ...DEFAULT_STREAMS_PARAMS, sizeMb: 4, timeoutS: 60, ...params },
        parallel: false,
      }),
    );
  });
  return { ws, runId, ended, closeCode };
}

async function getRun(url: string, id: string): Promise<RunDetail> {
  const res = await fetch(`${url}/api/runs/${id}?points=20000`);
  expect(res.status).toBe(200);
  return runDetailSchema.parse(await res.json());
}

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms: ${JSON.stringify(v).slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('run history across server restarts', () => {
  it('keeps a finished run, and shows a run cut off by SIGKILL as interrupted with its samples', async () => {
    const first = await startServer();
    const done = await startRun(first.url, { delayMs: 1 });
    await done.ended;
    const finished = await until(
      () => getRun(first.url, done.runId),
      (d) => d.record.run.summary !== null,
    );
    done.ws.close();

    // A slow run (64 chunks × 100 ms): kill the server once a second's worth of samples was flushed.
    const slow = await startRun(first.url, { delayMs: 100 });
    await until(
      () => getRun(first.url, slow.runId),
      (d) => d.samples.length >= 20,
    );
    await new Promise((r) => setTimeout(r, 1200));
    const beforeKill = await getRun(first.url, slow.runId);
    expect(beforeKill.record.run.status).toBe('running');
    slow.ws.terminate();
    await killed(first.proc, 'SIGKILL');

    const second = await startServer();
    const list = runListResponseSchema.parse(await (await fetch(`${second.url}/api/runs`)).json());
    expect(list.runs.map((r) => [r.id, r.status])).toEqual([
      [slow.runId, 'interrupted'],
      [done.runId, 'completed'],
    ]);
    expect(list.warnings).toEqual([]);

    const survived = await getRun(second.url, done.runId);
    expect(survived.record).toEqual(finished.record);
    expect(survived.samples).toEqual(finished.samples);
    expect(survived.samples.length).toBe(finished.record.run.summary!.sampleCount);

    const cut = await getRun(second.url, slow.runId);
    expect(cut.record.run.status).toBe('interrupted');
    expect(cut.record.run.summary).toBeNull();
    // Everything flushed before the kill (at most the last second was still buffered) is there, unchanged.
    expect(cut.samples.length).toBeGreaterThanOrEqual(20);
    expect(cut.samples.length).toBeLessThanOrEqual(beforeKill.samples.length);
    expect(cut.samples).toEqual(beforeKill.samples.slice(0, cut.samples.length));
    expect(cut.record.observed?.sampleCount).toBe(cut.samples.length);
    expect(cut.record.notes[0]).toMatch(/^The server stopped while this run was running/);

    await killed(second.proc, 'SIGTERM');
    expect(second.proc.exitCode).toBe(0);
  });
});

describe('server shutdown', () => {
  it('records a run cut off by SIGTERM as interrupted ("server shut down") and tells viewers 1001', async () => {
    const server = await startServer();
    const slow = await startRun(server.url, { delayMs: 100 });
    await until(
      () => getRun(server.url, slow.runId),
      (d) => d.record.run.status === 'running' && d.samples.length >= 5,
    );
    expect(childPids(server.proc.pid!)).toHaveLength(1);
    await killed(server.proc, 'SIGTERM');
    expect(server.proc.exitCode).toBe(0);
    expect(await slow.closeCode).toBe(1001);
    // Nothing the server started is left: not the run's child, not a spare.
    expect(processesWithEnv('STREAM_LAB_DATA_DIR', dataDir)).toEqual([]);

    const again = await startServer();
    const cut = await getRun(again.url, slow.runId);
    expect(cut.record.run.status).toBe('interrupted');
    expect(cut.record.run.summary).toMatchObject({ outcome: 'interrupted', reason: 'server shut down' });
    expect(cut.samples.length).toBeGreaterThanOrEqual(5);
    await killed(again.proc, 'SIGTERM');
  });

  it('leaves no run child and no spare behind a server killed with SIGKILL (gone within 1 s)', async () => {
    const server = await startServer();
    const slow = await startRun(server.url, { delayMs: 100 });
    await until(
      () => getRun(server.url, slow.runId),
      (d) => d.record.run.status === 'running',
    );
    expect(childPids(server.proc.pid!)).toHaveLength(1);
    await killed(server.proc, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 1000));
    expect(processesWithEnv('STREAM_LAB_DATA_DIR', dataDir)).toEqual([]);
  });

  it('keeps one spare child booted while idle, hands it to the next run, and takes it along when stopped', async () => {
    const server = await startServer();
    await until(
      async () => childPids(server.proc.pid!),
      (pids) => pids.length === 1,
    );
    const [spare] = childPids(server.proc.pid!);
    // Waiting, the spare's session sits at the cap (server/runner/child-priority.ts:
    // STREAM_LAB_CHILD_NICE, 19 by default); its threads keep the server's nice until it runs.
    if (existsSync(`/proc/${spare}/autogroup`)) expect(readFileSync(`/proc/${spare}/autogroup`, 'utf8')).toMatch(/ nice 19$/m);
    expect(new Set(threadNices(spare))).toEqual(new Set([threadNices(process.pid)[0]]));
    const run = await startRun(server.url, { delayMs: 100 });
    const running = await until(
      () => getRun(server.url, run.runId),
      (d) => d.record.run.status === 'running',
    );
    // The run got the booted spare, not a fresh fork; the next spare comes when the run ends.
    expect(running.record.run.pid).toBe(spare);
    // Alone, a running run has the weight of an ordinary program (nice 0): it does not starve behind other work.
    if (threadNices(process.pid)[0] === 0) expect(new Set(threadNices(spare))).toEqual(new Set([0]));
    expect(childPids(server.proc.pid!)).toEqual([spare]);
    await killed(server.proc, 'SIGTERM');
    expect(processesWithEnv('STREAM_LAB_DATA_DIR', dataDir)).toEqual([]);
  });
});
