import { expect, test, type Page, stopLeftovers } from './fixtures';
import { formatMs } from '../lib/readouts/format';

/** A 4-second schedule of light requests: a run is mostly starting the store, the service and the load. */
const RUN_TIMEOUT_MS = 40_000;
const SCHEDULE = { durationS: '4', spikeStartS: '1', spikeS: '2', baselineRps: '2', spikeRps: '6', objects: '10', cpuMs: '1' };

async function openDeadlineLab(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByTestId('connection-status')).toHaveText('connected');
  await stopLeftovers(page);
  await page.getByTestId('lab-option-deadline').check();
  await expect(page.getByTestId('lab-switch')).toHaveAttribute('data-lab', 'deadline');
}

test('the deadlines lab refuses bad knobs naming the field and its range', async ({ page }) => {
  await openDeadlineLab(page);
  await expect(page.getByTestId('tagline')).toContainText('fires late');
  for (const [field, value, range] of [
    ['objects', '0', 'between 10 and 100'],
    ['spikeRps', '1000000', 'between 0.1 and 200'],
    ['deadlineMs', '0', 'between 10 and 60000'],
  ] as const) {
    await page.getByTestId(`input-${field}`).fill(value);
    await expect(page.getByTestId(`error-${field}`)).toContainText(range);
    await expect(page.getByTestId('start-button')).toBeDisabled();
    await page.getByTestId(`input-${field}`).fill(field === 'objects' ? '10' : field === 'spikeRps' ? '8' : '1200');
  }
  await expect(page.getByTestId('start-button')).toBeEnabled();
});

test('unbounded vs worker-pool from the page: the lateness chart with the spike band, the scatter, results and verdicts', async ({ page }) => {
  test.setTimeout(2 * RUN_TIMEOUT_MS + 20_000);
  await openDeadlineLab(page);
  for (const [field, value] of Object.entries(SCHEDULE)) await page.getByTestId(`input-${field}`).fill(value);
  await expect(page.getByTestId('strategy-checkbox-unbounded')).toBeChecked();
  await expect(page.getByTestId('strategy-checkbox-worker-pool')).toBeChecked();

  const before = new Set(await page.getByTestId('run-card').evaluateAll((els) => els.map((e) => e.getAttribute('data-run-id'))));
  await page.getByTestId('start-button').click();
  let ids: string[] = [];
  await expect
    .poll(async () => {
      ids = (await page.getByTestId('run-card').evaluateAll((els) => els.map((e) => e.getAttribute('data-run-id')!))).filter((id) => !before.has(id));
      return ids.length;
    })
    .toBe(2);
  const cards = ids.map((id) => page.locator(`[data-testid="run-card"][data-run-id="${id}"]`));
  await expect(cards[0]).toHaveAttribute('data-strategy', 'unbounded');
  await expect(cards[1]).toHaveAttribute('data-strategy', 'worker-pool');

  // Live: the lateness chart draws, and the spike band appears once the load has started its schedule.
  const live = cards[0].getByTestId('run-chart');
  await expect(live).toHaveAttribute('data-drawn', 'true', { timeout: RUN_TIMEOUT_MS });
  await expect(live).toHaveAttribute('data-spike-from-ms', /^\d+$/);

  for (const card of cards) {
    await expect(card).toHaveAttribute('data-status', 'completed', { timeout: RUN_TIMEOUT_MS });
    const chart = card.getByTestId('run-chart');
    await chart.scrollIntoViewIfNeeded();
    await expect(chart).toHaveAttribute('aria-label', /Timer lateness/);
    const from = Number(await chart.getAttribute('data-spike-from-ms'));
    const to = Number(await chart.getAttribute('data-spike-to-ms'));
    expect(to - from).toBe(2000);
    await expect(card.getByTestId('spike-band-note')).toContainText('Shaded: the spike');
    const scatter = card.getByTestId('lateness-scatter');
    await expect(scatter).toBeVisible();
    expect(Number(await scatter.getAttribute('data-points'))).toBeGreaterThan(0);
    await expect(scatter.getByTestId('lateness-spike-band')).toHaveCount(1);
    // Its y axis is labelled up to a tick at or above the latest timer.
    const yLabels = await scatter.getByTestId('lateness-y-axis').locator('span').allTextContents();
    expect(yLabels[0]).toMatch(/^0 (ms|s)$/);
    const [, value, unit] = /^([\d.]+) (ms|s)$/.exec(yLabels[yLabels.length - 1])!;
    expect(Number(value) * (unit === 's' ? 1000 : 1)).toBeGreaterThanOrEqual(Number(await scatter.getAttribute('data-max-ms')));
    await expect(card.getByTestId('run-verdict')).toContainText('of work in the spike');
  }

  for (const id of ids) {
    const row = page.locator(`[data-testid="result-row"][data-run-id="${id}"]`);
    await expect(row).toHaveAttribute('data-outcome', 'completed');
    const value = async (f: string) => Number(await row.locator(`[data-field="${f}"]`).getAttribute('data-value'));
    const sum = (await value('onTime')) + (await value('late')) + (await value('timedOut')) + (await value('refused')) + (await value('errors'));
    // 2/s for 1 s, 6/s for 2 s, 2/s for 1 s.
    expect(await value('sent')).toBe(16);
    expect(sum).toBe(16);
  }
});

test('the deadlines walkthrough’s first step runs unbounded and worker-pool and concludes from their own figures; the run’s history page shows them', async ({
  page,
}) => {
  // Two runs of the lesson's 13 s schedule: 34 s measured from the walkthrough on the shared machine.
  test.setTimeout(90_000);
  await page.goto('/lessons/deadline');
  await expect(page.getByTestId('connection-status')).toHaveText('connected');
  await expect(page.getByTestId('lesson-step')).toHaveCount(2);
  const step = page.locator('[data-testid="lesson-step"][data-step="1"]');
  await step.getByTestId('lesson-run').click();
  await expect(step).toHaveAttribute('data-status', 'done', { timeout: 80_000 });
  for (const strategy of ['unbounded', 'worker-pool']) {
    const result = step.locator(`[data-testid="lesson-run-result"][data-strategy="${strategy}"]`);
    await expect(result).toHaveAttribute('data-outcome', /^(completed|data-lost)$/);
    expect(
      Number(await step.locator(`[data-testid="lesson-run-panel"][data-strategy="${strategy}"] [data-testid="lateness-scatter"]`).getAttribute('data-points')),
    ).toBeGreaterThan(0);
  }
  // The conclusion quotes the run's own figures: unbounded's spike p99, as its panel shows it.
  const conclusion = (await step.getByTestId('lesson-conclusion').textContent())!;
  const p99 = Number(await step.locator('[data-testid="lesson-run-result"][data-strategy="unbounded"]').getAttribute('data-spike-lateness-p99-ms'));
  expect(conclusion).toContain(`unbounded: timers ${formatMs(p99)} late in the spike (p99)`);
  // Which way it went is measured: a surprise must be called one.
  const expected = await step.getByTestId('lesson-conclusion').getAttribute('data-expected');
  if (expected === 'false') expect(conclusion).toContain('Not what this lesson expects');

  // The recorded run's page shows the same scatter, its spike band and the lab's figures.
  const id = await step.locator('[data-testid="lesson-run-panel"][data-strategy="unbounded"]').getAttribute('data-run-id');
  await page.goto(`/runs/${id}`);
  await expect(page.getByTestId('lateness-scatter').getByTestId('lateness-spike-band')).toHaveCount(1);
  await expect(page.getByTestId('run-summary')).toContainText(`Timer lateness in the spike p99${formatMs(p99)}`);
});
