/**
 * The dashboard starts where a person looks (issue 38): each lab's Start, with what it would run,
 * in view without scrolling at a laptop's and a phone's size, and still in view while the form
 * scrolls; the write-up's experiment in one click; fields that change nothing hidden; a run page
 * with every chart its card had; /runs readable on a phone; Delete only where it would be allowed.
 */
import { expect, test, type Page } from './fixtures';
import { openLab, pickStrategies, startAndFindCards } from './lab-page';
import { TestClient } from '../server/test-client';
import { PAGE_LABS } from '../lib/labs';
import { DEFAULT_STREAMS_PARAMS } from '../labs/streams/shared/params';

const FINAL = /^(completed|data-lost|out-of-memory|crashed|stopped|timed-out|interrupted|refused)$/;
const SIZES = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
];

/** Small experiments, as links carry them (the form lives in the URL): a few seconds a run. */
const SMALL: Record<string, string> = {
  streams: 'strategies=rxjs-from,pipeline-generator&sizeMb=2&delayMs=2',
  http: 'strategies=buffered-json,ndjson-cursor&rows=1000&requests=4&concurrency=2',
  cpu: 'strategies=single-thread,worker-pool&n=30&requests=4',
  deadline: 'strategies=unbounded,worker-pool&durationS=4&spikeStartS=1&spikeS=2&baselineRps=2&spikeRps=6&objects=10&cpuMs=1',
  hotcode: 'strategies=report-slow,report-fixed&rows=2000&requests=2',
};

/** The element's box lies wholly inside the viewport as the page is scrolled now. */
async function inViewport(page: Page, testId: string): Promise<void> {
  const box = await page.getByTestId(testId).boundingBox();
  const size = page.viewportSize()!;
  expect(box, `${testId} is laid out`).not.toBeNull();
  expect(box!.x, `${testId} left`).toBeGreaterThanOrEqual(0);
  expect(box!.y, `${testId} top`).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, `${testId} right`).toBeLessThanOrEqual(size.width);
  expect(box!.y + box!.height, `${testId} bottom`).toBeLessThanOrEqual(size.height);
}

test('every lab shows Start, the strategies, the size and an estimate without scrolling at 1440×900 and 390×844, and keeps Start in view while the form scrolls', async ({
  page,
}) => {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    for (const lab of PAGE_LABS) {
      await page.goto(`/?lab=${lab}`);
      await expect(page.getByTestId('connection-status')).toHaveText('connected');
      await expect(page.getByTestId('lab-switch')).toHaveAttribute('data-lab', lab);
      await expect(page.getByTestId('start-button')).toBeEnabled();
      // What Start would run: the picked strategies by name, the experiment in words, about how long.
      await expect(page.getByTestId('preview-strategies')).not.toHaveText('no strategy picked');
      await expect(page.getByTestId('preview-size')).not.toBeEmpty();
      await expect(page.getByTestId('preview-estimate')).toHaveText(/^ · about \d+( min \d\d)? s$/);
      expect(Number(await page.getByTestId('preview-estimate').getAttribute('data-ms'))).toBeGreaterThan(0);
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      for (const id of ['start-button', 'writeup-button', 'preview-strategies']) await inViewport(page, id);
      // Scrolled to the form's last knobs (its bottom at the viewport's), Start is still on screen: the bar stays at the top while the form scrolls.
      await page.evaluate(() => {
        const form = document.querySelector('form.experiment-form')!;
        window.scrollTo(0, window.scrollY + form.getBoundingClientRect().bottom - window.innerHeight);
      });
      expect(await page.evaluate(() => window.scrollY), `${lab} at ${size.width} px scrolled`).toBeGreaterThan(0);
      await inViewport(page, 'start-button');
    }
  }
});

