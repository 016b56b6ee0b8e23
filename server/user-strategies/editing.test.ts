/**
 * Editing a copy in the page, over the real HTTP API of a real server: off unless the operator
 * allows it (403, with how to turn it on), checked by esbuild with line and column, saved under a
 * new id as the saving browser's file, and only that browser (or the operator) may change or delete it.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { strategyCatalog } from '../../labs/catalog';
import { createLabServer, type LabServer } from '../app-server';
import { withTempDataDir } from '../test-support';
import { editingPolicy } from './editing-routes';
import { fenceNotice } from './namespaces';

const ALICE = 'alice-browser-id-0123456789';
const BOB = 'bob-browser-id-0123456789ab';
const COPY = `
export const strategy = {
  id: 'pipeline-copy',
  label: 'My copy',
  mode: 'pull' as const,
  async run({ stream, consume }: any) {
    for await (const chunk of stream) await consume(chunk);
  },
};
`;

describe('editing a copy in the page', () => {
  withTempDataDir('editing');
  let dir: string;
  let lab: LabServer;
  const saved = process.env.STREAM_LAB_ALLOW_CODE;
  const call = (method: string, path: string, browser: string | null, body?: unknown) =>
    fetch(`${lab.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(browser && { 'x-stream-lab-browser': browser }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'stream-lab-editing-'));
    lab = await createLabServer({ port: 0, host: '127.0.0.1', next: false, strategiesDir: dir, operatorToken: null });
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.STREAM_LAB_ALLOW_CODE;
    else process.env.STREAM_LAB_ALLOW_CODE = saved;
  });
  afterAll(async () => {
    await lab.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is off by default: the page is told how to turn it on, and the save and check endpoints answer 403', async () => {
    delete process.env.STREAM_LAB_ALLOW_CODE;
    expect(await (await call('GET', '/api/strategies/editing', null)).json()).toMatchObject({
      allowed: false,
      reason: expect.stringContaining('STREAM_LAB_ALLOW_CODE=1'),
    });
    const save = await call('POST', '/api/strategies', ALICE, { lab: 'streams', id: 'pipeline-copy', source: COPY });
    expect(save.status).toBe(403);
    expect((await call('POST', '/api/strategies/check', ALICE, { lab: 'streams', source: COPY })).status).toBe(403);
    expect(existsSync(join(dir, 'streams', 'pipeline-copy.ts'))).toBe(false);
  });

  it('beyond loopback it also needs the operator token', () => {
    // Acknowledged, in case this machine makes no namespaces (the next test is about that).
    const on = { STREAM_LAB_ALLOW_CODE: '1', STREAM_LAB_ALLOW_UNFENCED: '1' };
    const notice = fenceNotice();
    const unfenced = notice.namespaces ? null : notice.text;
    expect(editingPolicy('0.0.0.0', on)).toMatchObject({
      allowed: false,
      reason: expect.stringContaining('STREAM_LAB_OPERATOR_TOKEN'),
    });
    expect(editingPolicy('0.0.0.0', { ...on, STREAM_LAB_OPERATOR_TOKEN: 'operator-secret-123' })).toEqual({
      allowed: true,
      needsToken: true,
      reason: null,
      unfenced,
    });
    expect(editingPolicy('127.0.0.1', on)).toEqual({ allowed: true, needsToken: false, reason: null, unfenced });
  });

  it('where no namespaces can be made, editing needs STREAM_LAB_ALLOW_UNFENCED=1 and the page is told what code of yours can reach', async () => {
    // STREAM_LAB_FENCE_NAMESPACES=0 stands for a kernel that refuses them.
    const cant = { STREAM_LAB_ALLOW_CODE: '1', STREAM_LAB_FENCE_NAMESPACES: '0' };
    const said =
      /^code of yours runs under Node's permission model only: it CAN signal the server and other processes of this user, and connect to anything this machine reaches/;
    expect(editingPolicy('127.0.0.1', cant)).toMatchObject({
      allowed: false,
      unfenced: expect.stringMatching(said),
      reason: expect.stringMatching(
        /^Editing is on \(STREAM_LAB_ALLOW_CODE=1\), but on this machine code of yours .* CAN signal .*STREAM_LAB_ALLOW_UNFENCED=1\.$/,
      ),
    });
    expect(editingPolicy('127.0.0.1', { ...cant, STREAM_LAB_ALLOW_UNFENCED: '1' })).toMatchObject({
      allowed: true,
      reason: null,
      unfenced: expect.stringMatching(said),
    });
    // The page gets it from the route, as it runs.
    process.env.STREAM_LAB_ALLOW_CODE = '1';
    process.env.STREAM_LAB_FENCE_NAMESPACES = '0';
    try {
      expect(await (await call('GET', '/api/strategies/editing', null)).json()).toMatchObject({ allowed: false, unfenced: expect.stringMatching(said) });
      process.env.STREAM_LAB_ALLOW_UNFENCED = '1';
      expect(await (await call('GET', '/api/strategies/editing', null)).json()).toMatchObject({ allowed: true, unfenced: expect.stringMatching(said) });
    } finally {
      delete process.env.STREAM_LAB_FENCE_NAMESPACES;
      delete process.env.STREAM_LAB_ALLOW_UNFENCED;
      delete process.env.STREAM_LAB_ALLOW_CODE;
    }
  });

  it('checks code with line and column, saves a copy as the browser’s own, and lets only that browser change or delete it', async () => {
    process.env.STREAM_LAB_ALLOW_CODE = '1';
    const check = await call('POST', '/api/strategies/check', ALICE, {
      lab: 'streams',
      id: 'pipeline-copy',
      source: 'export const strategy = {\n  id: "x",\n  run() { return 1 +; },\n};\n',
    });
    expect(check.status).toBe(200);
    expect((await check.json()).problems).toEqual([{ file: 'pipeline-copy.ts', line: 3, column: 21, message: 'Unexpected ";"' }]);

    const bad = await call('POST', '/api/strategies', ALICE, { lab: 'streams', id: 'rxjs-from', source: COPY });
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toContain("built-in strategy's");

    const save = await call('POST', '/api/strategies', ALICE, { lab: 'streams', id: 'pipeline-copy', source: COPY });
    expect(save.status).toBe(201);
    expect(readFileSync(join(dir, 'streams', 'pipeline-copy.ts'), 'utf8')).toBe(COPY);
    // Read at once, not at the next look at the folder.
    expect(strategyCatalog().find((s) => s.id === 'pipeline-copy')).toMatchObject({ origin: 'yours', problem: null, label: 'My copy' });

    // Another browser may run it, but not overwrite or delete it.
    expect((await call('POST', '/api/strategies', BOB, { lab: 'streams', id: 'pipeline-copy', source: COPY.replace('My copy', 'Bob was here') })).status).toBe(
      403,
    );
    expect(readFileSync(join(dir, 'streams', 'pipeline-copy.ts'), 'utf8')).toBe(COPY);
    expect((await call('DELETE', '/api/strategies/streams/pipeline-copy', BOB)).status).toBe(403);
    // A file must declare the id it is saved under: another browser can't claim Alice's id from a file of its own.
    const claim = await call('POST', '/api/strategies', BOB, { lab: 'streams', id: 'bobs-file', source: COPY });
    expect(claim.status).toBe(400);
    expect((await claim.json()).message).toBe('not saved: its strategy.id must be "bobs-file", the id it is saved under (it says "pipeline-copy")');
    expect(existsSync(join(dir, 'streams', 'bobs-file.ts'))).toBe(false);
    // Through a proxy (or from another machine) editing needs the operator token, whatever the server listens on.
    const proxied = await fetch(`${lab.url}/api/strategies/check`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-stream-lab-browser': ALICE, 'x-forwarded-for': '203.0.113.9' },
      body: JSON.stringify({ lab: 'streams', source: COPY }),
    });
    expect(proxied.status).toBe(403);
    // Its owner may change it, then delete it.
    expect(
      (await call('POST', '/api/strategies', ALICE, { lab: 'streams', id: 'pipeline-copy', source: COPY.replace('My copy', 'My copy, again') })).status,
    ).toBe(201);
    expect(strategyCatalog().find((s) => s.id === 'pipeline-copy')?.label).toBe('My copy, again');
    expect((await call('DELETE', '/api/strategies/streams/pipeline-copy', ALICE)).status).toBe(200);
    expect(existsSync(join(dir, 'streams', 'pipeline-copy.ts'))).toBe(false);
    expect(strategyCatalog().some((s) => s.id === 'pipeline-copy')).toBe(false);
  }, 60_000);
});
