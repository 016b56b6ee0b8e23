import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMORY_FIELDS, summarySchema } from '../../lib/protocol';
import { MIB } from '../../lib/params';

const rootDir = fileURLToPath(new URL('../..', import.meta.url));

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the bench CLI the way `npm run bench --` does, with its own data dir. */
function runBench(args: string[], dataDir: string): Promise<CliResult> {
  // NODE_OPTIONS is dropped so nothing the test runner injects reaches the CLI.
  const { NODE_OPTIONS: _drop, ...env } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli/bench.ts', ...args], {
    cwd: rootDir,
    env: { ...env, STREAM_LAB_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
  child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

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
