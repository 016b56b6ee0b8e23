/**
 * Strategies of yours on a running server: a file saved into the strategies folder reaches every
 * page within a few seconds, no restart, and runs from the page's message like a built-in; a file
 * that does not compile is listed with its problem and refused at Start, naming file, line and column.
 */
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_STREAMS_PARAMS } from '../../labs/streams/shared/params';
import { createLabServer, type LabServer } from '../app-server';
import { TestClient } from '../test-client';
import { withTempDataDir } from '../test-support';

const SMALL = { ...DEFAULT_STREAMS_PARAMS, sizeMb: 1, delayMs: 0 };

/** Writes a file whole, as an editor's save does (a look at the folder never sees it half written). */
function save(path: string, text: string): void {
  writeFileSync(`${path}.part`, text);
  renameSync(`${path}.part`, path);
}
const READER = `
export const strategy = {
  id: 'saved-later',
  label: 'Saved while the server ran',
  mode: 'pull',
  async run({ stream, consume }) {
    for await (const chunk of stream) await consume(chunk);
  },
};
`;

describe('strategies of yours on a running server', () => {
  withTempDataDir('yours-live');
  let dir: string;
  let lab: LabServer;
  let client: TestClient;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'stream-lab-yours-live-'));
    mkdirSync(join(dir, 'streams'));
    lab = await createLabServer({ port: 0, host: '127.0.0.1', next: false, strategiesDir: dir });
    client = new TestClient(lab.url);
    await client.opened;
    await client.next('snapshot');
  });

  afterAll(async () => {
    client.close();
    await lab.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists a file saved while it runs, and runs it from the page like a built-in', async () => {
    const snapshot = await client.next('snapshot');
    expect(snapshot.strategies.filter((s) => s.origin === 'yours')).toEqual([]);
    const from = client.messages.length;
    save(join(dir, 'streams', 'saved-later.mjs'), READER);
    // The folder is looked at every second; a busy machine may take a few to compile and probe it.
    const listed = await client.next('strategies', (m) => m.strategies.some((s) => s.id === 'saved-later'), from);
    expect(listed.strategies.find((s) => s.id === 'saved-later')).toMatchObject({ origin: 'yours', mode: 'pull', problem: null, lab: 'streams' });

    client.send({ type: 'experiment.start', lab: 'streams', strategies: ['saved-later', 'pipeline-generator'], params: SMALL, parallel: false });
    const ended = await Promise.all(['saved-later', 'pipeline-generator'].map((id) => client.next('run.ended', (m) => m.run.strategy === id)));
    expect(ended.map((m) => [m.run.strategy, m.run.status, m.run.summary && 'bytesProcessed' in m.run.summary ? m.run.summary.bytesProcessed : null])).toEqual([
      ['saved-later', 'completed', 1024 * 1024],
      ['pipeline-generator', 'completed', 1024 * 1024],
    ]);
  }, 60_000);

  it('ends a strategy that writes a file as refused, naming the permission; nothing is written and the server runs the next', async () => {
    const target = join(dir, 'should-not-exist.txt');
    const from = client.messages.length;
    save(
      join(dir, 'streams', 'writer.mjs'),
      `import { writeFileSync } from 'node:fs';
export const strategy = { id: 'writer', label: 'writes', mode: 'pull', async run({ stream, consume }) {
  for await (const chunk of stream) { await consume(chunk); writeFileSync(${JSON.stringify(target)}, 'x'); }
} };`,
    );
    await client.next('strategies', (m) => m.strategies.some((s) => s.id === 'writer' && !s.problem), from);
    client.send({ type: 'experiment.start', lab: 'streams', strategies: ['writer'], params: SMALL, parallel: false });
    const refused = await client.next('run.ended', (m) => m.run.strategy === 'writer');
    expect([refused.run.status, refused.run.summary?.reason]).toEqual(['refused', `no permission to write ${target}`]);
    expect(existsSync(target)).toBe(false);
    const after = client.messages.length;
    client.send({ type: 'experiment.start', lab: 'streams', strategies: ['pipeline-generator'], params: SMALL, parallel: false });
    const next = await client.next('run.ended', (m) => m.run.strategy === 'pipeline-generator', after);
    expect(next.run.status).toBe('completed');
  }, 60_000);

  it('lists a file that does not compile with its problem, refuses it at Start, and forgets a removed file', async () => {
    const from = client.messages.length;
    save(join(dir, 'streams', 'half-typed.ts'), "export const strategy = {\n  id: 'half-typed',\n  mode: 'pull',\n  label: 'not closed,\n};\n");
    const listed = await client.next('strategies', (m) => m.strategies.some((s) => s.id === 'half-typed'), from);
    const problem = listed.strategies.find((s) => s.id === 'half-typed')?.problem;
    expect(problem).toMatchObject({ file: join(dir, 'streams', 'half-typed.ts'), line: 4 });

    const asked = client.messages.length;
    client.send({ type: 'experiment.start', lab: 'streams', strategies: ['half-typed'], params: SMALL, parallel: false });
    const refused = await client.next('error', (m) => m.requestType === 'experiment.start', asked);
    expect(refused.message).toMatch(new RegExp(`^strategies: half-typed can't run: ${join(dir, 'streams', 'half-typed.ts')}:4:\\d+: `));

    const before = client.messages.length;
    unlinkSync(join(dir, 'streams', 'half-typed.ts'));
    const gone = await client.next('strategies', (m) => !m.strategies.some((s) => s.id === 'half-typed'), before);
    expect(gone.strategies.filter((s) => s.origin === 'yours').map((s) => s.id)).toEqual(['saved-later', 'writer']);
  }, 60_000);
});
