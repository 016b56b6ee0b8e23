/**
 * The bench's CI contract (issue 28, items 3–4), through the real CLI on real runs: the exit code
 * says whether every run ended as expected and every check held; checks name the strategy, the
 * figure, the limit and what was measured; bad checks are usage errors naming the lab's figures.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScript } from '../test-support';
import { makeCpuSummary } from '../../lib/test-fixtures';
import { judgeCheck, labFigures, parseCheck, readChecksFile } from './checks';

const rootDir = fileURLToPath(new URL('../..', import.meta.url));

describe('checks, parsed', () => {
  const run = ['rxjs-from', 'pipeline-generator'];
  it('reads a limit in the figure’s unit, a share of another strategy, or an outcome', () => {
    expect(parseCheck('pipeline-generator: arrayBuffers.peak < 16MB', 'streams', run).limit).toEqual({ kind: 'number', value: 16 * 1024 * 1024 });
    expect(parseCheck('rxjs-from: durationMs <= 2.5s', 'streams', run).limit).toEqual({ kind: 'number', value: 2500 });
    expect(parseCheck('pipeline-generator: heapUsed.peak < 0.2 * rxjs-from', 'streams', run).limit).toEqual({
      kind: 'relative',
      factor: 0.2,
      strategy: 'rxjs-from',
    });
    expect(parseCheck('rxjs-from: outcome == out-of-memory', 'streams', run).limit).toEqual({ kind: 'outcome', value: 'out-of-memory' });
  });

  it('refuses what it cannot hold, naming why', () => {
    expect(() => parseCheck('pipeline-generator: peakInFlight < 2MB', 'streams', run)).toThrow(/unit "MB" does not fit this figure; allowed: none/);
    expect(() => parseCheck('for-await: durationMs < 1s', 'streams', run)).toThrow(/for-await is not one of the strategies this run has/);
    expect(() => parseCheck('rxjs-from: outcome < completed', 'streams', run)).toThrow(/compared with == or != only/);
    expect(() => parseCheck('rxjs-from: outcome == exploded', 'streams', run)).toThrow(/outcome must be one of completed, /);
    expect(() => parseCheck('rxjs-from durationMs < 1', 'streams', run)).toThrow(/is not "<strategy>: <figure> <op> <value><unit>"/);
    // Every lab names its own figures beside the common ones.
    expect([...labFigures('streams').keys()]).toEqual(expect.arrayContaining(['arrayBuffers.peak', 'peakBufferedBytes', 'peakInFlight', 'outcome']));
    expect([...labFigures('http').keys()]).not.toContain('peakInFlight');
    // Rates are null where not measured, and still figures (mbPerSec dropped out when it became nullable).
    expect([...labFigures('streams').keys()]).toContain('mbPerSec');
    expect([...labFigures('http').keys()]).toContain('reqPerSec');
    expect([...labFigures('cpu').keys()]).toEqual(expect.arrayContaining(['speedup', 'speedupMeasured']));
    expect([...labFigures('deadline').keys()]).toEqual(expect.arrayContaining(['baselineDemandCores', 'spikeDemandCores']));
    expect([...labFigures('cpu').keys()]).toEqual(expect.arrayContaining(['pingMaxMs', 'spawnP50Ms', 'makespanMs', 'latencyP50Ms', 'cores']));
    expect(() => readChecksFile('{"checks": [1]}', 'c.json')).toThrow(/c\.json: must be a JSON array of checks/);
    expect(readChecksFile('["a: b < 1"]', 'c.json')).toEqual(['a: b < 1']);
  });
});

describe('bench exit codes and checks', () => {
  let dataDir: string;
  const bench = (args: string[]) => runScript(rootDir, ['server/cli/bench.ts', ...args], { STREAM_LAB_DATA_DIR: dataDir });

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'stream-lab-checks-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('exits 1 naming out-of-memory when rxjs-from passes its budget, and 0 when the job expects it', async () => {
    // A 64 MB file read with no backpressure: the reader holds it all, past a 64 MB budget.
    const oom = await bench(['--strategies', 'rxjs-from', '--size-mb', '64', '--budget-mb', '64']);
    expect(oom.code, oom.stderr).toBe(1);
    expect(oom.stderr).toMatch(/^bench: rxjs-from ended out-of-memory, expected completed \(RSS \d+ MB passed the 64 MB memory budget\)$/m);
    const expected = await bench(['--strategies', 'rxjs-from', '--size-mb', '64', '--budget-mb', '64', '--expect', 'rxjs-from=out-of-memory']);
    expect(expected.code, expected.stderr).toBe(0);
  }, 120_000);

  it('exits 0 when every check holds and 1 naming the strategy, figure, limit and measured value when one fails', async () => {
    const checks = join(dataDir, 'stream-lab.checks.json');
    // Relative and absolute: pipeline-generator holds a few chunks, rxjs-from the whole 8 MB file.
    writeFileSync(checks, JSON.stringify(['pipeline-generator: arrayBuffers.peak < 0.25 * rxjs-from', 'rxjs-from: arrayBuffers.peak > 4MB']));
    const args = ['--strategies', 'rxjs-from,pipeline-generator', '--size-mb', '8', '--delay-ms', '2', '--checks', checks];
    const held = await bench([...args, '--json']);
    expect(held.code, held.stderr).toBe(0);
    const out = JSON.parse(held.stdout) as Array<{ strategy: string; checks: Array<{ ok: boolean; figure: string }> }>;
    expect(out.map((s) => [s.strategy, s.checks.map((c) => [c.figure, c.ok])])).toEqual([
      ['rxjs-from', [['arrayBuffers.peak', true]]],
      ['pipeline-generator', [['arrayBuffers.peak', true]]],
    ]);
    // rxjs-from buffers the file: it can't stay under a megabyte.
    const failed = await bench([...args, '--assert', 'rxjs-from: arrayBuffers.peak < 1MB']);
    expect(failed.code, failed.stderr).toBe(1);
    expect(failed.stderr).toMatch(/^bench: check rxjs-from: arrayBuffers\.peak < 1\.0 MB \(1048576 bytes\): FAILED, measured \d+\.\d MB \(\d+ bytes\)$/m);
  }, 120_000);

  it('exits 2 for an unknown figure, listing the lab’s figures, before anything runs', async () => {
    const result = await bench(['--strategies', 'pipeline-generator', '--assert', 'pipeline-generator: arrayBuffer.peak < 16MB']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^bench: --assert: "pipeline-generator: arrayBuffer\.peak < 16MB": unknown figure "arrayBuffer\.peak"; the streams lab's figures: outcome, durationMs, rss\.peak, .*arrayBuffers\.peak.*peakInFlight/,
    );
    expect(result.stderr).not.toContain('preparing');
  }, 60_000);
});

describe('a check on a figure the run did not measure', () => {
  it('fails, saying it was not measured, neither passing on a 0 nor crashing', () => {
    const s = makeCpuSummary({ strategy: 'worker-pool', pingMaxMs: null, spawnP50Ms: null });
    for (const text of ['worker-pool: pingMaxMs < 100ms', 'worker-pool: spawnP50Ms >= 0', 'worker-pool: pingMaxMs < 2 * worker-pool']) {
      const [r] = judgeCheck(parseCheck(text, 'cpu', ['worker-pool']), 'cpu', [s]);
      expect(r.ok, text).toBe(false);
      expect(r.measured, text).toBeNull();
      expect(r.message, text).toMatch(/FAILED, measured not measured/);
    }
  });
});
