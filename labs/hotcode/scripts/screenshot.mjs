// `node labs/hotcode/scripts/screenshot.mjs`: docs/screenshots/hotcode-lab.png from a real run. Starts
// the production server, runs report-slow against report-fixed in the hot-code lab with the CPU
// profile on (5000 rows, 2 reports each) and saves a 1280×800 view of the first finished card:
// /health wait, long tasks, the flame graph and the functions by self time. Needs `next build` first.
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { basename, join } from 'node:path';
import { CHROMIUM_ARGS, findChromium, root, startServer } from '../../../scripts/lib.mjs';

/** This lab's id: its folder's name (a copy of the folder screenshots the copy). */
const LAB = basename(fileURLToPath(new URL('..', import.meta.url)));

const server = await startServer(Number(process.env.SHOT_PORT ?? 3262));
const browser = await chromium.launch({ executablePath: (await findChromium()) ?? undefined, args: CHROMIUM_ARGS });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${server.url}/?lab=${LAB}&strategies=report-slow,report-fixed&rows=5000&requests=2&profile=1`);
  await page
    .getByTestId('connection-status')
    .filter({ hasText: /^connected$/ })
    .waitFor();
  await page
    .getByTestId('lab-switch')
    .and(page.locator(`[data-lab="${LAB}"]`))
    .waitFor();
  await page.getByTestId('start-button').click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="run-card"][data-status="completed"]').length >= 2, null, {
    timeout: 120_000,
    polling: 500,
  });
  await page.locator('[data-testid="flame-graph"]').first().waitFor();
  await page.evaluate(() => document.querySelector('[data-testid="run-card"]').scrollIntoView({ block: 'start' }));
  await page.waitForTimeout(800);
  await page.screenshot({ path: join(root, 'docs', 'screenshots', 'hotcode-lab.png') });
  await page.screenshot({ path: '/tmp/hotcode-lab-full.png', fullPage: true });
  console.log('wrote docs/screenshots/hotcode-lab.png');
} finally {
  await browser.close();
  server.stop();
}
