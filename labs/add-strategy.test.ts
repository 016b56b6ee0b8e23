/**
 * "Add a strategy = add one file", shown on a copy of the project: a strategy file copied under a
 * new name and id into the streams lab's folder is listed by the catalog the page gets and run by
 * the bench CLI, with no other file changed.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScript } from '../server/test-support';

const root = fileURLToPath(new URL('..', import.meta.url));

const run = runScript;

describe('adding a strategy', () => {
  let copy: string;
  let dataDir: string;

  beforeAll(() => {
    copy = mkdtempSync(join(tmpdir(), 'stream-lab-copy-'));
    dataDir = join(copy, 'data');
    for (const dir of ['server', 'lib', 'labs']) cpSync(join(root, dir), join(copy, dir), { recursive: true });
    for (const file of ['package.json', 'tsconfig.json']) cpSync(join(root, file), join(copy, file));
    symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));
    // The one change: pipeline-generator's file under a new name, with a new id and label.
    const source = readFileSync(join(root, 'labs/streams/child/strategies/pipeline-generator.ts'), 'utf8');
    const copied = source.replace("id: 'pipeline-generator'", "id: 'pipeline-copy'").replace(/label: '[^']*'/, "label: 'A copied pipeline'");
    expect(copied).not.toBe(source);
    writeFileSync(join(copy, 'labs/streams/child/strategies/pipeline-copy.ts'), copied);
  });

  afterAll(() => {
    rmSync(copy, { recursive: true, force: true });
  });

  it('lists it in the catalog the page receives', async () => {
    const script = "import { strategyCatalog } from './labs/catalog.ts'; console.log(JSON.stringify(strategyCatalog().map((s) => [s.lab, s.id, s.label])));";
    writeFileSync(join(copy, 'list.ts'), script);
    const listed = await run(copy, ['list.ts'], { STREAM_LAB_DATA_DIR: dataDir });
    expect(listed.code, listed.stderr).toBe(0);
    const catalog = JSON.parse(listed.stdout) as string[][];
    expect(catalog).toContainEqual(['streams', 'pipeline-copy', 'A copied pipeline']);
    // The streams lab's eighteen and the copy; the other labs' strategies are listed too.
    expect(catalog.filter(([lab]) => lab === 'streams')).toHaveLength(19);
    expect(catalog.filter(([lab]) => lab !== 'streams').length).toBeGreaterThan(0);
  });

  it('runs it from the bench CLI', async () => {
    const bench = await run(copy, ['server/cli/bench.ts', '--strategies', 'pipeline-copy', '--size-mb', '2', '--delay-ms', '0', '--json'], {
      STREAM_LAB_DATA_DIR: dataDir,
    });
    expect(bench.code, bench.stderr).toBe(0);
    const [summary] = JSON.parse(bench.stdout) as Array<{ strategy: string; outcome: string; bytesProcessed: number; fileBytes: number }>;
    expect(summary).toMatchObject({ strategy: 'pipeline-copy', outcome: 'completed' });
    expect(summary.bytesProcessed).toBe(summary.fileBytes);
  });
});
