// `node scripts/deadline-lesson-walk.mjs [step…]`: runs the deadlines walkthrough's steps in Chromium
// against the production server (needs `next build`), prints each step's conclusion and how long it
// took, and saves a screenshot of each step to $SHOT_DIR (default /tmp), then of the first run's history
// page (/runs/<id>: its timer scatter and figures). Data in a temporary directory.
import { chromium } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_ARGS, findChromium, startServer } from './lib.mjs';

const steps = process.argv.slice(2).map(Number);
const dir = process.env.SHOT_DIR ?? tmpdir();
const server = await startServer(Number(process.env.SHOT_PORT ?? 3225), { HOST: '127.0.0.1', STREAM_LAB_DATA_DIR: mkdtempSync(join(tmpdir(), 'dlesson-')) });
const browser = await chromium.launch({ executablePath: (await findChromium()) ?? undefined, args: CHROMIUM_ARGS });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${server.url}/lessons/deadline`);
  await page
    .getByTestId('connection-status')
    .filter({ hasText: /^connected$/ })
    .waitFor();
  for (const n of steps.length ? steps : [1, 2]) {
    const step = page.locator(`[data-testid="lesson-step"][data-step="${n}"]`);
    const t0 = Date.now();
    await step.getByTestId('lesson-run').click();
    await step.and(page.locator('[data-status="done"]')).waitFor({ timeout: 300_000 });
    const secs = ((Date.now() - t0) / 1000).toFixed(1);
    const c = step.getByTestId('lesson-conclusion');
    console.log(`step ${n} (${secs} s) expected=${await c.getAttribute('data-expected')}\n${await c.textContent()}\n`);
    await step.screenshot({ path: join(dir, `deadline-lesson-step${n}.png`) });
  }
  const first = await page.getByTestId('lesson-run-panel').first().getAttribute('data-run-id');
  await page.goto(`${server.url}/runs/${first}`);
  await page.getByTestId('run-summary').waitFor();
  await page.screenshot({ path: join(dir, 'deadline-run-detail.png'), fullPage: true });
} finally {
  await browser.close();
  server.stop();
}
