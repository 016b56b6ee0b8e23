/**
 * "Adding a lab = adding a folder", shown on a copy of the project: the hot-code lab's folder copied
 * to labs/hotcopy/ (inside it, only its id file and its name changed; nothing outside it) is found by
 * the catalog, the bench CLI, the page's lab switch and form, a run started from the page, and the
 * history page. The copy is built and served on its own port, beside the suite's server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';

const root = fileURLToPath(new URL('..', import.meta.url));
const NEW_ID = 'hotcopy';
const NEW_NAME = 'Hot code, copied';

/** Runs a command in the copy; resolves with its exit code and output (the output also names a failure). */
function run(cwd: string, cmd: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

test.describe.configure({ mode: 'serial' });

test.describe('adding a lab', () => {
  let copy: string;
  let dataDir: string;
  let server: ChildProcess | null = null;
  /** The copy's server, on a port the OS picked (read from its "ready on" line). */
  let url = '';

  test.beforeAll(async () => {
    // Copy, then a whole Next build of the copy, beside the other e2e worker: the CI's own build
    // stage takes 3 min beside two busy loops, and this one ran past 300 s there once (busy 40,
    // docs/results.md §14), when the machine had still more to do.
    test.setTimeout(600_000);
    // Inside the project's .build/ (ignored by git, tsc, ESLint and Prettier): Next's bundler takes the
    // nearest lockfile's folder as its root, and node_modules (a link to this project's) must be inside it.
    mkdirSync(join(root, '.build'), { recursive: true });
    copy = mkdtempSync(join(root, '.build', 'add-a-lab-'));
    dataDir = join(copy, 'data');
    for (const dir of ['app', 'components', 'lib', 'labs', 'server', 'scripts']) {
      cpSync(join(root, dir), join(copy, dir), { recursive: true, filter: (src) => !src.includes(`${join(root, 'labs', 'generated')}`) });
    }
    for (const file of ['package.json', 'tsconfig.json', 'next.config.js']) cpSync(join(root, file), join(copy, file));
    symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));

    // The one change: the hot-code lab's folder under a new id, and a name to tell it apart by.
    cpSync(join(copy, 'labs', 'hotcode'), join(copy, 'labs', NEW_ID), { recursive: true });
    writeFileSync(join(copy, 'labs', NEW_ID, 'shared', 'id.ts'), `export const LAB_ID = '${NEW_ID}';\n`);
    const schemaFile = join(copy, 'labs', NEW_ID, 'shared', 'schema.ts');
    const schema = readFileSync(schemaFile, 'utf8');
    const renamed = schema.replace(/^ {2}name: '[^']*',$/m, `  name: '${NEW_NAME}',`);
    expect(renamed, 'the schema names its lab').not.toBe(schema);
    writeFileSync(schemaFile, renamed);

    const index = await run(copy, process.execPath, ['scripts/lab-index.mjs']);
    expect(index.code, index.stderr).toBe(0);
    expect(index.stdout).toContain(NEW_ID);
    const build = await run(copy, process.execPath, ['node_modules/next/dist/bin/next', 'build']);
    expect(build.code, `${build.stdout}\n${build.stderr}`).toBe(0);

    server = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
      cwd: copy,
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        NODE_ENV: 'production',
        NEXT_TELEMETRY_DISABLED: '1',
        STREAM_LAB_DATA_DIR: dataDir,
        STREAM_LAB_PREPARE_MB: '0',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    url = await new Promise<string>((resolve, reject) => {
      let out = '';
      server!.stdout!.on('data', (d: Buffer) => {
        out += String(d);
        const ready = /ready on (http:\/\/\S+)/.exec(out);
        if (ready) resolve(ready[1]);
      });
      server!.once('exit', (code) => reject(new Error(`the copy's server exited with ${code}`)));
    });
  });

  test.afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    if (copy) rmSync(copy, { recursive: true, force: true });
  });

  test('the catalog lists its strategies, and the bench CLI runs them all', async ({ request }) => {
    test.setTimeout(180_000);
    const catalog = (await (await request.get(`${url}/api/strategies`)).json()) as Array<{ lab: string; id: string }>;
    const original = catalog.filter((s) => s.lab === 'hotcode').map((s) => s.id);
    expect(original.length).toBeGreaterThan(1);
    expect(catalog.filter((s) => s.lab === NEW_ID).map((s) => s.id)).toEqual(original);

    const bench = await run(
      copy,
      'npm',
      ['run', '--silent', 'bench', '--', '--lab', NEW_ID, '--strategies', 'all', '--rows', '1000', '--requests', '1', '--json'],
      {
        STREAM_LAB_DATA_DIR: dataDir,
      },
    );
    expect(bench.code, bench.stderr).toBe(0);
    const summaries = JSON.parse(bench.stdout) as Array<{ lab: string; strategy: string; outcome: string }>;
    expect(summaries.map((s) => s.strategy).sort()).toEqual([...original].sort());
    for (const s of summaries) expect(s, s.strategy).toMatchObject({ lab: NEW_ID, outcome: 'completed' });
  });

  test('the page switches to it, shows its form, runs it, and the history lists the run', async ({ page }) => {
    test.setTimeout(120_000);
    await page.goto(`${url}/`);
    await expect(page.getByTestId('connection-status')).toHaveText('connected');
    const option = page.getByTestId(`lab-option-${NEW_ID}`);
    await expect(page.getByTestId('lab-switch')).toContainText(NEW_NAME);
    await option.check();
    await expect(page.getByTestId('lab-switch')).toHaveAttribute('data-lab', NEW_ID);
    await expect(page).toHaveURL(new RegExp(`lab=${NEW_ID}`));

    // Its form: the hot-code lab's fields, and its strategies to pick from.
    await expect(page.getByTestId('strategy-checkbox-groupby-push')).toBeVisible();
    for (const box of await page.locator('[data-testid^="strategy-checkbox-"]').all()) {
      await box.setChecked((await box.getAttribute('data-testid')) === 'strategy-checkbox-groupby-push');
    }
    await page.getByTestId('input-rows').fill('2000');
    await page.getByTestId('input-requests').fill('1');
    await page.getByTestId('start-button').click();
    const card = page.locator('[data-testid="run-card"][data-strategy="groupby-push"]');
    await expect(card).toHaveCount(1);
    await expect(card).toHaveAttribute('data-status', 'completed', { timeout: 60_000 });
    await expect(card.getByTestId('run-verdict')).toContainText('1 report of 2,000 rows');
    const runId = await card.getAttribute('data-run-id');

    await page.goto(`${url}/runs?lab=${NEW_ID}`);
    const row = page.locator(`[data-testid="history-row"][data-run-id="${runId}"]`);
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId('history-lab')).toHaveAttribute('data-lab', NEW_ID);
    await expect(row.getByTestId('history-lab')).toContainText(NEW_NAME);
    await expect(page.getByTestId('history-filter-lab')).toHaveValue(NEW_ID);
    // The copied lab's own columns, from its schema, with the run's figure in them.
    await expect(page.getByTestId('history-lab-column').first()).toHaveText('Report (fastest)');
    expect(Number(await row.locator('[data-field="reportMsMin"]').getAttribute('data-value'))).toBeGreaterThan(0);
  });
});
