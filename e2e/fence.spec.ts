/**
 * The fence against hostile code (issue 39), as a room sees it: strategies edited in the page try
 * to take the room down — SIGTERM to their parent (once the server itself), a connection to the
 * server's own port — while a built-in runs beside them and another browser's run waits its turn
 * (the room's queue runs one job at a time). Their runs end refused, naming it; the built-in and
 * the other browser's run complete, and the other viewer never loses the server.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from '@playwright/test';
import { e2eStrategiesDir } from '../playwright.config';
import { expect, test } from './fixtures';
import { openLab, pickStrategies, startAndFindCards } from './lab-page';

/** A copy of a pull reader that first reaches outside its run: `attempt` is the first line of its run(). */
const hostile = (id: string, attempt: string) => `import net from 'node:net';

export const strategy = {
  id: '${id}',
  label: '${id}',
  mode: 'pull',
  async run({ stream, consume }) {
    ${attempt}
    for await (const chunk of stream) await consume(chunk);
  },
};
`;

/** Edits a copy of pipeline-generator into `source` under `id` and saves it, as a person does. */
async function saveCopy(page: import('@playwright/test').Page, id: string, source: string): Promise<void> {
  const editor = page.getByTestId('strategy-editor');
  // The editor stays open after a save: the next copy is typed into it under its own id.
  if (!(await editor.isVisible())) await page.getByTestId('edit-copy-pipeline-generator').click();
  await editor.getByTestId('editor-id').fill(id);
  await editor.getByTestId('editor-content').click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.insertText(source);
  await expect(editor.getByTestId('editor-problems')).toHaveCount(0);
  await editor.getByTestId('editor-save').click();
  await expect(editor.getByTestId('editor-status')).toContainText(`Saved as ${id}`);
  await expect(page.getByTestId(`strategy-yours-${id}`)).toBeVisible();
}

/** Another browser (its own context, no operator token) watching the room and starting a built-in run of its own. */
async function otherBrowsersRun(browser: Browser, baseURL: string) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  const closed: string[] = [];
  page.on('websocket', (ws) => ws.on('close', () => closed.push(ws.url())));
  await page.goto('/');
  await expect(page.getByTestId('connection-status')).toHaveText('connected');
  await page.getByTestId('lab-option-streams').check();
  await pickStrategies(page, ['pipeline-generator']);
  await page.getByTestId('input-sizeMb').fill('4');
  await page.getByTestId('input-delayMs').fill('5');
  await page.getByTestId('start-button').click();
  return { context, page, card: page.getByTestId('run-card').last(), closed };
}

// The copies this spec saves go with it: the next spec on this server starts with no strategies of yours.
test.afterAll(({}, testInfo) => {
  const folder = join(fileURLToPath(new URL('..', import.meta.url)), e2eStrategiesDir(testInfo.parallelIndex), 'streams');
  for (const id of ['signals-server', 'connects-server']) rmSync(join(folder, `${id}.ts`), { force: true });
});

test('a page-edited strategy that signals its parent or connects to the server ends refused; another browser’s run completes, its viewer connected', async ({
  page,
  browser,
  baseURL,
}) => {
  await openLab(page, 'streams');
  const port = new URL(baseURL!).port;
  await pickStrategies(page, ['pipeline-generator']);
  await saveCopy(page, 'signals-server', hostile('signals-server', "process.kill(process.ppid, 'SIGTERM');"));
  await saveCopy(
    page,
    'connects-server',
    hostile('connects-server', `await new Promise((resolve, reject) => net.connect(${port}, '127.0.0.1').once('connect', resolve).once('error', reject));`),
  );

  // One experiment, its runs side by side: a long built-in, and the two attempts while it goes.
  await pickStrategies(page, ['pipeline-generator', 'signals-server', 'connects-server']);
  await page.getByTestId('input-sizeMb').fill('16');
  await page.getByTestId('input-delayMs').fill('40');
  await page.getByTestId('input-parallel').setChecked(true);
  const { cards } = await startAndFindCards(page, 3);
  const card = async (strategy: string) => {
    for (const c of cards) if ((await c.getAttribute('data-strategy')) === strategy) return c;
    throw new Error(`no card for ${strategy}`);
  };
  const [builtIn, signals, connects] = [await card('pipeline-generator'), await card('signals-server'), await card('connects-server')];
  await expect(builtIn).toHaveAttribute('data-status', 'running', { timeout: 30_000 });
  // Another browser's run, waiting its turn in the room's one-at-a-time queue while the attempts go.
  const other = await otherBrowsersRun(browser, baseURL!);
  for (const card of [signals, connects]) await expect(card).toHaveAttribute('data-status', 'refused', { timeout: 60_000 });
  await expect(signals).toContainText('sent SIGTERM to a process outside its run');
  await expect(connects).toContainText(`connected to 127.0.0.1:${port}, outside its run`);
  // Both attempts were made while the built-in beside them was going; it goes on, and completes.
  await expect(builtIn).toHaveAttribute('data-status', 'running');
  await expect(builtIn).toHaveAttribute('data-status', 'completed', { timeout: 90_000 });

  await expect(other.card).toHaveAttribute('data-status', 'completed', { timeout: 90_000 });
  await expect(other.page.getByTestId('connection-status')).toHaveText('connected');
  expect(other.closed).toEqual([]);
  // This page too: the server never went.
  await expect(page.getByTestId('connection-status')).toHaveText('connected');
  expect((await page.request.get('/api/health')).ok()).toBe(true);
  await other.context.close();
});
