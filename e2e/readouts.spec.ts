import { expect, test, type Page } from './fixtures';

/** Opens the lab in the page's (fresh) context and waits for the server's snapshot. */
async function openLab(page: Page, path = '/'): Promise<void> {
  await page.goto(path);
  await expect(page.getByTestId('connection-status')).toHaveText('connected');
  await expect(page.locator('[data-testid^="strategy-checkbox-"]').first()).toBeVisible();
}

async function pick(page: Page, strategies: string[]): Promise<void> {
  for (const box of await page.locator('[data-testid^="strategy-checkbox-"]').all()) {
    const id = (await box.getAttribute('data-testid'))!.replace('strategy-checkbox-', '');
    await box.setChecked(strategies.includes(id));
  }
}

/** Whether any of the element is inside the viewport. */
async function inViewport(page: Page, testIdOrSelector: string): Promise<boolean> {
  return page.locator(testIdOrSelector).evaluate((el) => {
    // On screen at all: its top may sit a few pixels above the window's edge when a card settled
    // during the smooth scroll (a margin above the heading leaves room for that). Before Start it is
    // far below the fold.
    const r = el.getBoundingClientRect();
    return r.bottom > 0 && r.top < window.innerHeight;
  });
}

test('an invalid file size is marked at the field and Start stays off until it is fixed', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await openLab(page);
  const size = page.getByTestId('input-sizeMb');
  const start = page.getByTestId('start-button');
  await expect(start).toBeEnabled();

  for (const bad of ['0', '99999', '2.5', 'abc']) {
    await size.fill(bad);
    await expect(size).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByTestId('error-sizeMb')).toHaveText('File size (MB) must be a whole number between 1 and 2048');
    await expect(start).toBeDisabled();
    await expect(page.getByTestId('start-blocked')).toHaveText('Start is off until these are fixed: File size (MB).');
  }
  // The message sits right under its field, where the eye already is.
  const field = (await size.boundingBox())!;
  const message = (await page.getByTestId('error-sizeMb').boundingBox())!;
  expect(message.y).toBeGreaterThan(field.y);
  expect(message.y - (field.y + field.height)).toBeLessThan(12);
  await expect(size).toHaveAttribute('aria-describedby', /input-sizeMb-error/);

  await page.getByTestId('input-delayMs').fill('-1');
  await page.getByTestId('input-chunkKb').fill('0');
  await expect(page.getByTestId('error-delayMs')).toHaveText('Consumer delay per call (ms) must be a number between 0 and 1000');
  await expect(page.getByTestId('error-chunkKb')).toHaveText('Chunk size (KB) must be a whole number between 1 and 4096');

  await size.fill('4');
  await page.getByTestId('input-delayMs').fill('2.5');
  await page.getByTestId('input-chunkKb').fill('64');
  await expect(size).not.toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('error-sizeMb')).toHaveCount(0);
  await expect(start).toBeEnabled();
  await context.close();
});

test('after Start the new runs are brought into view and announced, and a page opened mid-run shows that experiment', async ({ page }) => {
  await openLab(page);
  await pick(page, ['for-await']);
  await page.getByTestId('input-sizeMb').fill('8');
  // 1 s a chunk: the run must still be going when the second tab has opened, which took over 25 s
  // on a loaded machine (at 200 ms a chunk the run had ended and the tab showed the defaults). It is
  // stopped below either way.
  await page.getByTestId('input-delayMs').fill('1000');
  expect(await inViewport(page, '#live-heading')).toBe(false);
  await page.getByTestId('start-button').click();
  await expect(page.getByTestId('runs-announcer')).toHaveText(/^Experiment started: 1 run \(.+\), shown under Runs\.$/);
  await expect.poll(() => inViewport(page, '#live-heading')).toBe(true);

  // A second tab of this browser opening the bare URL sees the running experiment's parameters in
  // the form. (Another browser's page does not follow it: it lists it in the Room panel.)
  const second = await page.context().newPage();
  await openLab(second);
  await expect(second.getByTestId('input-sizeMb')).toHaveValue('8');
  await expect(second.getByTestId('input-delayMs')).toHaveValue('1000');
  await expect(second.getByTestId('strategy-checkbox-for-await')).toBeChecked();
  // …but a URL with parameters wins.
  await second.goto('/?strategies=rxjs-from&sizeMb=3&delayMs=1');
  await expect(second.getByTestId('input-sizeMb')).toHaveValue('3');
  await second.close();

  await page.getByTestId('stop-all-button').click();
  await expect(page.getByTestId('runs-announcer')).toHaveText(/^Experiment finished: 1 stopped\./);
});

