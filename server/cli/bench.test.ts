import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScript } from '../test-support';
import { MEMORY_FIELDS, summarySchema } from '../../lib/protocol';
import { MIB } from '../../lib/protocol/params';

const rootDir = fileURLToPath(new URL('../..', import.meta.url));

/** Runs the bench CLI the way `npm run bench --` does, with its own data dir. */
const runBench = (args: string[], dataDir: string) => runScript(rootDir, ['server/cli/bench.ts', ...args], { STREAM_LAB_DATA_DIR: dataDir });

describe('bench CLI', () => {
  let dataDir: string;

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'stream-lab-bench-'));
  });

  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('exits with code 2 and names the flag when a parameter is out of range', async () => {
    const result = await runBench(['--delay-ms', '-1'], dataDir);
    expect(result).toEqual({ code: 2, stdout: '', stderr: 'bench: --delay-ms: delayMs must be between 0 and 1000\n' });
  });

  it('prints one JSON array of summaries on stdout with --json', async () => {
    const result = await runBench(['--strategies', 'for-await,rxjs-from', '--size-mb', '2', '--delay-ms', '0', '--json'], dataDir);
    expect(result.code, result.stderr).toBe(0);
    // The file went to STREAM_LAB_DATA_DIR, not the repository's data/.
    expect(existsSync(join(dataDir, `stream-lab-${2 * MIB}-s1.csv`))).toBe(true);

    const summaries: unknown = JSON.parse(result.stdout);
    expect(Array.isArray(summaries)).toBe(true);
    const list = summaries as Array<Record<string, unknown>>;
    expect(list.map((s) => s.strategy)).toEqual(['for-await', 'rxjs-from']);
    for (const s of list) {
      expect(s.outcome).toBe('completed');
      expect(s.fileBytes).toBe(2 * MIB);
      expect(s.bytesProcessed).toBe(2 * MIB);
      expect(typeof s.durationMs).toBe('number');
      const peak = s.peak as Record<string, unknown>;
      expect(Object.keys(peak).sort()).toEqual([...MEMORY_FIELDS].sort());
      for (const field of MEMORY_FIELDS) {
        expect(typeof peak[field], field).toBe('number');
        expect(peak[field] as number, field).toBeGreaterThan(0);
      }
      // The whole record is what the server and the page exchange, so it must match the protocol.
      expect(summarySchema.safeParse(s).error).toBeUndefined();
    }
  });
});
