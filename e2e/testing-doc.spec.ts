/**
 * docs/testing.md's Playwright example, run exactly as the doc shows it: the block after
 * "```ts playwright-example" is written to a file of its own and run by a Playwright of its own
 * against this worker's server, so the doc can't drift from the page's hooks.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { e2eServerUrl } from '../playwright.config';
import { expect, test } from './fixtures';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The code of the doc's example block. */
function exampleOf(markdown: string): string {
  const m = /^```ts playwright-example\n([\s\S]*?)^```$/m.exec(markdown);
  if (!m) throw new Error('docs/testing.md has no ```ts playwright-example block');
  return m[1];
}

test("docs/testing.md's Playwright example runs as written and passes", async ({}, testInfo) => {
  test.setTimeout(180_000);
  const dir = join(root, 'e2e', '.artifacts', `doc-example-${testInfo.parallelIndex}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'example.doc.ts'), exampleOf(readFileSync(join(root, 'docs', 'testing.md'), 'utf8')));
  // The suite's browser and this worker's server; nothing else of the suite's (no fixtures, no token).
  writeFileSync(
    join(dir, 'playwright.config.ts'),
    `import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS } from '../../../scripts/lib.mjs';
export default defineConfig({
  testDir: '.',
  testMatch: '*.doc.ts',
  outputDir: 'results',
  timeout: 150_000,
  expect: { timeout: 30_000 },
  reporter: [['list']],
  use: { baseURL: ${JSON.stringify(e2eServerUrl(testInfo.parallelIndex))}, launchOptions: { executablePath: process.env.CHROMIUM_PATH, args: CHROMIUM_ARGS } },
});
`,
  );
  const { PLAYWRIGHT_JSON_OUTPUT_FILE: _report, ...env } = process.env;
  const run = spawn(process.execPath, ['node_modules/@playwright/test/cli.js', 'test', '--config', join(dir, 'playwright.config.ts')], { cwd: root, env });
  let output = '';
  run.stdout.on('data', (d: Buffer) => (output += d));
  run.stderr.on('data', (d: Buffer) => (output += d));
  const code = await new Promise<number | null>((resolve) => run.on('close', resolve));
  expect(code, output).toBe(0);
  expect(output).toMatch(/1 passed/);
});
