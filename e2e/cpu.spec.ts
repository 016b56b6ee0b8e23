import { expect, test, type Page } from './fixtures';
import { openLab, pickStrategies as pick, startAndFindCards } from './lab-page';

/** fib(30) takes milliseconds; a run is mostly starting the server, its workers and the load. */
const RUN_TIMEOUT_MS = 60_000;
const REQUESTS = 4;

const openCpuLab = (page: Page) => openLab(page, 'cpu');

test('the CPU lab’s form: its fields, notes, strategies, and a link that carries them', async ({ page }) => {
  await openCpuLab(page);
  await expect(page.getByTestId('tagline')).toContainText('up to the cores');
  await expect(page.getByTestId('strategy-checkbox-cluster-pool-leaky')).toBeVisible();
  await expect(page.getByTestId('strategy-checkbox-rxjs-from')).toHaveCount(0);
  await expect(page.getByTestId('input-workers')).toHaveValue('');
  await expect(page.locator('#input-workers-hint')).toContainText('empty = cores');
  await expect(page.locator('#input-keepAlive-note')).toContainText('balances connections, not requests');
  await expect(page.getByTestId('input-parallel')).toHaveCount(0);

  await page.getByTestId('input-n').fill('50');
  await expect(page.getByTestId('error-n')).toHaveText('Work per request (fib(n)) must be a whole number between 20 and 45');
  await expect(page.getByTestId('start-button')).toBeDisabled();
  await page.getByTestId('input-n').fill('31');
  await page.getByTestId('input-keepAlive').check();
  await expect(page).toHaveURL(/\?lab=cpu&strategies=single-thread,worker-pool&n=31&.*keepAlive=1/);
  await page.reload();
  await expect(page.getByTestId('lab-switch')).toHaveAttribute('data-lab', 'cpu');
  await expect(page.getByTestId('input-n')).toHaveValue('31');
  await expect(page.getByTestId('input-keepAlive')).toBeChecked();
});

test('single-thread vs worker-pool: live cards, then each request’s bar, results and verdicts', async ({ page }) => {
  test.setTimeout(2 * RUN_TIMEOUT_MS + 30_000);
  const sent: string[] = [];
  page.on('websocket', (ws) => ws.on('framesent', (frame) => sent.push(String(frame.payload))));
  await openCpuLab(page);
  await pick(page, ['single-thread', 'worker-pool']);
  await page.getByTestId('input-n').fill('30');
  await page.getByTestId('input-requests').fill(String(REQUESTS));

  const { ids, cards } = await startAndFindCards(page, 2);
  const start = sent.map((f) => JSON.parse(f) as { type: string }).find((m) => m.type === 'experiment.start');
  expect(start).toMatchObject({
    lab: 'cpu',
    strategies: ['single-thread', 'worker-pool'],
    params: { n: 30, requests: REQUESTS, workers: null, keepAlive: false },
    parallel: false,
  });

  await expect(cards[0]).toHaveAttribute('data-strategy', 'single-thread');
  await expect(cards[1]).toHaveAttribute('data-strategy', 'worker-pool');
  // The pool waits for its turn: no request of it has been answered yet.
  await expect(cards[1].getByTestId('request-bar')).toHaveCount(0);

  for (const card of cards) {
    await expect(card).toHaveAttribute('data-status', 'completed', { timeout: RUN_TIMEOUT_MS });
    await expect(card.getByTestId('run-progress')).toContainText(`${REQUESTS} of ${REQUESTS} requests (100%)`);
    const chart = card.getByTestId('run-chart');
    await chart.scrollIntoViewIfNeeded();
    await expect(chart).toHaveAttribute('data-drawn', 'true');
    const timeline = card.getByTestId('request-timeline');
    await expect(timeline).toBeVisible();
    await expect(timeline.getByTestId('request-bar')).toHaveCount(REQUESTS);
    await expect(timeline.locator('[data-ok="true"]')).toHaveCount(REQUESTS);
    await expect(timeline.getByTestId('timeline-legend')).toContainText('served by pid ');
  }
  // The baseline is the yardstick, not a loss; the pool gets its ratio and the ceiling.
  await expect(cards[0].getByTestId('run-figure-speedup')).toContainText('baseline');
  await expect(cards[1].getByTestId('run-figure-speedup')).toContainText('(ceiling ');
  // One thread answers every request itself; the pool's threads are named "pid/thread".
  const served = async (i: number) => new Set(await cards[i].getByTestId('request-bar').evaluateAll((els) => els.map((e) => e.getAttribute('data-served-by'))));
  expect((await served(0)).size).toBe(1);
  expect([...(await served(1))].every((s) => /^\d+\/\d+$/.test(s!))).toBe(true);

  for (const id of ids) {
    const row = page.locator(`[data-testid="result-row"][data-run-id="${id}"]`);
    await expect(row).toHaveAttribute('data-outcome', 'completed');
    await expect(row).toHaveAttribute('data-lab', 'cpu');
    await expect(row.locator('[data-field="requestsOk"]')).toHaveAttribute('data-value', String(REQUESTS));
    expect(Number(await row.locator('[data-field="makespanMs"]').getAttribute('data-value'))).toBeGreaterThan(0);
    expect(Number(await row.locator('[data-field="peakTreeRss"]').getAttribute('data-value'))).toBeGreaterThan(0);
  }
  await expect(cards[0].getByTestId('run-verdict')).toContainText(`${REQUESTS} requests of fib(30) on one thread`);
  // The pool is measured against the experiment's single thread, whichever way it went.
  await expect(cards[1].getByTestId('run-verdict')).toContainText('one thread (');
});

