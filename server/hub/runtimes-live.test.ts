import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLabServer, type LabServer } from '../app-server';
import { runtimesDir } from '../runtimes/store';
import { TestClient } from '../test-client';
import { withTempDataDir } from '../test-support';

const data = withTempDataDir('runtimes-live');
let lab: LabServer;
const clients: TestClient[] = [];
// Its own runtimes folder: CI points STREAM_LAB_RUNTIMES_DIR at the installed runtimes, which this test must not touch.
const runtimesBefore = process.env.STREAM_LAB_RUNTIMES_DIR;

beforeAll(async () => {
  process.env.STREAM_LAB_RUNTIMES_DIR = join(data.path, 'runtimes');
  lab = await createLabServer({ port: 0, host: '127.0.0.1', next: false, runtimesEveryMs: 50 });
});
afterAll(async () => {
  for (const c of clients) c.close();
  await lab.close();
  if (runtimesBefore === undefined) delete process.env.STREAM_LAB_RUNTIMES_DIR;
  else process.env.STREAM_LAB_RUNTIMES_DIR = runtimesBefore;
});

async function connect() {
  const c = new TestClient(lab.url);
  clients.push(c);
  await c.opened;
  return { client: c, snapshot: await c.next('snapshot') };
}

/** What `npm run runtimes -- add` leaves for a version (the list reads the folder and its runtime.json). */
function fakeInstall(version: string): string {
  const dir = join(runtimesDir(), version);
  mkdirSync(join(dir, 'bin'), { recursive: true });
  writeFileSync(join(dir, 'runtime.json'), JSON.stringify({ version }));
  return dir;
}

describe('runtimes added or removed while the server runs', () => {
  it('reach open pages, and the snapshot of a page that joins later', async () => {
    const { client, snapshot } = await connect();
    expect(snapshot.runtimes.map((r) => r.version)).toEqual([process.versions.node]);

    const dir = fakeInstall('22.99.0');
    const added = await client.next('runtimes', (m) => m.runtimes.length === 2);
    expect(added.runtimes).toEqual([
      { version: process.versions.node, own: true },
      { version: '22.99.0', own: false },
    ]);
    const late = await connect();
    expect(late.snapshot.runtimes.map((r) => r.version)).toEqual([process.versions.node, '22.99.0']);

    rmSync(dir, { recursive: true });
    const removed = await client.next('runtimes', (m) => m.runtimes.length === 1);
    expect(removed.runtimes.map((r) => r.version)).toEqual([process.versions.node]);
    // Told once per change, not on every look at the folder.
    expect(client.messages.filter((m) => m.type === 'runtimes')).toHaveLength(2);
  });
});
