// `node scripts/runtimes-screenshot.mjs`: docs/screenshots/runtimes.png from real runs. Starts the
// production server (on a temp data dir, with the runtimes of STREAM_LAB_RUNTIMES_DIR), runs
// ixjs-from and pipeline-generator on every installed Node from the form (32 MB, 2 ms per chunk),
// then opens the comparison of those runs. Needs `next build` and `npm run runtimes -- add 22 24`.
import { chromium } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_ARGS, configureExperiment, findChromium, root, startServer } from './lib.mjs';

const dataDir = mkdtempSync(join(tmpdir(), 'stream-lab-runtimes-shot-'));
const server = await startServer(Number(process.env.SHOT_PORT ?? 3262), { STREAM_LAB_DATA_DIR: dataDir });
const browser = await chromium.launch({ executablePath: (await findChromium()) ?? undefined, args: CHROMIUM_ARGS });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 1180 } });
  await page.goto(`${server.url}/`);
  await page
    .getByTestId('connection-status')
    .filter({ hasText: /^connected$/ })
    .waitFor();
  const runtimes = await page
    .getByTestId('input-node')
    .locator('option')
    .evaluateAll((els) => els.map((e) => e.value));
  const ids = [];
  for (const node of runtimes) {
    await configureExperiment(page, ['ixjs-from', 'pipeline-generator'], { sizeMb: 32, delayMs: 2 });
    await page.getByTestId('input-node').selectOption(node);
    await page.getByTestId('start-button').click();
    // Two new cards (ids not seen before) completed: this runtime's experiment is done.
    await page.waitForFunction(
      (seen) =>
        [...document.querySelectorAll('[data-testid="run-card"][data-status="completed"]')].filter((e) => !seen.includes(e.getAttribute('data-run-id')))
          .length >= 2,
      ids,
      { timeout: 300_000, polling: 500 },
    );
    const done = await page.locator('[data-testid="run-card"][data-status="completed"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-run-id')));
    for (const id of done) if (!ids.includes(id)) ids.push(id);
  }
  await page.goto(`${server.url}/runs/compare?ids=${ids.join(',')}&metric=heapUsed`);
  await page.getByTestId('runtime-verdict').waitFor();
  await page.waitForTimeout(800);
  await page.screenshot({ path: join(root, 'docs', 'screenshots', 'runtimes.png') });
  await page.screenshot({ path: '/tmp/runtimes-full.png', fullPage: true });
  console.log(`wrote docs/screenshots/runtimes.png (${ids.length} runs on ${runtimes.length} runtimes)`);
} finally {
  await browser.close();
  server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
