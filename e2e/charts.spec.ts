import { expect, test, type Locator, type Page } from './fixtures';
import type { RunSummary } from '../lib/protocol';
import { openLab, pickStrategies, startAndFindCards } from './lab-page';

/** Starts one experiment of the given strategies (sequential, small file) and returns its cards once all completed. */
async function runToEnd(page: Page, strategies: string[], sizeMb = 8, delayMs = 5): Promise<Locator[]> {
  await openLab(page, 'streams');
  await pickStrategies(page, strategies);
  await page.getByTestId('input-sizeMb').fill(String(sizeMb));
  await page.getByTestId('input-delayMs').fill(String(delayMs));
  await page.getByTestId('input-parallel').setChecked(false);
  const { cards } = await startAndFindCards(page, strategies.length);
  for (const card of cards) await expect(card).toHaveAttribute('data-status', 'completed', { timeout: 60_000 });
  return cards;
}

async function recordedSummary(page: Page, runId: string): Promise<RunSummary> {
  let summary: RunSummary | undefined;
  await expect
    .poll(async () => {
      summary = (await (await page.request.get(`/api/runs/${runId}`)).json()).record?.run?.summary;
      return summary?.outcome;
    })
    .toBe('completed');
  return summary!;
}

/** Moves the pointer over a chart's plot at `fraction` of its width and returns the readout. */
async function hoverChart(chart: Locator, fraction: number): Promise<Locator> {
  // A chart builds its plot on its first draw, once on screen.
  await chart.scrollIntoViewIfNeeded();
  await expect(chart).toHaveAttribute('data-drawn', 'true');
  const plot = chart.locator('.chart-plot');
  const readout = chart.getByTestId('chart-readout');
  await expect(async () => {
    const box = (await plot.boundingBox())!;
    // The plot area starts right of the 44 px y axis; moving in two steps makes a fresh mousemove.
    const left = box.x + 44 + (box.width - 56) * fraction;
    await chart.page().mouse.move(left - 3, box.y + box.height / 3);
    await chart.page().mouse.move(left, box.y + box.height / 3);
    await expect(readout).toBeVisible({ timeout: 1000 });
  }).toPass();
  return readout;
}

test('clicking a legend item hides that series and clicking again shows it', async ({ page }) => {
  const [card] = await runToEnd(page, ['pipeline-generator']);
  const chart = card.getByTestId('run-chart');
  await expect(chart).toHaveAttribute('data-hidden-series', '');
  const readout = await hoverChart(chart, 0.5);
  await expect(readout.locator('li[data-series-key="arrayBuffers"]')).toHaveCount(1);

  const item = chart.locator('.chart-legend button[data-series-key="arrayBuffers"]');
  await item.click();
  await expect(chart).toHaveAttribute('data-hidden-series', 'arrayBuffers');
  await expect(item).toHaveAttribute('aria-pressed', 'false');
  const after = await hoverChart(chart, 0.5);
  await expect(after.locator('li[data-series-key="arrayBuffers"]')).toHaveCount(0);
  await expect(after.locator('li[data-series-key="rss"]')).toHaveCount(1);

  await item.click();
  await expect(chart).toHaveAttribute('data-hidden-series', '');
  await expect(item).toHaveAttribute('aria-pressed', 'true');
});

test("a finished run's card shows the summary's maxima and peaks, not its last sample", async ({ page }) => {
  const [card] = await runToEnd(page, ['rxjs-from']);
  const summary = await recordedSummary(page, (await card.getAttribute('data-run-id'))!);
  const figure = (id: string) => card.getByTestId(`run-figure-${id}`);
  await expect(figure('el-delay')).toHaveAttribute('data-kind', 'max');
  await expect(figure('el-delay')).toHaveAttribute('data-value', String(summary.eventLoopDelayMs.max));
  await expect(figure('el-delay')).toContainText(`${summary.eventLoopDelayMs.max.toFixed(1)} ms max`);
  await expect(figure('array-buffers')).toHaveAttribute('data-kind', 'peak');
  await expect(figure('array-buffers')).toHaveAttribute('data-value', String(summary.peak?.arrayBuffers));
  // The peak the results table gives: the higher of the child's own samples and /proc's readings.
  await expect(figure('rss-outside')).toHaveAttribute('data-value', String(Math.max(summary.peak?.rss ?? 0, summary.procPeakRss ?? 0)));
  await expect(figure('rss-outside')).toContainText('peak');
  // CPU time of the run, beside memory: the figure from the summary, and the chart on request.
  await expect(figure('cpu')).toHaveAttribute('data-value', String(summary.cpu!.userMs + summary.cpu!.systemMs));
  const chart = card.getByTestId('run-chart');
  await card.getByTestId('run-view-cpu').click();
  await chart.scrollIntoViewIfNeeded();
  await expect(chart).toHaveAttribute('data-y-unit', '%');
  await expect(chart.getByText('CPU', { exact: true })).toBeVisible();
});

test('the tooltip on /runs/compare lists both runs at a time where both have data', async ({ page }) => {
  const cards = await runToEnd(page, ['rxjs-from', 'pipeline-generator'], 8, 10);
  const ids = await Promise.all(cards.map(async (c) => (await c.getAttribute('data-run-id'))!));
  for (const id of ids) await recordedSummary(page, id);
  await page.goto(`/runs/compare?ids=${ids.join(',')}`);
  const chart = page.getByTestId('compare-chart');
  await expect(chart.locator('svg.recharts-surface')).toBeVisible();
  // 30 % of the way in, both runs (each timed from its own start) are still going.
  const readout = await hoverChart(chart, 0.3);
  const items = readout.locator('li[data-series-key]');
  await expect(items).toHaveCount(2);
  expect((await items.evaluateAll((els) => els.map((e) => e.getAttribute('data-series-key')))).sort()).toEqual([...ids].sort());
  for (const item of await items.all()) expect(Number(await item.getAttribute('data-value'))).toBeGreaterThan(0);
});
