// `node labs/cpu/scripts/screenshot.mjs`: docs/screenshots/cpu-lab.png from a real run. Starts the
// production server, runs single-thread against worker-pool in the CPU lab (fib(38), 4 requests,
// 4 at once) and saves a 1280×800 view of the finished cards, and cpu-lab-live.png: the first card
// while it runs (its answered requests' bars and busiest threads). Needs `next build` first.
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { basename, join } from 'node:path';
import { CHROMIUM_ARGS, findChromium, root, startServer } from '../../../scripts/lib.mjs';

/** This lab's id: its folder's name (a copy of the folder screenshots the copy). */
const LAB = basename(fileURLToPath(new URL('..', import.meta.url)));

const server = await startServer(Number(process.env.SHOT_PORT ?? 3261));
const browser = await chromium.launch({ executablePath: (await findChromium()) ?? undefined, args: CHROMIUM_ARGS });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${server.url}/?lab=${LAB}&strategies=single-thread,worker-pool&n=38&requests=4&concurrency=4`);
  await page
    .getByTestId('connection-status')
    .filter({ hasText: /^connected$/ })
    .waitFor();
  await page
    .getByTestId('lab-switch')
    .and(page.locator(`[data-lab="${LAB}"]`))
    .waitFor();
  await page.getByTestId('start-button').click();
  const live = '[data-testid="run-card"][data-status="running"]:has([data-testid="request-bar"]):has([data-testid="thread-cpu"][data-live="true"])';
  await page.waitForSelector(live, { timeout: 120_000 });
  await page
    .locator(live)
    .first()
    .screenshot({ path: join(root, 'docs', 'screenshots', 'cpu-lab-live.png') });
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="run-card"][data-status="completed"]').length >= 2, null, {
    timeout: 120_000,
    polling: 500,
  });
  await page.getByTestId('run-card').first().scrollIntoViewIfNeeded();
  await page.evaluate(() => document.querySelector('[data-testid="run-card"]').scrollIntoView({ block: 'start' }));
  await page.waitForTimeout(800);
  await page.screenshot({ path: join(root, 'docs', 'screenshots', 'cpu-lab.png') });
  await page.screenshot({ path: '/tmp/cpu-lab-full.png', fullPage: true });
  console.log('wrote docs/screenshots/cpu-lab.png');
} finally {
  await browser.close();
  server.stop();
}
