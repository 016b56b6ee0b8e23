/** Shared by server tests: temporary data directories, real server processes, /proc readings. */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { ensureDataFile, type DataFile } from './data/data-files';
import { processAlive } from './runner/proc-status';
import { liveChildCount } from './runner/runner';

// One definition (runner/proc-status.ts); the tests import it from here with the other process helpers.
export { processAlive };

/** Points STREAM_LAB_DATA_DIR at a fresh temp dir for the block, restores and removes it after. */
export function withTempDataDir(prefix: string, opts: { reachable?: boolean } = {}): { readonly path: string } {
  const saved = process.env.STREAM_LAB_DATA_DIR;
  const dir = { path: '' };
  beforeAll(() => {
    dir.path = mkdtempSync(join(tmpdir(), `stream-lab-${prefix}-`));
    // mkdtemp makes the folder private to us; PostgreSQL's own user (run as root: server/db/) must pass through it.
    if (opts.reachable) chmodSync(dir.path, 0o755);
    process.env.STREAM_LAB_DATA_DIR = dir.path;
  });
  afterAll(() => {
    rmSync(dir.path, { recursive: true, force: true });
    if (saved === undefined) delete process.env.STREAM_LAB_DATA_DIR;
    else process.env.STREAM_LAB_DATA_DIR = saved;
  });
  return dir;
}

/** Resident set size of a process in bytes, from /proc (null once it is gone). */
export function processRss(pid: number): number | null {
  try {
    const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/**
 * What a run left running: live processes started with `dataDir` as their STREAM_LAB_DATA_DIR (a
 * run's database, backends, load, workers), by command line. esbuild's service is the test
 * process's own (it compiled the child build) and long-lived, not a run's.
 */
export function runLeftovers(dataDir: string): string[] {
  return processesWithEnv('STREAM_LAB_DATA_DIR', dataDir)
    .map((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
      } catch {
        return '';
      }
    })
    .filter((cmd) => cmd !== '' && !/\besbuild\b/.test(cmd));
}

/**
 * Live processes (zombies aside) whose environment has `name=value`: every process a test server
 * started carries its STREAM_LAB_DATA_DIR, so this finds them even after they were reparented.
 */
export function processesWithEnv(name: string, value: string): number[] {
  const wanted = `${name}=${value}`;
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(wanted) && processAlive(Number(entry))) found.push(Number(entry));
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

/** Nice value of every thread of a process (field 19 of /proc/<pid>/task/<tid>/stat; Linux only). */
export function threadNices(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).map((tid) => {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

/** Direct children of a process (from /proc/<pid>/task/<pid>/children). */
export function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

const rootDir = fileURLToPath(new URL('..', import.meta.url));

/**
 * A real server process (server/store/history-test-server.ts: the app's wiring without Next) on
 * its own data dir; resolves with its URL once it listens. Killed after the tests if still alive.
 */
export function startServerProcess(dataDir: string, env: Record<string, string> = {}): Promise<{ proc: ChildProcess; url: string }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'server/store/history-test-server.ts'], {
    cwd: rootDir,
    env: { ...process.env, STREAM_LAB_DATA_DIR: dataDir, STREAM_LAB_PREPARE_MB: '0', ...env },
    // The IPC channel is how the server notices this process dying (history-test-server.ts).
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  serverProcesses.add(proc);
  proc.once('exit', () => serverProcesses.delete(proc));
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /ready on (http:\/\/\S+)/.exec(out);
      if (m) resolve({ proc, url: m[1] });
    });
    proc.once('exit', (code) => reject(new Error(`server exited with ${code} before it was ready: ${out}`)));
  });
}

const serverProcesses = new Set<ChildProcess>();
process.once('exit', () => {
  for (const p of serverProcesses) p.kill('SIGKILL');
});

/** Sends a signal and resolves when the process has exited. */
export function killAndWait(proc: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  return new Promise((resolve) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
    proc.once('exit', () => resolve());
    proc.kill(signal);
  });
}

/**
 * For a describe block of run tests: a temp data dir (`reachable`: as withTempDataDir), the data
 * files of these sizes (MiB) made before it, and a check after each test that no run child was left behind.
 */
export function withDataFiles(
  prefix: string,
  sizesMb: number[],
  opts: { reachable?: boolean } = {},
): { readonly files: DataFile[]; readonly dir: { readonly path: string } } {
  const dir = withTempDataDir(prefix, opts);
  const made = { files: [] as DataFile[], dir };
  beforeAll(async () => {
    made.files = await Promise.all(sizesMb.map((sizeMb) => ensureDataFile({ sizeMb })));
  });
  afterEach(() => {
    expect(liveChildCount()).toBe(0);
  });
  return made;
}

export interface ScriptResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a TypeScript script of the project the way `npm run` does (`node --import tsx`), in `cwd`,
 * and collects its output. NODE_OPTIONS is dropped so nothing the test runner injects reaches it.
 */
export function runScript(cwd: string, args: string[], env: Record<string, string> = {}): Promise<ScriptResult> {
  const { NODE_OPTIONS: _drop, ...base } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd, env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (s: string) => (stdout += s));
  child.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Strategy files of yours, as a CI job runs them: `files` (name → source) written into a fresh
 * folder, then `npm run bench -- --lab
 * <lab> --strategy-file <each> …args --json` with STREAM_LAB_DATA_DIR = `dataDir`. The folder is
 * removed after; the result carries the runs' summaries and each run by its strategy id.
 */
export async function benchStrategyFiles<S extends { strategy: string }>(opts: {
  lab: string;
  files: Record<string, string>;
  args: readonly string[];
  dataDir: string;
  env?: Record<string, string>;
}): Promise<ScriptResult & { runs: S[]; run(id: string): S }> {
  const dir = mkdtempSync(join(tmpdir(), `stream-lab-${opts.lab}-yours-`));
  try {
    for (const [name, text] of Object.entries(opts.files)) writeFileSync(join(dir, name), text);
    const result = await runScript(
      PROJECT_ROOT,
      ['server/cli/bench.ts', '--lab', opts.lab, ...Object.keys(opts.files).flatMap((f) => ['--strategy-file', join(dir, f)]), ...opts.args, '--json'],
      { STREAM_LAB_DATA_DIR: opts.dataDir, ...opts.env },
    );
    const runs = result.stdout.trim() ? (JSON.parse(result.stdout) as S[]) : [];
    return { ...result, runs, run: (id) => runs.find((r) => r.strategy === id)! };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
