/**
 * A run's heap from the page: its allocations by function while it goes, "Snapshot now" and the
 * retainer path that says what holds the memory, a trigger typed in the form, and the recorded
 * .heapprofile and .heapsnapshot files.
 */
import { expect, test, type Locator, type Page } from './fixtures';
import { openLab, pickStrategies, startAndFindCards } from './lab-page';

const RUN_TIMEOUT_MS = 90_000;
const MIB = 1024 * 1024;

/** One streams run of rxjs-from with a slow consumer, so concatMap piles the file's chunks up; heap-profiled. */
async function startRxjsFrom(page: Page, sizeMb: number, delayMs: number, trigger = ''): Promise<{ id: string; card: Locator }> {
  await openLab(page, 'streams');
  await pickStrategies(page, ['rxjs-from']);
  await page.getByTestId('input-sizeMb').fill(String(sizeMb));
  await page.getByTestId('input-delayMs').fill(String(delayMs));
  await page.getByTestId('input-heapProfile').check();
  await page.getByTestId('input-heapSnapshot').fill(trigger);
  const {
    ids: [id],
    cards: [card],
  } = await startAndFindCards(page, 1);
  return { id, card };
}

test('Snapshot now on a running rxjs-from card shows the retainer path naming mergeInternals’ functions', async ({ page }) => {
  test.setTimeout(RUN_TIMEOUT_MS + 60_000);
  // 48 MB read at once, consumed at 64 KB per 20 ms: about 15 s of a growing pile.
  const { card } = await startRxjsFrom(page, 48, 20);
  await expect(card).toHaveAttribute('data-status', 'running', { timeout: RUN_TIMEOUT_MS });
  // The allocations come live, before the run ends.
  await expect(card.getByTestId('heap-functions').locator('tbody tr').first()).toBeVisible({ timeout: 15_000 });
  await expect(card.getByTestId('heap-allocations')).toHaveAttribute('data-live', 'true');
  // And their call paths as a flame graph, redrawn with each read.
  await card.getByTestId('heap-flame').getByText('Allocations by call path (flame graph)').click();
  const flame = card.getByTestId('heap-flame').getByTestId('flame-graph');
  await expect(flame).toBeVisible();
  expect(Number(await flame.getAttribute('data-boxes'))).toBeGreaterThan(1);
  await expect(flame.getByRole('img')).toHaveAttribute('aria-label', /heap profile$/);
  const arrayBuffers = card.getByTestId('run-figure-array-buffers');
  await expect.poll(async () => Number(await arrayBuffers.getAttribute('data-value')), { timeout: 30_000 }).toBeGreaterThan(16 * MIB);

  const button = card.getByRole('button', { name: 'Snapshot now', exact: true });
  await button.click();
  await expect(card.getByTestId('snapshot-now-status')).toHaveText('taking…');
  await expect(button).toBeDisabled();
  const snapshot = card.getByTestId('heap-snapshot');
  await expect(snapshot).toHaveCount(1, { timeout: 60_000 });
  await expect(button).toBeEnabled();
  await expect(snapshot).toHaveAttribute('data-n', '1');
  await expect(snapshot).toContainText('Snapshot now');
  expect(Number(await snapshot.getAttribute('data-pause-ms'))).toBeGreaterThan(0);
  const path = snapshot.getByTestId('retainer-path');
  await expect(path).toContainText(/outerNext|doInnerSub|checkComplete/);
  await expect(path).toContainText('mergeInternals');
  // The pause is shaded on the card's chart.
  await expect(card.getByTestId('run-chart')).toHaveAttribute('data-bands', /snapshot 1/);
  await expect(card).toHaveAttribute('data-status', 'completed', { timeout: RUN_TIMEOUT_MS });
});

test('the .heapprofile and .heapsnapshot downloads are valid JSON of their formats', async ({ page }) => {
  test.setTimeout(RUN_TIMEOUT_MS + 30_000);
  // A trigger typed in the form: refused while it is bad, then linked and sent once it is good.
  await openLab(page, 'streams');
  await page.getByTestId('input-heapSnapshot').fill('when=bytes>4MB');
  await expect(page.getByTestId('error-heapSnapshot')).toContainText('Heap snapshot: when= names "bytes"');
  await expect(page.getByTestId('start-button')).toBeDisabled();
  const { id, card } = await startRxjsFrom(page, 16, 10, 'when=arrayBuffers>4MB');
  await expect(page).toHaveURL(/heapSnapshot=when=arrayBuffers%3E4MB/);
  await expect(card).toHaveAttribute('data-status', 'completed', { timeout: RUN_TIMEOUT_MS });
  const snapshot = card.getByTestId('heap-snapshot');
  await expect(snapshot).toHaveCount(1);
  await expect(snapshot).toContainText('when arrayBuffers > 4 MB');

  const profileLink = card.getByTestId('heapprofile-download');
  const snapshotLink = snapshot.getByTestId('heapsnapshot-download');
  expect(await profileLink.getAttribute('href')).toBe(`/api/runs/${id}/heap.heapprofile`);
  expect(await snapshotLink.getAttribute('href')).toBe(`/api/runs/${id}/snapshot-1.heapsnapshot`);
  const profile = (await (await page.request.get((await profileLink.getAttribute('href'))!)).json()) as { head: { callFrame: { functionName: string } } };
  expect(typeof profile.head.callFrame.functionName).toBe('string');
  const heap = (await (await page.request.get((await snapshotLink.getAttribute('href'))!)).json()) as {
    snapshot: { meta: { node_fields: string[] }; node_count: number };
    nodes: number[];
    strings: string[];
  };
  expect(heap.snapshot.meta.node_fields).toContain('self_size');
  expect(heap.nodes.length).toBe(heap.snapshot.node_count * heap.snapshot.meta.node_fields.length);
  expect(heap.strings.length).toBeGreaterThan(0);

  // The same heap on the run's history page, with the downloads.
  await page.goto(`/runs/${id}`);
  const panel = page.getByTestId('heap-panel');
  await expect(panel.getByTestId('heap-functions').locator('tbody tr').first()).toBeVisible();
  await expect(panel.getByTestId('heap-snapshot')).toHaveCount(1);
  await expect(panel.getByTestId('heapsnapshot-download')).toHaveAttribute('href', `/api/runs/${id}/snapshot-1.heapsnapshot`);
  await expect(panel.getByTestId('heapprofile-download')).toHaveAttribute('href', `/api/runs/${id}/heap.heapprofile`);
});
