// `node scripts/lesson-walk.mjs <lesson> [step…]` (lesson: a /lessons/<slug>, e.g. deadline, hotcode,
// backpressure): runs the walkthrough's steps in Chromium against the production server (needs
// `next build`) and prints, for each step, its written text (paragraphs and "What to look at") beside
// the conclusion computed from the run and the figures its run panels show, so the text can be checked
// against a real run. Saves a screenshot of each step to $SHOT_DIR (default /tmp). Data in a
// temporary directory.
import { chromium } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_ARGS, findChromium, startServer } from './lib.mjs';

const [slug, ...rest] = process.argv.slice(2);
if (!slug || !/^[a-z][a-z0-9-]*$/.test(slug)) {
  console.error('usage: node scripts/lesson-walk.mjs <lesson slug> [step…]');
  process.exit(2);
}
const steps = rest.map(Number);
const dir = process.env.SHOT_DIR ?? tmpdir();
const server = await startServer(Number(process.env.SHOT_PORT ?? 3225), {
  HOST: '127.0.0.1',
  STREAM_LAB_DATA_DIR: mkdtempSync(join(tmpdir(), 'lesson-walk-')),
});
const browser = await chromium.launch({ executablePath: (await findChromium()) ?? undefined, args: CHROMIUM_ARGS });
const squash = (s) => (s ?? '').replace(/\s+/g, ' ').trim();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const res = await page.goto(`${server.url}/lessons/${slug}`);
  if (!res?.ok()) throw new Error(`/lessons/${slug} answered ${res?.status()}`);
  await page.waitForLoadState('networkidle');
  if ((await page.getByTestId('lesson-step').count()) === 0) throw new Error(`/lessons/${slug} has no walkthrough steps to run`);
  await page
    .getByTestId('connection-status')
    .filter({ hasText: /^connected$/ })
    .waitFor();
  const all = await page.getByTestId('lesson-step').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-step'))));
  for (const n of steps.length ? steps : all) {
    const step = page.locator(`[data-testid="lesson-step"][data-step="${n}"]`);
    const t0 = Date.now();
    await step.getByTestId('lesson-run').click();
    await step.and(page.locator('[data-status="done"]')).waitFor({ timeout: 300_000 });
    const secs = ((Date.now() - t0) / 1000).toFixed(1);
    console.log(`## ${slug} step ${n}: ${squash(await step.locator('h2').textContent())} (${secs} s)`);
    for (const p of await step.locator('.lesson-text').allTextContents()) console.log(`text: ${squash(p)}`);
    console.log(`watch: ${squash(await step.locator('.lesson-watch').textContent())}`);
    // Each run's figures as its lesson panel shows them (term: value), and its verdict when it has one.
    for (const result of await step.getByTestId('lesson-run-result').all()) {
      const figures = await result.evaluate((dl) =>
        [...dl.querySelectorAll('dt')].map((dt) => `${dt.textContent}: ${dt.nextElementSibling?.textContent ?? ''}`),
      );
      console.log(`run ${await result.getAttribute('data-strategy')} (${await result.getAttribute('data-outcome')}): ${figures.join(' | ')}`);
    }
    const c = step.getByTestId('lesson-conclusion');
    console.log(`conclusion (as expected: ${await c.getAttribute('data-expected')}): ${squash(await c.textContent())}\n`);
    await step.screenshot({ path: join(dir, `lesson-${slug}-step${n}.png`) });
  }
} finally {
  await browser.close();
  server.stop();
}
