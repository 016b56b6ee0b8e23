/**
 * A strategy of yours, as a person adds one: a file saved into the server's strategies folder shows
 * up under "Yours" with its source, runs beside a built-in, and its verdict comes from its figures
 * (a reader declared pull that buffers the file is told the claim is contradicted).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { e2eStrategiesDir } from '../playwright.config';
import { expect, test } from './fixtures';
import { openLab, pickStrategies, startAndFindCards } from './lab-page';

const root = fileURLToPath(new URL('..', import.meta.url));

// Reads the whole file into an array as fast as it comes, then hands it to the consumer: it claims pull.
const HOARDER = `
import type { Readable } from 'node:stream';

export const strategy = {
  id: 'hoarder',
  label: 'Reads it all, then consumes',
  mode: 'pull' as const,
  explanation: 'Collects every chunk first, then consumes them in order.',
  async run({ stream, consume }: { stream: Readable; consume(chunk: Buffer): Promise<string> }) {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    await new Promise((resolve, reject) => stream.on('end', resolve).on('error', reject));
    for (const chunk of chunks) await consume(chunk);
  },
};
`;

test.describe('strategies of yours', () => {
  let folder: string;

  test.beforeAll(({}, testInfo) => {
    folder = join(root, e2eStrategiesDir(testInfo.parallelIndex), 'streams');
    mkdirSync(folder, { recursive: true });
  });

  test.afterAll(() => {
    // The lab's folder and the owners of copies saved from the page.
    rmSync(join(folder, '..'), { recursive: true, force: true });
  });

  test('a file saved into the strategies folder is listed under Yours with its source and runs beside a built-in', async ({ page }) => {
    await openLab(page, 'streams');
    await expect(page.getByTestId('strategies-yours')).toHaveCount(0);
    writeFileSync(join(folder, 'hoarder.ts'), HOARDER);
    // No reload: the server reads the folder again within a second and the page gets the new list.
    const entry = page.getByTestId('strategy-yours-hoarder');
    await expect(entry).toBeVisible({ timeout: 20_000 });
    await expect(entry).toContainText('Reads it all, then consumes');
    await expect(entry).toContainText('hoarder.ts');
    await entry.getByText('Source').click();
    await expect(page.getByTestId('strategy-source-hoarder')).toContainText('chunks.push(chunk)');

    await pickStrategies(page, ['hoarder', 'pipeline-generator']);
    await page.getByTestId('input-sizeMb').fill('8');
    await page.getByTestId('input-delayMs').fill('5');
    await page.getByTestId('input-parallel').setChecked(false);
    const { cards } = await startAndFindCards(page, 2);
    for (const card of cards) await expect(card).toHaveAttribute('data-status', 'completed', { timeout: 60_000 });
    // In the catalog's order: the built-ins first, then yours.
    const [pipeline, hoarder] = cards;
    await expect(hoarder).toHaveAttribute('data-strategy', 'hoarder');
    await expect(hoarder.getByTestId('run-card-yours')).toHaveText('yours');
    await expect(pipeline.getByTestId('run-card-yours')).toHaveCount(0);
    await expect(hoarder.getByTestId('run-verdict')).toContainText('the reader ignored backpressure');
    await expect(hoarder.getByTestId('run-verdict')).toContainText('It is declared pull, but these figures contradict that');
    await expect(pipeline.getByTestId('run-verdict')).toContainText('backpressure held');
    // Both on the comparison chart.
    const comparison = page.getByTestId('comparison-chart');
    await comparison.scrollIntoViewIfNeeded();
    await expect(comparison.locator('.chart-legend button[data-series-key]')).toHaveCount(2);
  });

  test('a file that does not compile is listed with its line and column, and cannot be picked', async ({ page }) => {
    await openLab(page, 'streams');
    writeFileSync(join(folder, 'typo.ts'), "export const strategy = {\n  id: 'typo',\n  mode: 'pull',\n  run() { return 1 +; },\n};\n");
    const problem = page.getByTestId('strategy-problem-typo');
    await expect(problem).toBeVisible({ timeout: 20_000 });
    await expect(problem).toContainText('typo.ts:4:');
    await expect(page.getByTestId('strategy-checkbox-typo')).toBeDisabled();
  });

  test('Edit a copy of pipeline-generator, make it push without waiting, Save, run it beside the original: the verdict flips', async ({ page }) => {
    await openLab(page, 'streams');
    await pickStrategies(page, ['pipeline-generator']);
    await page.getByTestId('input-sizeMb').fill('8');
    await page.getByTestId('input-delayMs').fill('5');
    await page.getByTestId('input-parallel').setChecked(false);
    await page.getByTestId('edit-copy-pipeline-generator').click();
    const editor = page.getByTestId('strategy-editor');
    const content = editor.getByTestId('editor-content');
    await expect(content).toContainText('export const strategy');
    await expect(editor.getByTestId('editor-id')).toHaveValue('pipeline-generator-copy');

    // A typo first: the server's check marks it, with its line, before anything runs.
    await content.click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.insertText('export const strategy = {\n  id: "x",\n  run() { return 1 +; },\n};\n');
    await expect(editor.getByTestId('editor-problems')).toContainText('line 3, column 21: Unexpected ";"');
    await expect(editor.getByTestId('editor-save')).toBeDisabled();

    // The change the lesson is about: push every chunk's consumer call into an array, never wait.
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.insertText(PUSHING_COPY);
    await expect(editor.getByTestId('editor-problems')).toHaveCount(0);
    await expect(editor.getByTestId('editor-save')).toBeEnabled();
    await editor.getByTestId('editor-save').click();
    await expect(editor.getByTestId('editor-status')).toContainText('Saved as pipeline-generator-copy');
    await expect(page.getByTestId('strategy-yours-pipeline-generator-copy')).toBeVisible();

    const before = await page.getByTestId('run-card').count();
    await editor.getByTestId('editor-run-beside').click();
    await expect(page.getByTestId('run-card')).toHaveCount(before + 2);
    const original = page.locator('[data-testid="run-card"][data-strategy="pipeline-generator"]').last();
    const copy = page.locator('[data-testid="run-card"][data-strategy="pipeline-generator-copy"]').last();
    for (const card of [original, copy]) await expect(card).toHaveAttribute('data-status', 'completed', { timeout: 60_000 });
    await expect(original.getByTestId('run-verdict')).toContainText('backpressure held');
    await expect(copy.getByTestId('run-verdict')).toContainText('ignored backpressure');
    await expect(copy.getByTestId('run-verdict')).toContainText('It is declared pull, but these figures contradict that');
    const comparison = page.getByTestId('comparison-chart');
    await comparison.scrollIntoViewIfNeeded();
    await expect(comparison.locator('.chart-legend button[data-series-key]')).toHaveCount(2);
  });

  test('in the hot-code lab, a file of yours is listed under Yours and runs beside a built-in, every report checked', async ({ page }) => {
    const hotcode = join(folder, '..', 'hotcode');
    mkdirSync(hotcode, { recursive: true });
    writeFileSync(
      join(hotcode, 'rates-object.ts'),
      `// Totals by tax rate in one pass over plain objects.
export const strategy = {
  id: 'rates-object',
  role: 'fix',
  label: 'Totals in one pass',
  run(rows: ReadonlyArray<{ taxRate: number; amount: number }>) {
    const totals: Record<string, { count: number; total: number }> = {};
    for (const r of rows) {
      const t = (totals[String(r.taxRate)] ??= { count: 0, total: 0 });
      t.count += 1;
      t.total += r.amount;
    }
    return { days: null, taxRates: totals };
  },
};
`,
    );
    await openLab(page, 'hotcode');
    await expect(page.getByTestId('strategy-yours-rates-object')).toBeVisible({ timeout: 20_000 });
    await pickStrategies(page, ['groupby-push', 'rates-object']);
    await page.getByTestId('input-rows').fill('8000');
    await page.getByTestId('input-requests').fill('2');
    const { cards } = await startAndFindCards(page, 2);
    for (const card of cards) await expect(card).toHaveAttribute('data-status', 'completed', { timeout: 60_000 });
    const yours = cards[1];
    await expect(yours).toHaveAttribute('data-strategy', 'rates-object');
    await expect(yours.getByTestId('run-card-yours')).toHaveText('yours');
    await expect(yours.getByTestId('run-verdict')).toContainText('2 reports of 8,000 rows');
  });
});

// pipeline-generator's copy, changed to start every consumer call at once (still declared pull).
const PUSHING_COPY = `async function run({ stream, consume }) {
  const calls = [];
  for await (const chunk of stream) calls.push(consume(chunk));
  await Promise.all(calls);
}

export const strategy = {
  id: 'pipeline-generator-copy',
  label: 'pipeline copy that pushes',
  mode: 'pull',
  run,
};
`;
