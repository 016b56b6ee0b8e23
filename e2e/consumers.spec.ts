/**
 * The streams lab on the real job (#30), as a person runs it: the http consumer picked in the form,
 * two strategies at concurrency 4 against the mock API, each card showing records per second and
 * the consumer's own figures, and the frontier placing each finished run by throughput and memory.
 */
import { expect, test } from './fixtures';
import { openLab, pickStrategies, startAndFindCards } from './lab-page';

test('the http consumer at concurrency 4: records/s and the API figures on each card, and both runs on the frontier', async ({ page }) => {
  test.setTimeout(180_000);
  await openLab(page, 'streams');
  await pickStrategies(page, ['readable-map', 'rxjs-merge-map']);
  await page.getByTestId('input-consumer').selectOption('http');
  await page.getByTestId('input-sizeMb').fill('4');
  await page.getByTestId('input-chunkKb').fill('16');
  await page.getByTestId('input-delayMs').fill('5');
  await page.getByTestId('input-concurrency').fill('4');
  await page.getByTestId('input-parallel').setChecked(false);
  // The link carries what differs from the defaults, so the experiment can be shared as it is.
  await expect(page).toHaveURL(/concurrency=4/);
  await expect(page).toHaveURL(/consumer=http/);

  const { cards } = await startAndFindCards(page, 2);
  for (const card of cards) await expect(card).toHaveAttribute('data-status', 'completed', { timeout: 120_000 });
  for (const card of cards) {
    // 4 MiB in 16 KiB chunks is 256 calls to the API, each answered: none failed, and the latency was measured.
    await expect(card.getByTestId('run-figure-api-errors')).toContainText('0 of 256');
    await expect(card.getByTestId('run-figure-api-latency')).toContainText(/\d+(\.\d+)? ms \/ \d+(\.\d+)? ms/);
    expect(Number(await card.getByTestId('run-figure-records-per-sec').getAttribute('data-value'))).toBeGreaterThan(0);
    // At most the knob's 4 calls at once.
    const inFlight = Number(await card.getByTestId('run-figure-api-in-flight').getAttribute('data-value'));
    expect(inFlight).toBeGreaterThan(1);
    expect(inFlight).toBeLessThanOrEqual(4);
  }
  // The push reader's calls were bounded too, but it held more of the file: the verdict tells them apart.
  const [map, merge] = cards;
  await expect(map.getByTestId('run-verdict')).toContainText('Bounded concurrency');
  await expect(merge.getByTestId('run-verdict')).toContainText('The calls were bounded');

  const frontier = page.getByTestId('frontier-chart');
  await frontier.scrollIntoViewIfNeeded();
  await expect(frontier.getByTestId('frontier-point')).toHaveCount(2);
  const merged = frontier.locator('[data-testid="frontier-point"][data-strategy="rxjs-merge-map"]');
  const mapped = frontier.locator('[data-testid="frontier-point"][data-strategy="readable-map"]');
  await expect(merged).toHaveAttribute('data-concurrency', '4');
  expect(Number(await merged.getAttribute('data-peak-array-buffers'))).toBeGreaterThan(Number(await mapped.getAttribute('data-peak-array-buffers')));
});
