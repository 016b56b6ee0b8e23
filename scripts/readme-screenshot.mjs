// `node scripts/readme-screenshot.mjs`: the README's picture, from a real run. Starts the production
// server, runs rxjs-from against pipeline-generator in parallel (64 MiB, 10 ms per chunk) and saves
// the top of the page as docs/screenshot.png. Needs `next build` first.
import { chromium } from '@playwright/test';
import { join } from 'node:path';
import { CHROMIUM_ARGS, configureExperiment, findChromium, root, startServer } from './lib.mjs';

const server = await startServer(Number(process.env.SHOT_PORT ?? 3260));
const browser = await chromium.launch({ executablePath: (await findChromium()) ?? undefined, args: CHROMIUM_ARGS });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(server.url);
  await page
    .getByTestId('connection-status')
    .filter({ hasText: /^connected$/ })
    .waitFor();
  await configureExperiment(page, ['rxjs-from', 'pipeline-generator'], { sizeMb: 64, delayMs: 10, sampleMs: 50, retained: false, parallel: true });
  await page.getByTestId('start-button').click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="run-card"][data-status="completed"]').length >= 2, null, {
    timeout: 120_000,
    polling: 500,
  });
  // Live charts draw only while on screen: make the window as tall as the part of the page shot.
  const bottom = await page.getByTestId('results-table').evaluate((el) => el.getBoundingClientRect().bottom + window.scrollY);
  await page.setViewportSize({ width: 1280, height: Math.ceil(bottom) + 16 });
  await page.waitForTimeout(500);
  const results = await page.getByTestId('results-table').boundingBox();
  await page.screenshot({
    path: join(root, 'docs', 'screenshot.png'),
    fullPage: true,
    clip: { x: 0, y: 0, width: 1280, height: results.y + results.height + 16 },
  });
  console.log('wrote docs/screenshot.png');
} finally {
  await browser.close();
  server.stop();
}
