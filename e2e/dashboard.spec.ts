import { expect, test, type Locator, type Page, stopLeftovers } from './fixtures';

const MIB = 1024 * 1024;

interface FormValues {
  sizeMb?: number;
  delayMs?: number;
  sampleMs?: number;
  retained?: boolean;
  parallel?: boolean;
}

/** Opens the page, waits for the snapshot and stops whatever an earlier test left running. */
async function openLab(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByTestId('connection-status')).toHaveText('connected');
}

async function fillForm(page: Page, strategies: string[], values: FormValues): Promise<void> {
  const boxes = page.locator('[data-testid^="strategy-checkbox-"]');
  await expect(boxes.first()).toBeVisible();
  for (const box of await boxes.all()) {
    const id = (await box.getAttribute('data-testid'))!.replace('strategy-checkbox-', '');
    await box.setChecked(strategies.includes(id));
  }
  const numbers: Array<[keyof FormValues, string]> = [
    ['sizeMb', 'input-sizeMb'],
    ['delayMs', 'input-delayMs'],
    ['sampleMs', 'input-sampleMs'],
  ];
  for (const [key, testId] of numbers) {
    if (values[key] !== undefined) await page.getByTestId(testId).fill(String(values[key]));
  }
  await page.getByTestId('input-retained').setChecked(values.retained ?? false);
  await page.getByTestId('input-parallel').setChecked(values.parallel ?? false);
}

/** Starts an experiment and returns the run cards it created, keyed by strategy. */
async function start(page: Page, strategies: string[], values: FormValues): Promise<Map<string, Locator>> {
  await fillForm(page, strategies, values);
  const before = new Set(await page.getByTestId('run-card').evaluateAll((els) => els.map((e) => e.getAttribute('data-run-id'))));
  await page.getByTestId('start-button').click();
  await expect
    .poll(
      async () =>
        (await page.getByTestId('run-card').evaluateAll((els) => els.map((e) => e.getAttribute('data-run-id')))).filter((id) => !before.has(id)).length,
    )
    .toBe(strategies.length);
  const cards = new Map<string, Locator>();
  for (const s of strategies) cards.set(s, page.locator(`[data-testid="run-card"][data-strategy="${s}"]`));
  return cards;
}

async function points(chart: Locator): Promise<number> {
  return Number(await chart.getAttribute('data-points'));
}

/** The earliest time on a live chart's x axis (data-first-x), ms from the run's start. */
async function firstX(chart: Locator): Promise<number> {
  return Number(await chart.getAttribute('data-first-x'));
}

async function runId(card: Locator): Promise<string> {
  return (await card.getAttribute('data-run-id'))!;
}

/** What the page sent on its socket since it opened (a test that checks it needs no reload to start watching). */
let sent: string[] = [];

test.beforeEach(async ({ page }) => {
  const frames: string[] = (sent = []);
  page.on('websocket', (ws) => ws.on('framesent', (frame) => frames.push(String(frame.payload))));
  await openLab(page);
  await stopLeftovers(page);
});

test('push vs pull: chart points grow live and the push reader buffers far more arrayBuffers', async ({ page }) => {
  const cards = await start(page, ['rxjs-from', 'pipeline-generator'], { sizeMb: 16, delayMs: 10, retained: true });
  const push = cards.get('rxjs-from')!;
  const pull = cards.get('pipeline-generator')!;

  // While the push run is running, its chart gains points.
  await expect(push).toHaveAttribute('data-status', 'running');
  const chart = push.getByTestId('run-chart');
  await expect.poll(() => points(chart)).toBeGreaterThan(0);
  const early = await points(chart);
  await expect.poll(() => points(chart)).toBeGreaterThan(early + 5);
  await expect(page.getByTestId('comparison-chart')).not.toHaveAttribute('data-points', '0');

  await expect(push).toHaveAttribute('data-status', 'completed', { timeout: 60_000 });
  await expect(pull).toHaveAttribute('data-status', 'completed', { timeout: 60_000 });

  const row = (card: Locator) => runId(card).then((id) => page.locator(`[data-testid="result-row"][data-run-id="${id}"]`));
  const pushRow = await row(push);
  const pullRow = await row(pull);
  await expect(pushRow).toHaveAttribute('data-outcome', 'completed');
  await expect(pullRow).toHaveAttribute('data-outcome', 'completed');
  const pushAb = Number(await pushRow.locator('[data-field="arrayBuffers"]').getAttribute('data-bytes'));
  const pullAb = Number(await pullRow.locator('[data-field="arrayBuffers"]').getAttribute('data-bytes'));
  // The push reader held most of the 16 MiB file; the pull reader (retained mode: garbage collected
  // before each sample) a few chunks.
  expect(pushAb).toBeGreaterThan(0.75 * 16 * MIB);
  expect(pullAb).toBeLessThan(4 * MIB);
  await expect(push.getByTestId('run-verdict')).toContainText('backpressure');
  // Each behaved as its strategy declares (push ignores backpressure, pull holds it), and the
  // verdict's figures are the bytes the table shows.
  await expect(push.getByTestId('run-verdict')).toHaveAttribute('data-expected', 'true');
  await expect(pull.getByTestId('run-verdict')).toHaveAttribute('data-expected', 'true');
  const quoted = JSON.parse((await push.getByTestId('run-verdict').getAttribute('data-figures'))!) as Record<string, number>;
  expect(quoted['peak.arrayBuffers']).toBe(pushAb);
  await expect(page.getByTestId('code-panel')).toContainText('from(stream)');
});

