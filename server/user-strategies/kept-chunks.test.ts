/**
 * Garbage or kept, on real runs of strategies of yours (the bench CLI, fenced child processes, a
 * real file): a pull reader in step with its consumer that keeps every chunk in a module-level
 * array is called kept, in default and in retained mode; one that drops its chunks but leaves
 * promoted garbage behind (IxJS's promise chains) is still called garbage.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScript } from '../test-support';
import { MIB } from '../../lib/protocol/params';
import type { StreamsSummary } from '../../labs/streams/shared/schema';
import { scanUserStrategies } from '.';

const rootDir = fileURLToPath(new URL('../..', import.meta.url));

const FILES: Record<string, string> = {
  'keep-all.ts': `
    import type { Readable } from 'node:stream';
    const kept: Buffer[] = [];
    export const strategy = {
      id: 'keep-all',
      label: 'Keeps every chunk',
      mode: 'pull' as const,
      async run({ stream, consume }: { stream: Readable; consume(chunk: Buffer): Promise<string> }) {
        for await (const chunk of stream) {
          kept.push(chunk);
          await consume(chunk);
        }
      },
    };`,
  // ixjs-from's reader, as a file of yours: it drops every chunk, but they outlive two scavenges.
  'ix-drops.ts': `
    import type { Readable } from 'node:stream';
    import { from } from 'ix/asynciterable';
    import { concatMap } from 'ix/asynciterable/operators';
    export const strategy = {
      id: 'ix-drops',
      label: 'IxJS, drops every chunk',
      mode: 'pull' as const,
      async run({ stream, consume }: { stream: Readable; consume(chunk: Buffer): Promise<string> }) {
        for await (const _ of from<Buffer>(stream).pipe(concatMap(async (c) => consume(c)))) {
          // the consumer did the work
        }
      },
    };`,
};

describe('kept chunks vs garbage, strategies of yours', () => {
  let dir: string;
  let dataDir: string;
  const bench = async (args: string[]): Promise<StreamsSummary[]> => {
    const r = await runScript(rootDir, ['server/cli/bench.ts', ...args, '--size-mb', '16', '--delay-ms', '2', '--json'], {
      STREAM_LAB_DATA_DIR: dataDir,
      STREAM_LAB_STRATEGIES_DIR: dir,
    });
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as StreamsSummary[];
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'stream-lab-kept-'));
    dataDir = mkdtempSync(join(tmpdir(), 'stream-lab-kept-data-'));
    mkdirSync(join(dir, 'streams'));
    for (const [name, text] of Object.entries(FILES)) writeFileSync(join(dir, 'streams', name), text);
    await scanUserStrategies(dir);
  }, 60_000);

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('calls a pull reader that keeps every chunk kept, never garbage, in default mode; one that drops them is still garbage', async () => {
    const [keeps, drops] = await bench(['--strategies', 'keep-all,ix-drops']);
    expect([keeps.outcome, drops.outcome]).toEqual(['completed', 'completed']);
    // In step with the consumer, and yet most of the file in arrayBuffers: the case that fooled the verdict.
    expect(keeps.peakBufferedBytes).toBeLessThan(2 * MIB);
    expect(keeps.peak?.arrayBuffers).toBeGreaterThan(0.9 * keeps.fileBytes);
    // A full GC once the strategy finished still found the file; one during ix-drops' run found little.
    expect(keeps.endGcArrayBuffers).toBeGreaterThan(0.9 * keeps.fileBytes);
    expect(drops.endGcArrayBuffers).toBeLessThan(0.1 * drops.fileBytes);
    expect(keeps.verdict!.text).toContain('the strategy keeps what it read');
    expect(keeps.verdict!.text).not.toContain('garbage not yet collected');
    expect(keeps.verdict!.expected).toBe(false);
    expect(keeps.verdict!.figures.keptBytes).toBeGreaterThan(0.9 * keeps.fileBytes);
    expect(drops.peak?.arrayBuffers, 'ix-drops left garbage to judge').toBeGreaterThan(0.25 * drops.fileBytes);
    expect(drops.verdict!.text).toContain('garbage not yet collected');
    expect(drops.verdict!.text).not.toContain('keeps what it read');
    expect(drops.verdict!.expected).toBe(true);
  }, 180_000);

  it('calls the keeper kept in retained mode too, where every sample follows a GC', async () => {
    const [keeps] = await bench(['--strategies', 'keep-all', '--retained']);
    expect(keeps.outcome).toBe('completed');
    expect(keeps.verdict!.text).toContain('the strategy keeps what it read: with a GC before every sample');
    expect(keeps.verdict!.text).not.toContain('garbage not yet collected');
    expect(keeps.verdict!.expected).toBe(false);
  }, 180_000);
});
