/**
 * A training room on one server: each browser owns the experiments it started, only it (or the
 * operator) can stop them, and the queue takes turns between browsers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_STREAMS_PARAMS, type StreamsParams } from '../../labs/streams/shared/params';
import type { ServerMessage } from '../../lib/protocol';
import { createLabServer, type LabServer } from '../app-server';
import { liveChildCount } from '../runner/runner';
import { TestClient } from '../test-client';
import { withTempDataDir } from '../test-support';
import { MAX_QUEUED_PER_OWNER } from '../queue/run-queue';

const SLOW: StreamsParams = { ...DEFAULT_STREAMS_PARAMS, sizeMb: 1, delayMs: 1000, timeoutS: 60 };
const TOKEN = 'room-operator-secret';
const UNLIMITED = { resync: { burst: 10_000, everyMs: 1 }, 'experiment.start': { burst: 10_000, everyMs: 1 } };

let lab: LabServer;
withTempDataDir('room');
beforeAll(async () => {
  lab = await createLabServer({ port: 0, host: '127.0.0.1', next: false, operatorToken: TOKEN, rateLimits: UNLIMITED });
});
afterAll(async () => {
  await lab.close();
});

/** A browser: its page's socket, after hello with its own id and name (and the token, if given). */
async function browser(name: string, operatorToken: string | null = null): Promise<TestClient & { ownerId: string }> {
  const c = new TestClient(lab.url);
  await c.opened;
  await c.next('snapshot');
  c.send({ type: 'hello', browserId: `browser-${name}-0123456789abcdef`, name, operatorToken });
  const ok = await c.next('hello.ok');
  expect(ok.operator).toBe(operatorToken === TOKEN);
  return Object.assign(c, { ownerId: ok.owner.id });
}

const start = (c: TestClient, strategies: string[]) => c.send({ type: 'experiment.start', strategies, params: SLOW, parallel: false });
const ownRun = async (c: TestClient, owner: string) => (await c.next('experiment.created', (m) => m.experiment.owner?.id === owner)).experiment;

describe('a room of browsers', () => {
  it('lets only the browser that started a run, or the operator, stop it; Stop all stops only your own', async () => {
    const alice = await browser('Alice');
    const bob = await browser('Bob');
    start(alice, ['for-await']);
    const experiment = await ownRun(alice, alice.ownerId);
    expect(experiment.owner).toEqual({ id: alice.ownerId, name: 'Alice' });
    // Others see who started it, never the browser's own id.
    expect(JSON.stringify(bob.messages)).not.toContain('browser-Alice');
    const runId = experiment.runIds[0];
    // Running, not still preparing its data file (a stop then would leave the file being made).
    await alice.next('run.updated', (m) => m.run.id === runId && m.run.status === 'running');

    bob.send({ type: 'run.stop', runId });
    const refused = await bob.next('error', (m) => m.requestType === 'run.stop');
    expect(refused).toMatchObject({ code: 'forbidden', message: "only Alice's browser can stop this run, or the operator (STREAM_LAB_OPERATOR_TOKEN)" });
    bob.send({ type: 'stop.all' });
    start(bob, ['ixjs-from']);
    const bobs = await ownRun(bob, bob.ownerId);
    bob.send({ type: 'stop.all' });
    const bobEnded = await bob.next('run.ended', (m) => m.run.id === bobs.runIds[0]);
    expect(bobEnded.summary.outcome).toBe('stopped');
    expect(alice.messages.some((m) => m.type === 'run.ended' && m.run.id === runId)).toBe(false);

    const operator = await browser('Trainer', TOKEN);
    operator.send({ type: 'run.stop', runId });
    const ended = await alice.next('run.ended', (m) => m.run.id === runId);
    expect(ended.summary.outcome).toBe('stopped');
    await expect.poll(() => liveChildCount()).toBe(0);
    for (const c of [alice, bob, operator]) c.close();
  });

  it('refuses a wrong operator token and gives no operator rights', async () => {
    const c = new TestClient(lab.url);
    await c.opened;
    c.send({ type: 'hello', browserId: 'browser-mallory-0123456789', name: 'Mallory', operatorToken: 'guess-guess-guess' });
    expect(await c.next('error', (m) => m.requestType === 'hello')).toMatchObject({
      code: 'forbidden',
      message: 'the operator token is not the one this server was given',
    });
    expect((await c.next('hello.ok')).operator).toBe(false);
    c.close();
  });

  it('takes turns between browsers, shows each waiting run its place and wait, and caps what one browser may queue', async () => {
    const alice = await browser('Alice');
    const bob = await browser('Bob');
    // Alice queues three one-run experiments, then Bob one: Bob's starts second, not fourth.
    for (const s of ['for-await', 'ixjs-from', 'pipeline-generator']) start(alice, [s]);
    await expect.poll(() => alice.messages.filter((m) => m.type === 'experiment.created').length).toBe(3);
    start(bob, ['for-await']);
    const bobs = await ownRun(bob, bob.ownerId);
    const order = await bob.next('queue.order', (m) => m.queue.some((q) => q.runId === bobs.runIds[0]));
    const queue = (order as Extract<ServerMessage, { type: 'queue.order' }>).queue;
    // Alice's first is running; her second waits first, then Bob's, then her third.
    const alices = alice.messages
      .filter((m): m is Extract<ServerMessage, { type: 'experiment.created' }> => m.type === 'experiment.created' && m.experiment.owner?.id === alice.ownerId)
      .map((m) => m.experiment.runIds[0]);
    expect(queue.map((q) => q.runId)).toEqual([alices[1], bobs.runIds[0], alices[2]]);
    // 16 chunks at 1 s each per run: the estimates grow along the queue.
    expect(queue[0].etaMs).toBeGreaterThan(0);
    expect(queue[1].etaMs!).toBeGreaterThan(queue[0].etaMs!);

    const many = Array.from({ length: MAX_QUEUED_PER_OWNER }, (_, i) => ['for-await', 'ixjs-from', 'pipeline-generator', 'iterator-helper'][i % 4]);
    bob.send({ type: 'experiment.start', strategies: [...new Set(many)], params: SLOW, parallel: false });
    for (let i = 0; i < 3; i++) start(bob, ['for-await', 'ixjs-from', 'pipeline-generator', 'iterator-helper']);
    const capped = await bob.next('error', (m) => m.requestType === 'experiment.start');
    expect(capped.message).toMatch(new RegExp(`^you have \\d+ runs waiting; at most ${MAX_QUEUED_PER_OWNER} per browser may wait`));
    for (const c of [alice, bob]) c.send({ type: 'stop.all' });
    await expect.poll(() => liveChildCount(), { timeout: 10_000 }).toBe(0);
    for (const c of [alice, bob]) c.close();
  });
});
