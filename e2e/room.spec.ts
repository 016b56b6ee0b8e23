import { expect, stopLeftovers, test, type Browser, type Page } from './fixtures';
import { E2E_OPERATOR_TOKEN } from '../playwright.config';
import { pickStrategies, startAndFindCards } from './lab-page';

/** Opens the Room panel's name/token form (a <details>) if it is closed. */
async function openIdentity(page: Page): Promise<void> {
  const details = page.getByTestId('room-panel').locator('details');
  if ((await details.getAttribute('open')) === null) await details.locator('summary').click();
}

/** A fresh browser (its own context, so its own id in the room) with the lab open under a name. */
async function member(browser: Browser, name: string): Promise<Page> {
  // No stored operator token (the config gives the default page one, for cleaning up).
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, storageState: { cookies: [], origins: [] } });
  const page = await context.newPage();
  await page.goto('/');
  await expect(page.getByTestId('connection-status')).toHaveText('connected');
  await openIdentity(page);
  await page.getByTestId('room-name').fill(name);
  await page.getByTestId('room-save').click();
  return page;
}

async function startSlow(page: Page, strategy: string): Promise<void> {
  for (const box of await page.locator('[data-testid^="strategy-checkbox-"]').all()) {
    const id = (await box.getAttribute('data-testid'))!.replace('strategy-checkbox-', '');
    await box.setChecked(id === strategy);
  }
  await page.getByTestId('input-sizeMb').fill('4');
  await page.getByTestId('input-delayMs').fill('200');
  await page.getByTestId('start-button').click();
  await expect(page.locator(`[data-testid="run-card"][data-strategy="${strategy}"]`)).toBeVisible();
}

test('each browser keeps its own experiment, sees the other in the Room panel, and cannot stop it without the operator token', async ({ browser }) => {
  const a = await member(browser, 'Ada');
  const b = await member(browser, 'Bea');
  await startSlow(a, 'for-await');
  await startSlow(b, 'ixjs-from');
  // Without the operator token Stop all is "Stop mine", offered while this browser's run goes.
  await expect(a.getByTestId('stop-all-button')).toHaveText('Stop mine');

  // A's page still shows A's run, not B's; B's experiment is listed in A's room with B's name.
  await expect(a.getByTestId('run-card')).toHaveCount(1);
  await expect(a.getByTestId('run-card')).toHaveAttribute('data-strategy', 'for-await');
  const bInA = a.getByTestId('room-experiment').filter({ hasText: 'Bea' });
  await expect(bInA).toHaveAttribute('data-own', 'no');
  await expect(b.getByTestId('run-card')).toHaveAttribute('data-strategy', 'ixjs-from');
  // B's run waits behind A's: its card says where it stands.
  await expect(b.getByTestId('run-progress')).toContainText(/Waiting: next in the queue|%/);

  // B may watch A's run but gets no Stop for it, and a stop sent anyway is refused by the server.
  const aInB = b.getByTestId('room-experiment').filter({ hasText: 'Ada' });
  await expect(aInB.getByTestId('room-stop')).toHaveCount(0);
  await aInB.getByTestId('room-watch').click();
  const watched = b.locator('[data-testid="run-card"][data-strategy="for-await"]');
  await expect(watched).toBeVisible();
  await expect(watched.getByTestId('run-stop')).toHaveCount(0);
  const runId = (await watched.getAttribute('data-run-id'))!;
  // The server answers a stop it refuses with an error on that socket (and a stop it makes with none):
  // waiting for the answer replaces a 500 ms wait, and the run must still not be stopped after it.
  const answer = await b.evaluate(
    (id) =>
      new Promise<{ type: string; code?: string; requestType?: string }>((resolve, reject) => {
        const ws = new WebSocket(`ws://${location.host}/ws`);
        const timer = setTimeout(() => reject(new Error('no answer to run.stop within 10 s')), 10_000);
        ws.onopen = () => ws.send(JSON.stringify({ type: 'run.stop', runId: id }));
        ws.onmessage = (event) => {
          const message = JSON.parse(String(event.data)) as { type: string; code?: string; requestType?: string };
          if (message.type !== 'error' || message.requestType !== 'run.stop') return;
          clearTimeout(timer);
          ws.close();
          resolve(message);
        };
      }),
    runId,
  );
  expect(answer).toMatchObject({ type: 'error', code: 'forbidden', requestType: 'run.stop' });
  await expect(a.locator(`[data-testid="run-card"][data-run-id="${runId}"]`)).not.toHaveAttribute('data-status', 'stopped');

  // With the operator token, B's Room panel offers Stop for A's experiment, and it works.
  await openIdentity(b);
  await b.getByTestId('room-token').fill(E2E_OPERATOR_TOKEN);
  await b.getByTestId('room-save').click();
  await expect(b.getByTestId('room-panel')).toContainText('you are the operator');
  await aInB.getByTestId('room-stop').click();
  await expect(a.locator(`[data-testid="run-card"][data-run-id="${runId}"]`)).toHaveAttribute('data-status', 'stopped');

  await stopLeftovers(b);
  await a.context().close();
  await b.context().close();
});

/** Starts a short streams experiment of the given strategies and waits until every card has ended. */
async function startQuick(page: Page, strategies: readonly string[]): Promise<void> {
  await pickStrategies(page, strategies);
  await page.getByTestId('input-sizeMb').fill('1');
  await page.getByTestId('input-delayMs').fill('20');
  const { cards } = await startAndFindCards(page, strategies.length);
  for (const card of cards) await expect(card).toHaveAttribute('data-status', 'completed', { timeout: 30_000 });
}

/** Every chart of the cards and the comparison has drawn a line (charts draw once on screen). */
async function expectLines(page: Page, cards: number): Promise<void> {
  await expect(page.getByTestId('run-card')).toHaveCount(cards);
  const charts = page.locator('[data-testid="run-card"] .chart, [data-testid="comparison-chart"]');
  expect(await charts.count()).toBeGreaterThan(cards);
  for (const chart of await charts.all()) {
    await chart.scrollIntoViewIfNeeded();
    await expect(chart).toHaveAttribute('data-drawn', 'true');
  }
  await expect(page.locator('.chart-waiting:visible')).toHaveCount(0);
}

test('a finished experiment keeps its lines while another browser runs four, and after a reload (issue 26)', async ({ browser }) => {
  const a = await member(browser, 'Ada');
  const b = await member(browser, 'Bea');
  await startQuick(a, ['for-await', 'pipeline-generator']);
  await expectLines(a, 2);
  for (let i = 0; i < 4; i++) await startQuick(b, ['rxjs-from']);
  // Nothing of B's is going: no "Stop mine" to press.
  await expect(b.getByTestId('stop-all-button')).toHaveCount(0);
  await expectLines(a, 2);
  await a.reload();
  await expect(a.getByTestId('connection-status')).toHaveText('connected');
  await expectLines(a, 2);
  await a.context().close();
  await b.context().close();
});
