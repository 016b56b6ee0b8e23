/** A profiled run's profile stored with its record and served as a .cpuprofile download, over a real socket. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunStore } from '../store/run-store';
import { makeRecord, makeRun, makeSummary, testRunId } from '../store/store-fixtures';
import { profileRoutes } from './profile-routes';

let dir: string;
let store: RunStore;
let server: Server;
let base: string;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'stream-lab-profile-'));
  store = await RunStore.open({ dir, keepRuns: 10, keepBytes: 10 * 1024 * 1024, log: () => undefined });
  const [route] = profileRoutes(store);
  server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://x');
    const m = route.pattern.exec(url.pathname);
    if (!m) return void res.writeHead(404).end();
    void route.handle({ req, res, url, params: m.groups ?? {} } as never);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  await new Promise((r) => server.close(r));
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const PROFILE = {
  nodes: [{ id: 1, callFrame: { functionName: '(root)', scriptId: '0', url: '', lineNumber: -1, columnNumber: -1 }, children: [] }],
  startTime: 0,
  endTime: 1000,
  samples: [1],
  timeDeltas: [1000],
};

describe('profile route', () => {
  it('serves the stored profile as a .cpuprofile download, and says why when a run has none', async () => {
    const run = makeRun(testRunId(1));
    store.begin(makeRecord(run));
    store.saveProfile(run.id, PROFILE);
    await store.end({ ...run, status: 'completed', summary: makeSummary(run) }, Date.now());
    const res = await fetch(`${base}/api/runs/${run.id}/profile.cpuprofile`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${run.id}-${run.strategy}.cpuprofile"`);
    expect(await res.json()).toEqual(PROFILE);
    expect(JSON.parse(readFileSync(join(dir, run.id, 'profile.cpuprofile'), 'utf8'))).toEqual(PROFILE);

    const other = makeRun(testRunId(2));
    store.begin(makeRecord(other));
    const none = await fetch(`${base}/api/runs/${other.id}/profile.cpuprofile`);
    expect([none.status, ((await none.json()) as { message: string }).message]).toEqual([
      404,
      `run ${other.id} has no CPU profile (it was not profiled, or the profile was lost)`,
    ]);
    expect((await fetch(`${base}/api/runs/${testRunId(9)}/profile.cpuprofile`)).status).toBe(404);
    expect((await fetch(`${base}/api/runs/..%2Fetc/profile.cpuprofile`)).status).toBe(400);
  });
});