test('each request’s bar and the busiest threads show while the run goes; CPU per thread once it ends', async ({ page }) => {
  test.setTimeout(RUN_TIMEOUT_MS + 30_000);
  await openCpuLab(page);
  await pick(page, ['single-thread']);
  // fib(38) ≈ 0.3–0.6 s here: six in a row give the page a few seconds of a run in progress.
  await page.getByTestId('input-n').fill('38');
  await page.getByTestId('input-requests').fill('6');
  await page.getByTestId('input-concurrency').fill('1');
  const {
    cards: [card],
  } = await startAndFindCards(page, 1);
  // Bars while the run still goes (read in one go, so the status and the bars are of the same moment).
  const seenLive = () =>
    card.evaluate(
      (el) =>
        el.getAttribute('data-status') === 'running' &&
        el.querySelectorAll('[data-testid="request-bar"]').length > 0 &&
        el.querySelector('[data-testid="thread-cpu"]')?.getAttribute('data-live') === 'true',
    );
  await expect.poll(seenLive, { timeout: RUN_TIMEOUT_MS, intervals: [100] }).toBe(true);
  await expect(card).toHaveAttribute('data-status', 'completed', { timeout: RUN_TIMEOUT_MS });
  await expect(card.getByTestId('request-bar')).toHaveCount(6);
  const threads = card.getByTestId('thread-cpu');
  await expect(threads).toHaveAttribute('data-live', 'false');
  // One thread computed everything: the primary's main thread heads the list.
  await expect(threads.getByTestId('thread-cpu-row').first()).toContainText('main thread');
});

test('the CPU walkthrough’s first step runs one thread and concludes from its own figures', async ({ page }) => {
  test.setTimeout(2 * RUN_TIMEOUT_MS);
  await page.goto('/lessons/cpu');
  await expect(page.getByTestId('connection-status')).toHaveText('connected');
  await expect(page.getByTestId('lesson-step')).toHaveCount(4);
  const step = page.locator('[data-testid="lesson-step"][data-step="1"]');
  await step.getByTestId('lesson-run').click();
  await expect(step).toHaveAttribute('data-status', 'done', { timeout: RUN_TIMEOUT_MS });
  const result = step.locator('[data-testid="lesson-run-result"][data-strategy="single-thread"]');
  await expect(result).toHaveAttribute('data-outcome', 'completed');
  await expect(step.getByTestId('request-bar')).toHaveCount(4);
  const conclusion = (await step.getByTestId('lesson-conclusion').textContent())!;
  expect(conclusion).toContain('4 requests of fib(37)');
  // Which way it went is measured: a surprise must be called one.
  const expected = await step.getByTestId('lesson-conclusion').getAttribute('data-expected');
  if (expected === 'false') expect(conclusion).toContain('Not what this lesson expects');
});
