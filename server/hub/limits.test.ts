import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_STREAMS_PARAMS, type StreamsParams } from '../../labs/streams/shared/params';
import { createLabServer, type LabServer } from '../app-server';
import { TestClient } from '../test-client';
import { withTempDataDir } from '../test-support';
import { RATE_LIMITS, TokenBucket } from './limits';

const SMALL: StreamsParams = { ...DEFAULT_STREAMS_PARAMS, sizeMb: 4, delayMs: 1, timeoutS: 60 };

async function connect(server: LabServer): Promise<TestClient> {
  const c = new TestClient(server.url);
  await c.opened;
  await c.next('snapshot');
  return c;
}

describe('TokenBucket', () => {
  it('allows a burst, then one per interval, and says how long to wait', () => {
    let now = 0;
    const bucket = new TokenBucket({ burst: 2, everyMs: 1000 }, () => now);
    expect([bucket.take(), bucket.take()]).toEqual([0, 0]);
    expect(bucket.take()).toBe(1000);
    now = 400;
    expect(bucket.take()).toBe(600);
    now = 1000;
    expect(bucket.take()).toBe(0);
  });
});

withTempDataDir('limits');
let limited: LabServer;
beforeAll(async () => {
  limited = await createLabServer({ port: 0, host: '127.0.0.1', next: false });
});
afterAll(async () => {
  await limited.close();
});

describe('rate limits', () => {
  it('answers resync and experiment.start past their limits with a rate-limited error that says when to retry', async () => {
    const c = await connect(limited);
    for (let i = 0; i < RATE_LIMITS.resync.burst + 1; i++) c.send({ type: 'resync' });
    const refused = await c.next('error', (m) => m.code === 'rate-limited');
    expect(refused.requestType).toBe('resync');
    expect(refused.message).toMatch(/^resync: at most 3 at once, then one every 5 s per connection; try again in \d\.\d s$/);
    await expect.poll(() => c.messages.filter((m) => m.type === 'snapshot').length).toBe(1 + RATE_LIMITS.resync.burst);

    const params = { ...SMALL, delayMs: 1000 };
    for (let i = 0; i < RATE_LIMITS['experiment.start'].burst + 1; i++)
      c.send({ type: 'experiment.start', strategies: ['for-await'], params, parallel: false });
    const tooMany = await c.next('error', (m) => m.requestType === 'experiment.start');
    expect(tooMany.code).toBe('rate-limited');
    await expect.poll(() => c.messages.filter((m) => m.type === 'run.queued').length).toBe(RATE_LIMITS['experiment.start'].burst);
    // Another page is not affected by this one's limit.
    const other = await connect(limited);
    other.send({ type: 'resync' });
    await other.next('snapshot', () => true, 1);
    c.send({ type: 'stop.all' });
    await expect.poll(() => c.messages.filter((m) => m.type === 'run.ended').length).toBe(RATE_LIMITS['experiment.start'].burst);
    c.close();
    other.close();
  });
});