test('the Article figure stands only beside runs of the article’s size and delay', async ({ page }) => {
  await openLab(page);
  await pick(page, ['rxjs-from']);
  await page.getByTestId('input-sizeMb').fill('1');
  await page.getByTestId('input-delayMs').fill('0');
  await page.getByTestId('start-button').click();
  const row = page.locator('[data-testid="result-row"][data-strategy="rxjs-from"]').first();
  await expect(row).toBeVisible();
  await expect(row.getByTestId('article-cell')).toHaveText('–');
  await expect(page.getByTestId('article-note')).toContainText('(1 MB, 0 ms)');
  await expect(page.getByTestId('article-note')).toContainText('150 MB file, 10 ms per chunk');
});

test('/runs?strategy= preselects the filter, and changing it writes the URL', async ({ page }) => {
  await page.goto('/runs?strategy=ixjs-toArray');
  const filter = page.getByTestId('history-filter-strategy');
  await expect(filter).toHaveValue('ixjs-toArray');
  await expect(page.getByTestId('history-error')).toHaveCount(0);
  await expect(filter.locator('option', { hasText: 'IxJS from + concatMap + toArray' })).toHaveCount(1);
  await filter.selectOption('for-await');
  await expect(page).toHaveURL(/\/runs\?strategy=for-await$/);
  await page.getByTestId('history-filter-outcome').selectOption('completed');
  await expect(page).toHaveURL(/\/runs\?strategy=for-await&outcome=completed$/);
  await page.goto('/runs?outcome=exploded');
  await expect(page.getByTestId('history-link-error')).toContainText('outcome must be one of');
});

test('a recorded run offers its summary as JSON and says what an embed on another site needs', async ({ page }) => {
  await openLab(page);
  await pick(page, ['pipeline-generator']);
  await page.getByTestId('input-sizeMb').fill('1');
  await page.getByTestId('input-delayMs').fill('0');
  await page.getByTestId('start-button').click();
  const card = page.locator('[data-testid="run-card"][data-strategy="pipeline-generator"]').last();
  await expect(card).toHaveAttribute('data-status', 'completed');
  const id = (await card.getAttribute('data-run-id'))!;
  await page.goto(`/runs/${id}`);
  const json = page.getByTestId('export-summary-json');
  await expect(json).toHaveAttribute('href', `/api/summaries.json?ids=${id}`);
  const body = (await (await page.request.get(`/api/summaries.json?ids=${id}`)).json()) as Array<{ run: { id: string } }>;
  expect(body.map((r) => r.run.id)).toEqual([id]);
  await expect(page.getByTestId('embed-snippet-framing')).toContainText('STREAM_LAB_FRAME_ANCESTORS');
  // The page reads the policy from the embed page's header: the e2e server's lets the next port frame it too.
  const next = `http://127.0.0.1:${Number(new URL(page.url()).port) + 1}`;
  await expect(page.getByTestId('embed-snippet-ancestors')).toHaveText(`frame-ancestors 'self' ${next}`);
});

test('the /runs filter works for every strategy of every lab, the camel-case ids included', async ({ page, request }) => {
  const res = await request.get('/api/strategies');
  expect(res.status()).toBe(200);
  const ids = ((await res.json()) as Array<{ id: string }>).map((s) => s.id);
  expect(ids).toEqual(expect.arrayContaining(['rxjs-fromEvent', 'ixjs-fromEvent', 'ixjs-flatMap', 'ixjs-toArray']));
  await page.goto('/runs');
  const filter = page.getByTestId('history-filter-strategy');
  for (const id of ids) {
    await filter.selectOption(id);
    await expect(page).toHaveURL(new RegExp(`/runs\\?strategy=${id}$`));
    await expect(page.getByTestId('history-error')).toHaveCount(0);
  }
});