test('the preview follows the form: a strategy unticked leaves its name, a bad field turns Start off and says which', async ({ page }) => {
  await openLab(page, 'streams');
  await pickStrategies(page, ['rxjs-from', 'pipeline-generator']);
  await page.getByTestId('input-sizeMb').fill('32');
  await page.getByTestId('input-parallel').setChecked(false);
  const preview = page.getByTestId('experiment-preview');
  await expect(preview).toContainText('RxJS from + concatMap, stream.pipeline + async generators');
  await expect(page.getByTestId('preview-size')).toContainText('32 MB file · 10 ms/chunk');
  // 32 MiB in 64 KiB chunks at 10 ms each, two runs one after the other: 512 × 10 ms × 2 ≈ 10 s.
  await expect(page.getByTestId('preview-estimate')).toHaveAttribute('data-ms', '10240');
  await page.getByTestId('strategy-checkbox-rxjs-from').uncheck();
  await expect(preview).not.toContainText('RxJS from');
  await expect(page.getByTestId('preview-estimate')).toHaveAttribute('data-ms', '5120');
  await page.getByTestId('input-sizeMb').fill('x');
  await expect(page.getByTestId('start-button')).toBeDisabled();
  await expect(page.getByTestId('start-blocked')).toHaveText('Start is off until these are fixed: File size (MB).');
  await expect(page.getByTestId('preview-estimate')).toHaveCount(0);
});

test('a sleep consumer hides the API and PostgreSQL fields; http shows the API’s, postgres its own and no delay; Concurrency only for a strategy that takes it', async ({
  page,
}) => {
  await openLab(page, 'streams');
  await pickStrategies(page, ['rxjs-from', 'pipeline-generator']);
  const consumer = page.getByTestId('input-consumer');
  await consumer.selectOption('sleep');
  const api = ['input-apiP99Ms', 'input-apiErrorRate', 'input-apiPool'];
  for (const id of [...api, 'input-dbBatchRows', 'input-concurrency']) await expect(page.getByTestId(id)).toHaveCount(0);
  await expect(page.getByTestId('input-delayMs')).toBeVisible();
  await consumer.selectOption('http');
  for (const id of api) await expect(page.getByTestId(id)).toBeVisible();
  await expect(page.getByTestId('input-dbBatchRows')).toHaveCount(0);
  await consumer.selectOption('postgres');
  await expect(page.getByTestId('input-dbBatchRows')).toBeVisible();
  await expect(page.getByTestId('input-delayMs')).toHaveCount(0);
  for (const id of api) await expect(page.getByTestId(id)).toHaveCount(0);
  // readable-map takes a concurrency (it declares 'bounded'): the knob appears with it.
  await page.getByTestId('strategy-checkbox-readable-map').check();
  await expect(page.getByTestId('input-concurrency')).toBeVisible();
  await page.getByTestId('strategy-checkbox-readable-map').uncheck();
  await expect(page.getByTestId('input-concurrency')).toHaveCount(0);
  await consumer.selectOption('sleep');
});

test('“Run the write-up’s experiment” fills the form with the article’s experiment and starts it: its six readers on 150 MB at 10 ms per chunk', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await openLab(page, 'streams');
  await pickStrategies(page, ['for-await']);
  await page.getByTestId('input-sizeMb').fill('3');
  const before = new Set(await page.getByTestId('run-card').evaluateAll((els) => els.map((e) => e.getAttribute('data-run-id'))));
  await page.getByTestId('writeup-button').click();
  const six = ['rxjs-fromEvent', 'rxjs-from', 'ixjs-from', 'ixjs-fromEvent', 'pipeline-generator', 'iterator-helper'];
  const fresh = async () =>
    (await page.getByTestId('run-card').evaluateAll((els) => els.map((e) => [e.getAttribute('data-run-id'), e.getAttribute('data-strategy')]))).filter(
      ([id]) => !before.has(id),
    );
  await expect.poll(async () => (await fresh()).map(([, s]) => s).sort()).toEqual([...six].sort());
  // The form shows what was started, so a link or a second Start is the same experiment.
  await expect(page.getByTestId('input-sizeMb')).toHaveValue('150');
  await expect(page.getByTestId('input-delayMs')).toHaveValue('10');
  await expect(page.getByTestId('input-consumer')).toHaveValue('sleep');
  for (const id of six) await expect(page.getByTestId(`strategy-checkbox-${id}`)).toBeChecked();
  await expect(page.getByTestId('strategy-checkbox-for-await')).not.toBeChecked();
  await expect(page.locator('section.live > .panel-header')).toContainText('150 MB file · 10 ms/chunk');
  // Not sat out (about 2.5 minutes of runs): stopped, as a person who has seen it start would.
  await page.getByTestId('stop-all-button').click();
  for (const [id] of await fresh()) await expect(page.locator(`[data-testid="run-card"][data-run-id="${id}"]`)).toHaveAttribute('data-status', FINAL);
});

