/**
 * Redis going away under a web server (its own redis-server, stopped and started again on the
 * same port): the page is told, a new experiment is refused with the reason, the history keeps
 * serving what it recorded, and when Redis is back (empty: nothing was persisted) the page is
 * told again and a run whose job Redis lost ends interrupted instead of hanging.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runDetailSchema } from '../../lib/history';
import { DEFAULT_STREAMS_PARAMS } from '../../labs/streams/shared/params';
import { TestClient } from '../test-client';
import { killAndWait } from '../test-support';
import { Redis } from 'ioredis';
import { QUEUE_NAME } from './redis-config';
import { startRedis, startWebServer, startWorker, testRedis, removeTempDirs } from './scale-test-support';

const hasRedis = testRedis().url !== null && spawnSync('redis-server', ['--version']).status === 0;
if (!hasRedis) console.log(`skipped: ${testRedis().why || 'no redis-server binary to stop and start'}`);

const procs: Array<{ proc: import('node:child_process').ChildProcess }> = [];
afterEach(async () => {
  await Promise.all(procs.splice(0).map((p) => killAndWait(p.proc, 'SIGKILL')));
});

afterAll(removeTempDirs);

describe.skipIf(!hasRedis)('Redis unreachable', () => {
  it('the page is told, starts are refused with the reason, history keeps serving, and a lost job ends interrupted when Redis is back', async () => {
    const redis = await startRedis();
    procs.push(redis);
    const [web, worker] = await Promise.all([startWebServer(redis.url), startWorker(redis.url)]);
    procs.push(web, worker);
    const page = new TestClient(web.url);
    await page.opened;
    const params = { ...DEFAULT_STREAMS_PARAMS, sizeMb: 1, chunkKb: 16, delayMs: 1, timeoutS: 60 };
    page.send({ type: 'experiment.start', strategies: ['for-await'], params, parallel: false });
    const done = await page.next('run.ended');
    expect(done.run.status).toBe('completed');

    // A run waits (its worker gone) when Redis goes away.
    await killAndWait(worker.proc, 'SIGKILL');
    page.send({ type: 'experiment.start', strategies: ['pipeline-generator'], params, parallel: false });
    const waiting = await page.next('run.queued', (m) => m.run.strategy === 'pipeline-generator');
    // The run is announced before its job is added: wait for the job, so Redis surely loses it.
    const probe = new Redis(redis.url);
    await expect.poll(() => probe.exists(`bull:${QUEUE_NAME}:j-${waiting.run.id}`)).toBe(1);
    probe.disconnect();
    await killAndWait(redis.proc, 'SIGKILL');
    const down = await page.next('queue.backend', (m) => !m.backend.connected);
    expect(down.backend.message).toMatch(/Redis at redis:\/\/127\.0\.0\.1:\d+ is unreachable/);
    const asked = page.messages.length;
    page.send({ type: 'experiment.start', strategies: ['for-await'], params, parallel: false });
    const refused = await page.next('error', () => true, asked);
    expect(refused.message).toMatch(/is unreachable \(.+\): no new runs can be queued/);
    const detail = runDetailSchema.parse(await (await fetch(`${web.url}/api/runs/${done.run.id}`)).json());
    expect(detail.record.run.status).toBe('completed');
    expect(detail.samples.length).toBeGreaterThan(0);

    procs.push(await startRedis(redis.port));
    await page.next('queue.backend', (m) => m.backend.connected);
    const lost = await page.next('run.ended', (m) => m.run.id === waiting.run.id);
    expect(lost.run.status).toBe('interrupted');
    expect(lost.summary.reason).toMatch(/Redis lost it/);
    page.close();
  });
});
