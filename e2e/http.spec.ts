import { expect, test, type Locator, type Page } from './fixtures';
import { formatMb } from '../lib/readouts/format';
import { openLab, pickStrategies as pick, startAndFindCards } from './lab-page';

/** Each HTTP run starts its own PostgreSQL and load generator; the first one may also make the table. */
const RUN_TIMEOUT_MS = 120_000;

const openHttpLab = (page: Page) => openLab(page, 'http');

async function points(chart: Locator): Promise<number> {
  return Number(await chart.getAttribute('data-points'));
}

test('the lab switch shows the HTTP lab’s form, strategies and tagline, and the URL carries it', async ({ page }) => {
  await openHttpLab(page);
  await expect(page.getByTestId('tagline')).toContainText('buffered JSON response');
  // Only the HTTP lab's strategies are offered, none of the streams lab's.
  await expect(page.getByTestId('strategy-checkbox-buffered-json')).toBeVisible();
  await expect(page.getByTestId('strategy-checkbox-write-ignoring-drain')).toBeVisible();
  await expect(page.getByTestId('strategy-checkbox-rxjs-from')).toHaveCount(0);
  await expect(page.getByTestId('input-sizeMb')).toHaveCount(0);
  // HTTP runs go one at a time: no parallel switch, a note instead.
  await expect(page.getByTestId('input-parallel')).toHaveCount(0);
  await expect(page.getByTestId('one-at-a-time-note')).toBeVisible();

  // A bad value is named with the field's label and range, and Start is off.
  await page.getByTestId('input-rows').fill('10');
  await expect(page.getByTestId('input-rows')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('error-rows')).toHaveText('Table size (rows) must be a whole number between 1000 and 1000000');
  await expect(page.getByTestId('start-button')).toBeDisabled();
  await expect(page.getByTestId('start-blocked')).toContainText('Table size (rows)');

  await page.getByTestId('input-rows').fill('2000');
  await expect(page.getByTestId('start-button')).toBeEnabled();
  await expect(page).toHaveURL(/\?lab=http&strategies=buffered-json,ndjson-cursor&rows=2000&/);

  // The link reopens the HTTP lab with what was typed.
  await page.reload();
  await expect(page.getByTestId('connection-status')).toHaveText('connected');
  await expect(page.getByTestId('lab-switch')).toHaveAttribute('data-lab', 'http');
  await expect(page.getByTestId('input-rows')).toHaveValue('2000');

  // Back to streams: its form and URL are as before labs existed.
  await page.getByTestId('lab-option-streams').check();
  await expect(page.getByTestId('input-sizeMb')).toBeVisible();
  await expect(page.getByTestId('strategy-checkbox-buffered-json')).toHaveCount(0);
  await expect(page).not.toHaveURL(/lab=/);
});

test('buffered-json vs ndjson-cursor on a small table: live charts, then completed results and verdicts', async ({ page }) => {
  test.setTimeout(2 * RUN_TIMEOUT_MS + 30_000);
  const sent: string[] = [];
  page.on('websocket', (ws) => ws.on('framesent', (frame) => sent.push(String(frame.payload))));
  await openHttpLab(page);
  await pick(page, ['buffered-json', 'ndjson-cursor']);
  await page.getByTestId('input-rows').fill('1000');
  await page.getByTestId('input-requests').fill('20');
  await page.getByTestId('input-concurrency').fill('4');

  const {
    ids,
    cards: [buffered, cursor],
  } = await startAndFindCards(page, 2);

  // What went out: an HTTP experiment with the typed parameters, never parallel.
  const start = sent
    .map((f) => JSON.parse(f) as { type: string; lab?: string; params?: Record<string, unknown>; parallel?: boolean })
    .find((m) => m.type === 'experiment.start');
  expect(start).toMatchObject({ lab: 'http', params: { rows: 1000, requests: 20, concurrency: 4 }, parallel: false });

  await expect(buffered).toHaveAttribute('data-strategy', 'buffered-json');
  await expect(cursor).toHaveAttribute('data-strategy', 'ndjson-cursor');
  await expect(buffered).toHaveAttribute('data-lab', 'http');

  for (const c of [buffered, cursor]) {
    await expect(c).toHaveAttribute('data-status', 'completed', { timeout: RUN_TIMEOUT_MS });
    // Both charts drew on canvas: the server's memory and socket buffers, and the load's latency.
    for (const testId of ['run-chart', 'run-chart-load']) {
      const chart = c.getByTestId(testId);
      await chart.scrollIntoViewIfNeeded();
      await expect(chart.locator('canvas').first()).toBeVisible();
      await expect(chart).toHaveAttribute('data-drawn', 'true');
      expect(await points(chart)).toBeGreaterThan(0);
    }
    await expect(c.getByTestId('run-progress')).toHaveAttribute('data-fraction', '1.0000');
    await expect(c.getByTestId('run-progress')).toContainText('20 of 20 responses (100%)');
    await expect(c.getByTestId('run-figure-heap-used')).toHaveAttribute('data-kind', 'peak');
  }

  // Another view of the load chart draws in its own unit.
  await cursor.getByTestId('run-view-throughput').click();
  await expect(cursor.getByTestId('run-chart-load')).toHaveAttribute('data-y-unit', /\/s$/);

  for (const id of ids) {
    const row = page.locator(`[data-testid="result-row"][data-run-id="${id}"]`);
    await expect(row).toHaveAttribute('data-outcome', 'completed');
    await expect(row).toHaveAttribute('data-lab', 'http');
    await expect(row.locator('[data-field="responsesOk"]')).toHaveAttribute('data-value', '20');
    await expect(row.locator('[data-field="badResponses"]')).toHaveAttribute('data-value', '0');
    expect(Number(await row.locator('[data-field="heapUsed"]').getAttribute('data-value'))).toBeGreaterThan(0);
    expect(Number(await row.locator('[data-field="latencyP50Ms"]').getAttribute('data-value'))).toBeGreaterThan(0);
  }
  await expect(page.getByTestId('results-table-http')).toBeVisible();
  // The streamed run's verdict is measured against the buffered one (whatever the figures said).
  await expect(cursor.getByTestId('run-verdict')).toContainText('buffered-json');
  await expect(buffered.getByTestId('run-verdict')).toContainText('Served 20 responses of 1,000 rows, 4 at once');
});