test('a run page draws every chart its card drew, for every lab', async ({ page }) => {
  test.setTimeout(300_000);
  for (const lab of PAGE_LABS) {
    await openLab(page, lab);
    await page.goto(`/?lab=${lab}&${SMALL[lab]}`);
    await expect(page.getByTestId('connection-status')).toHaveText('connected');
    const { cards } = await startAndFindCards(page, 2);
    const card = cards[0];
    await expect(card).toHaveAttribute('data-status', FINAL, { timeout: 90_000 });
    const charts = (root: ReturnType<Page['getByTestId']>) =>
      root
        .locator('[data-testid^="run-chart"], [data-testid="request-timeline"], [data-testid="lateness-scatter"]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!).sort());
    await expect(card.getByTestId('run-chart')).not.toHaveAttribute('data-points', '0');
    const onCard = await charts(card);
    expect(onCard.length, `${lab}: the card draws charts`).toBeGreaterThan(0);
    await card.getByTestId('run-card-link').click();
    const recorded = page.getByTestId('recorded-card-charts');
    await expect(recorded).toHaveAttribute('data-lab', lab);
    await expect(recorded.getByTestId('run-chart')).not.toHaveAttribute('data-points', '0');
    await expect.poll(() => charts(recorded), `${lab}: the run page draws the card's charts`).toEqual(onCard);
    for (const chart of await recorded.locator('[data-testid^="run-chart"]').all()) await expect(chart).not.toHaveAttribute('data-points', '0');
  }
});

test('/runs on a 390 px phone: no sideways scroll, every outcome on screen; Delete only on the runs this browser may delete', async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  // Another browser's run (a client of its own), and one of this browser's: a context without the operator token.
  const other = new TestClient(baseURL!);
  await other.opened;
  await other.next('snapshot');
  const mark = other.messages.length;
  other.send({ type: 'experiment.start', lab: 'streams', strategies: ['pipeline-generator'], params: { ...DEFAULT_STREAMS_PARAMS, sizeMb: 1, delayMs: 1 } });
  const theirs = (await other.next('experiment.created', (m) => m.experiment.lab === 'streams', mark)).experiment.runIds[0];
  await other.next('run.ended', (m) => m.run.id === theirs, mark);
  other.close();

  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  try {
    await page.goto(`/?lab=streams&strategies=pipeline-generator&sizeMb=1&delayMs=1&parallel=0`);
    await expect(page.getByTestId('connection-status')).toHaveText('connected');
    const { ids, cards } = await startAndFindCards(page, 1);
    await expect(cards[0]).toHaveAttribute('data-status', 'completed', { timeout: 60_000 });
    const mine = ids[0];

    await page.goto('/runs');
    const row = (id: string) => page.locator(`[data-testid="history-row"][data-run-id="${id}"]`);
    await expect(row(mine)).toBeVisible();
    await expect(row(theirs)).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // The outcome of every run is on screen without a swipe: inside the viewport's width, and inside the table's scroll box.
    for (const badge of await page.locator('[data-testid="history-row"] .status-badge').all()) {
      const box = (await badge.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    expect(await page.locator('.history-scroll').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await expect(row(mine).getByTestId('history-delete')).toBeVisible();
    await expect(row(theirs).getByTestId('history-delete')).toHaveCount(0);
    // What the server would answer anyway: this browser may not delete the other's run.
    const refused = await page.evaluate(
      async (id) =>
        (await fetch(`/api/runs/${id}`, { method: 'DELETE', headers: { 'x-stream-lab-browser': localStorage.getItem('stream-lab.browserId')! } })).status,
      theirs,
    );
    expect(refused).toBe(403);
  } finally {
    await context.close();
  }
});
