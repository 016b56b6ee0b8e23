/**
 * The Redis back end from the page: the production server (Next) with STREAM_LAB_REDIS_URL and two
 * workers, each its own process; an experiment started from the page runs on the workers, and
 * each card says which one ran it. Needs a Redis of its own (STREAM_LAB_TEST_REDIS_URL, started by
 * .ci/run); skips, saying why, without one.
 */
import type { ChildProcess } from 'node:child_process';
import { expect, test } from './fixtures';
import { killAndWait } from '../server/test-support';
import { flushRedis, removeTempDirs, startProcess, startWorker, tempDir, testRedis } from '../server/scale/scale-test-support';

const redis = testRedis();
if (!redis.url) console.log(`e2e/scale-out.spec.ts skipped: ${redis.why}`);
const started: ChildProcess[] = [];
let serverUrl = '';
let workerIds: string[] = [];

test.beforeAll(async () => {
  if (!redis.url) return;
  await flushRedis(redis.url);
  const env = {
    PORT: '0',
    HOST: '127.0.0.1',
    NODE_ENV: 'production',
    NEXT_TELEMETRY_DISABLED: '1',
    STREAM_LAB_REDIS_URL: redis.url,
    STREAM_LAB_DATA_DIR: tempDir('e2e-web'),
    STREAM_LAB_PREPARE_MB: '0',
  };
  const [server, w1, w2] = await Promise.all([
    startProcess('server/index.ts', [], env, /ready on (http:\/\/\S+)/),
    startWorker(redis.url),
    startWorker(redis.url),
  ]);
  started.push(server.proc, w1.proc, w2.proc);
  serverUrl = server.match[1];
  workerIds = [w1.id, w2.id];
});

test.afterAll(async () => {
  await Promise.all(started.map((p) => killAndWait(p, 'SIGTERM')));
  removeTempDirs();
});

test('an experiment started from the page runs on two workers, and each card names its worker', async ({ page }) => {
  test.skip(!redis.url, redis.why);
  await page.goto(serverUrl);
  await expect(page.getByTestId('connection-status')).toHaveText('connected');
  await expect(page.getByTestId('queue-backend')).toHaveAttribute('data-connected', 'true');
  // The two workers are listed (the server reads them every 5 s).
  await expect(page.getByTestId('queue-backend')).toHaveAttribute('data-workers', '2', { timeout: 15_000 });
  await expect(page.getByTestId('queue-backend')).toContainText('2 workers, 2 runs at once');
  for (const box of await page.locator('[data-testid^="strategy-checkbox-"]').all()) {
    const id = (await box.getAttribute('data-testid'))!.replace('strategy-checkbox-', '');
    await box.setChecked(id === 'for-await' || id === 'pipeline-generator');
  }
  // Two runs of about 1.5 s each: long enough that both workers take one.
  await page.getByTestId('input-sizeMb').fill('2');
  await page.getByTestId('input-delayMs').fill('50');
  await page.getByTestId('start-button').click();

  const cards = page.getByTestId('run-card');
  await expect(cards).toHaveCount(2);
  await expect(cards.nth(0)).toHaveAttribute('data-status', 'completed', { timeout: 60_000 });
  await expect(cards.nth(1)).toHaveAttribute('data-status', 'completed', { timeout: 60_000 });
  const ran = await page.getByTestId('run-worker').evaluateAll((els) => els.map((e) => e.getAttribute('data-worker-id')));
  expect(new Set(ran)).toEqual(new Set(workerIds));
  await expect(page.getByTestId('run-worker').first()).toContainText(/ran on \S+( · pinned to core \d+)? · worker of \d+ cores? · Node \d+/);
  // Same kind of machine for both runs: no warning about comparing across machines.
  await expect(page.getByTestId('mixed-machines')).toHaveCount(0);
  if (process.env.STREAM_LAB_SCREENSHOT) await page.screenshot({ path: process.env.STREAM_LAB_SCREENSHOT, fullPage: true });
});