test('Stop ends a running run as stopped', async ({ page }) => {
  const cards = await start(page, ['for-await'], { sizeMb: 8, delayMs: 200 });
  const card = cards.get('for-await')!;
  await expect(card).toHaveAttribute('data-status', 'running');
  await card.getByTestId('run-stop').click();
  await expect(card).toHaveAttribute('data-status', 'stopped');
  await expect(card.getByTestId('run-verdict')).toContainText(/stopped/i);
  // A stopped run can't tell whether it would have shown what its strategy should.
  await expect(card.getByTestId('run-verdict')).toHaveAttribute('data-expected', '');
  // The ended card leads to the run's own page, which shows the same run.
  const id = await card.getAttribute('data-run-id');
  await expect(card.getByTestId('run-card-link')).toHaveAttribute('href', `/runs/${id}`);
  await card.getByTestId('run-card-link').click();
  await expect(page).toHaveURL(new RegExp(`/runs/${id}$`));
  await expect(page.getByTestId('run-verdict')).toContainText(/stopped/i);
});

test('an out-of-range value is marked at its field, Start is off, and nothing is sent', async ({ page }) => {
  // Watch what the page sends from here on: an invalid form must not send experiment.start at all.
  const mark = sent.length;
  const sentHere = () => sent.slice(mark);
  const cardIds = () => page.getByTestId('run-card').evaluateAll((els) => els.map((e) => e.getAttribute('data-run-id')));
  const before = await cardIds();
  await fillForm(page, ['rxjs-from'], { sizeMb: 8, delayMs: -1 });
  await expect(page.getByTestId('input-delayMs')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('error-delayMs')).toHaveText('Consumer delay per call (ms) must be a number between 0 and 1000');
  await expect(page.getByTestId('start-button')).toBeDisabled();
  // Enter in a field submits the form: the same check refuses it.
  await page.getByTestId('input-delayMs').press('Enter');
  // A valid message after it: the page sends on one socket, in order, from its handlers (the submit
  // handler sends at once or never), so once the hello of a name change shows in the frame watch, an
  // experiment.start sent by the Enter would already be in it. This proves the watch works too; it
  // replaces a 1 s wait.
  const details = page.getByTestId('room-panel').locator('details');
  if ((await details.getAttribute('open')) === null) await details.locator('summary').click();
  await page.getByTestId('room-name').fill('Sentinel');
  await page.getByTestId('room-save').click();
  await expect.poll(() => sentHere().some((f) => f.includes('"hello"'))).toBe(true);
  expect(sentHere().filter((f) => f.includes('"experiment.start"'))).toEqual([]);
  expect(await cardIds()).toEqual(before);
});

test('a second browser sees the same run live from the Room panel', async ({ page, browser }) => {
  // 200 ms a chunk: ~26 s, which the test stops. At 50 ms (6.5 s) a loaded machine finished the run
  // before the second browser had opened, and the mirrored card was never seen running.
  const cards = await start(page, ['for-await'], { sizeMb: 8, delayMs: 200 });
  const card = cards.get('for-await')!;
  const id = await runId(card);
  const other = await browser.newContext();
  const page2 = await other.newPage();
  await openLab(page2);
  // Another browser's experiment does not take over this page: it is listed in the room, to watch.
  await expect(page2.getByTestId('run-card')).toHaveCount(0);
  await page2.getByTestId('room-experiment').filter({ hasText: 'for await' }).getByTestId('room-watch').click();
  const mirrored = page2.locator(`[data-testid="run-card"][data-run-id="${id}"]`);
  await expect(mirrored).toHaveAttribute('data-status', 'running');
  const chart = mirrored.getByTestId('run-chart');
  const seen = await points(chart);
  await expect.poll(() => points(chart)).toBeGreaterThan(seen);
  // Whatever the run's end (stopped now, or completed if the machine was slow to get here),
  // the second browser shows the same one.
  await stopLeftovers(page);
  await expect(card).toHaveAttribute('data-status', /^(stopped|completed)$/);
  await expect(mirrored).toHaveAttribute('data-status', (await card.getAttribute('data-status'))!);
  await other.close();
});

test('reloading mid-run restores the run with its samples so far', async ({ page }) => {
  const cards = await start(page, ['pipeline-generator'], { sizeMb: 8, delayMs: 50 });
  const card = cards.get('pipeline-generator')!;
  const id = await runId(card);
  await expect.poll(() => points(card.getByTestId('run-chart'))).toBeGreaterThan(10);
  await page.reload();
  await expect(page.getByTestId('connection-status')).toHaveText('connected');
  const restored = page.locator(`[data-testid="run-card"][data-run-id="${id}"]`);
  await expect(restored).toHaveAttribute('data-status', 'running');
  // History from before the reload is drawn, not only what arrives after it: the restored chart
  // starts where the run started. (Reloading took over 10 samples, 50 ms apart, so a chart of new
  // samples only would start past 0.5 s.) Polled: the chart draws in the frame after the card.
  const chart = restored.getByTestId('run-chart');
  await expect.poll(() => points(chart)).toBeGreaterThan(10);
  expect(await firstX(chart)).toBeLessThan(250);
  await expect(restored).toHaveAttribute('data-status', 'completed', { timeout: 60_000 });
});

test('a link to a lab that does not exist says so, with links to the labs there are, and shows no lab', async ({ page }) => {
  await page.goto('/?lab=kafka');
  const panel = page.getByTestId('no-such-lab');
  await expect(panel).toBeVisible();
  await expect(panel).toContainText('No such lab');
  await expect(panel).toContainText('kafka');
  // No other lab's form, charts or verdicts in its place.
  await expect(page.getByTestId('start-button')).toHaveCount(0);
  await expect(page.getByTestId('lab-switch')).toHaveCount(0);
  await page.getByTestId('no-such-lab-link-http').click();
  await expect(page.getByTestId('lab-switch')).toHaveAttribute('data-lab', 'http');
});