/** A step's runs' figures, from the data attributes of their result blocks. */
async function lessonFigures(step: Locator, strategy: string): Promise<{ outcome: string; heapUsed: number; writableBytes: number }> {
  const result = step.locator(`[data-testid="lesson-run-result"][data-strategy="${strategy}"]`);
  return {
    outcome: (await result.getAttribute('data-outcome'))!,
    heapUsed: Number(await result.getAttribute('data-peak-heap-used')),
    writableBytes: Number(await result.getAttribute('data-peak-writable-bytes')),
  };
}

async function runLessonStep(page: Page, n: number): Promise<{ step: Locator; conclusion: string }> {
  const step = page.locator(`[data-testid="lesson-step"][data-step="${n}"]`);
  await expect(step).toHaveAttribute('data-status', 'idle');
  await step.getByTestId('lesson-run').click();
  await expect(step).toHaveAttribute('data-status', 'running');
  await expect(step).toHaveAttribute('data-status', 'done', { timeout: RUN_TIMEOUT_MS });
  return { step, conclusion: (await step.getByTestId('lesson-conclusion').textContent())! };
}

test('the HTTP walkthrough: each step runs the HTTP lab and concludes from its own figures', async ({ page }) => {
  test.setTimeout(4 * RUN_TIMEOUT_MS);
  await page.goto('/lessons/http');
  await expect(page.getByTestId('connection-status')).toHaveText('connected');
  await expect(page.getByTestId('lesson-step')).toHaveCount(3);
  // Which way each step went is measured, not assumed: a surprise must be called one.
  const expectVerdict = async (step: Locator, expected: boolean, conclusion: string) => {
    await expect(step.getByTestId('lesson-conclusion')).toHaveAttribute('data-expected', String(expected));
    if (!expected) expect(conclusion).toContain('Not what this lesson expects');
  };

  {
    const { step, conclusion } = await runLessonStep(page, 1);
    const buffered = await lessonFigures(step, 'buffered-json');
    const cursor = await lessonFigures(step, 'ndjson-cursor');
    expect([buffered.outcome, cursor.outcome]).toEqual(['completed', 'completed']);
    expect(conclusion).toContain(`buffered-json's heapUsed peaked at ${formatMb(buffered.heapUsed)}`);
    expect(conclusion).toContain(`ndjson-cursor's at ${formatMb(cursor.heapUsed)}`);
    await expectVerdict(step, buffered.heapUsed >= 2 * cursor.heapUsed, conclusion);
    await expect(step.getByTestId('lesson-run-panel')).toHaveCount(2);
  }
  {
    const { step, conclusion } = await runLessonStep(page, 2);
    const buffered = await lessonFigures(step, 'buffered-json');
    const allRows = await lessonFigures(step, 'ndjson-all-rows');
    expect(conclusion).toContain(`ndjson-all-rows's heapUsed peaked at ${formatMb(allRows.heapUsed)}`);
    await expectVerdict(step, buffered.heapUsed < 2 * allRows.heapUsed, conclusion);
  }
  {
    const { step, conclusion } = await runLessonStep(page, 3);
    const drain = await lessonFigures(step, 'write-ignoring-drain');
    const cursor = await lessonFigures(step, 'ndjson-cursor');
    expect(conclusion).toContain(`write-ignoring-drain's socket buffers held up to ${formatMb(drain.writableBytes)}`);
    await expectVerdict(step, drain.writableBytes >= 1024 * 1024 && drain.writableBytes >= 4 * cursor.writableBytes, conclusion);
  }
});

test('the HTTP walkthrough works in a 480 px iframe without sideways scrolling', async ({ page }) => {
  // Framing is allowed to the server's own origin, so the host page is served from it by the browser.
  await page.route('**/iframe-host', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><body style="margin:0"><iframe id="walk" src="/lessons/http" style="width:480px;height:700px;border:0"></iframe></body>',
    }),
  );
  await page.goto('/iframe-host');
  const walk = page.frameLocator('#walk');
  await expect(walk.getByTestId('connection-status')).toHaveText('connected');
  await expect(walk.getByTestId('lesson-step')).toHaveCount(3);
  const frame = page.frame({ url: /\/lessons\/http$/ })!;
  expect(await frame.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
});
