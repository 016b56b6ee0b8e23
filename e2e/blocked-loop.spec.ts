/**
 * A blocked event loop, seen live on the card (issue 38): while one hot-code report holds the
 * run's main thread for seconds, the card's charts keep growing from the runner's /proc readings
 * and a badge says how long the loop has been blocked; once the report is done, the badge goes.
 */
import { expect, test } from './fixtures';
import { openLab, pickStrategies, startAndFindCards } from './lab-page';

test('a report that blocks the loop for seconds: the charts grow during it and the card says "event loop blocked for …"', async ({ page }) => {
  test.setTimeout(150_000);
  await openLab(page, 'hotcode');
  await pickStrategies(page, ['report-slow']);
  // report-slow at 25,000 rows: one report of ≥ 3.5 s of synchronous work here (longer on a busy machine).
  await page.getByTestId('input-rows').fill('25000');
  await page.getByTestId('input-requests').fill('1');
  const {
    cards: [card],
  } = await startAndFindCards(page, 1);
  await card.scrollIntoViewIfNeeded();

  const badge = card.getByTestId('run-blocked');
  await expect(badge).toBeVisible({ timeout: 60_000 });
  await expect(badge).toHaveText(/^event loop blocked for \d+\.\d s$/);
  const points = async (testId: string) => Number(await card.getByTestId(testId).getAttribute('data-points'));
  const cpuBefore = await points('run-chart-load');
  const probeBefore = await points('run-chart');
  const blockedBefore = Number(await badge.getAttribute('data-blocked-ms'));

  // Still blocked a second later (the badge stayed, its time grew), and the charts took in readings meanwhile.
  await page.waitForTimeout(1000);
  await expect(badge).toBeVisible();
  expect(Number(await badge.getAttribute('data-blocked-ms'))).toBeGreaterThan(blockedBefore);
  expect(await points('run-chart-load')).toBeGreaterThan(cpuBefore);
  expect(await points('run-chart')).toBeGreaterThan(probeBefore);
  // The card's delay is the block so far, not the last sample's calm reading.
  await expect(card.getByTestId('run-figure-el-delay')).toContainText('(blocked)');

  await expect(card).toHaveAttribute('data-status', 'completed', { timeout: 120_000 });
  await expect(badge).toHaveCount(0);
});
