import { readFileSync } from 'node:fs';
import { expect, test, type Page, stopLeftovers } from './fixtures';

/** A few thousand rows: each report takes tens of ms; a run is mostly starting the server and its load. */
const RUN_TIMEOUT_MS = 60_000;

async function openHotcodeLab(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByTestId('connection-status')).toHaveText('connected');
  await stopLeftovers(page);
  await page.getByTestId('lab-option-hotcode').check();
  await expect(page.getByTestId('lab-switch')).toHaveAttribute('data-lab', 'hotcode');
}

test('profile a hot-code run from the page: flame graph, functions by self time, and the .cpuprofile download', async ({ page }) => {
  test.setTimeout(RUN_TIMEOUT_MS + 30_000);
  await openHotcodeLab(page);
  await expect(page.getByTestId('strategy-checkbox-groupby-spread')).toBeVisible();
  for (const box of await page.locator('[data-testid^="strategy-checkbox-"]').all()) {
    await box.setChecked((await box.getAttribute('data-testid')) === 'strategy-checkbox-groupby-spread');
  }
  await page.getByTestId('input-rows').fill('8000');
  await page.getByTestId('input-requests').fill('2');
  await page.getByTestId('input-profile').check();
  await expect(page).toHaveURL(/lab=hotcode&strategies=groupby-spread&rows=8000.*profile=1/);

  const before = new Set(await page.getByTestId('run-card').evaluateAll((els) => els.map((e) => e.getAttribute('data-run-id'))));
  await page.getByTestId('start-button').click();
  const card = page.locator('[data-testid="run-card"][data-strategy="groupby-spread"]');
  await expect
    .poll(async () => (await card.evaluateAll((els) => els.map((e) => e.getAttribute('data-run-id')))).filter((id) => !before.has(id)).length)
    .toBe(1);
  const id = (await card.evaluateAll((els) => els.map((e) => e.getAttribute('data-run-id')!))).find((x) => !before.has(x))!;
  const run = page.locator(`[data-testid="run-card"][data-run-id="${id}"]`);
  await expect(run).toHaveAttribute('data-status', 'completed', { timeout: RUN_TIMEOUT_MS });
  await expect(run.getByTestId('run-verdict')).toContainText('2 reports of 8,000 rows');

  const panel = run.getByTestId('profile-panel');
  await panel.scrollIntoViewIfNeeded();
  await expect(panel.getByTestId('flame-graph')).toBeVisible();
  expect(Number(await panel.getByTestId('flame-graph').getAttribute('data-boxes'))).toBeGreaterThan(3);
  await expect(panel.getByTestId('flame-graph').locator('title', { hasText: /^groupBySpread \(groupby-spread\.mjs:\d+\)/ })).toHaveCount(1);
  const table = panel.getByTestId('profile-functions');
  await expect(table.locator('tr[data-function="groupBySpread"] td').nth(1)).toHaveText(
    /hotcode\/strategies\/groupby-spread\.mjs:\d+$|strategies\/groupby-spread\.mjs:\d+$/,
  );

  const [download] = await Promise.all([page.waitForEvent('download'), panel.getByTestId('profile-download').click()]);
  expect(download.suggestedFilename()).toBe(`${id}-groupby-spread.cpuprofile`);
  const profile = JSON.parse(readFileSync((await download.path())!, 'utf8')) as { nodes: Array<{ callFrame: { functionName: string } }>; samples: number[] };
  expect(profile.samples.length).toBeGreaterThan(10);
  expect(profile.nodes.some((n) => n.callFrame.functionName === 'groupBySpread')).toBe(true);

  // The same profile on the run's history page.
  await page.goto(`/runs/${id}`);
  await expect(page.getByTestId('profile-panel').getByTestId('flame-graph')).toBeVisible();
  await expect(page.getByTestId('profile-functions').locator('tr[data-function="groupBySpread"]')).toHaveCount(1);
});
