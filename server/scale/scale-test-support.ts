/**
 * For the Redis back end's tests and benchmark: a real Redis (STREAM_LAB_TEST_REDIS_URL, started
 * by .ci/run; the tests skip, saying why, without one), web servers and workers as real
 * processes on their own data dirs, each ended with the test (and with this process if it dies).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';

const rootDir = fileURLToPath(new URL('../..', import.meta.url));

/** The Redis the tests may empty, or why they skip. */
export function testRedis(): { url: string | null; why: string } {
  const url = process.env.STREAM_LAB_TEST_REDIS_URL || null;
  return { url, why: url ? '' : 'STREAM_LAB_TEST_REDIS_URL is not set (.ci/run starts a redis-server and sets it): the Redis back end tests skip' };
}

/** Empties the test Redis (it must be one of its own: .ci/run's, never a shared one). */
export async function flushRedis(url: string): Promise<void> {
  const redis = new Redis(url);
  await redis.flushdb();
  redis.disconnect();
}

const started = new Set<ChildProcess>();
const dirs = new Set<string>();
process.once('exit', () => {
  for (const p of started) p.kill('SIGKILL');
  removeTempDirs();
});

/** Removes the temp folders made so far (tests call it after all; a script's exit does too). */
export function removeTempDirs(): void {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs.clear();
}

/** Spawns a TypeScript entry with an IPC channel (it leaves when we do) and waits for `ready` in its output. */
export function startProcess(
  entry: string,
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
  prefix: string[] = [],
): Promise<{ proc: ChildProcess; match: RegExpExecArray; output: () => string }> {
  const { NODE_OPTIONS: _drop, ...base } = process.env;
  // A prefix (`taskset -c 1`) execs node in the same process, so the IPC channel still reaches it.
  const command = [...prefix, process.execPath, '--import', 'tsx', entry, ...args];
  const proc = spawn(command[0], command.slice(1), { cwd: rootDir, env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  started.add(proc);
  proc.once('exit', () => started.delete(proc));
  let out = '';
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) => {
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = ready.exec(out);
      if (m) resolve({ proc, match: m, output: () => out });
    });
    proc.once('exit', (code) => reject(new Error(`${entry} exited with ${code} before it was ready: ${out}`)));
  });
}

/** A temp folder, removed when this process exits. */
export function tempDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `stream-lab-${name}-`));
  dirs.add(dir);
  return dir;
}

/** A web server on the Redis back end (server/scale/scale-test-server.ts) with its own data dir. */
export async function startWebServer(
  redisUrl: string,
  dataDir = tempDir('web'),
  port = 0,
  extraEnv: Record<string, string> = {},
): Promise<{ proc: ChildProcess; url: string; dataDir: string; output: () => string }> {
  const env = { STREAM_LAB_REDIS_URL: redisUrl, STREAM_LAB_DATA_DIR: dataDir, STREAM_LAB_PREPARE_MB: '0', PORT: String(port), ...extraEnv };
  const { proc, match, output } = await startProcess('server/scale/scale-test-server.ts', [], env, /ready on (http:\/\/\S+)/);
  return { proc, url: match[1], dataDir, output };
}

/** A worker (`npm run worker`) with its own data dir; `id` is how its runs name it. */
export async function startWorker(
  redisUrl: string,
  opts: { concurrency?: number; lockMs?: number; dataDir?: string; env?: Record<string, string> } = {},
): Promise<{ proc: ChildProcess; id: string; dataDir: string; output: () => string }> {
  const dataDir = opts.dataDir ?? tempDir('worker');
  const env = { STREAM_LAB_REDIS_URL: redisUrl, STREAM_LAB_DATA_DIR: dataDir, STREAM_LAB_WORKER_LOCK_MS: String(opts.lockMs ?? 3000), ...opts.env };
  const { proc, match, output } = await startProcess('server/scale/worker.ts', ['--concurrency', String(opts.concurrency ?? 1)], env, /worker (\S+) ready/);
  return { proc, id: match[1], dataDir, output };
}

async function freePort(): Promise<number> {
  const s = createServer().listen(0, '127.0.0.1');
  await once(s, 'listening');
  const { port } = s.address() as AddressInfo;
  s.close();
  return port;
}

/** A redis-server of our own on a loopback port (a free one, or the one given), no persistence files; rejects when there is none. */
export async function startRedis(port?: number): Promise<{ proc: ChildProcess; url: string; port: number }> {
  const p = port ?? (await freePort());
  const proc = spawn('redis-server', ['--port', String(p), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', tempDir('redis')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  started.add(proc);
  proc.once('exit', () => started.delete(proc));
  let out = '';
  await new Promise<void>((resolve, reject) => {
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (/Ready to accept connections/.test(out)) resolve();
    });
    proc.once('error', reject);
    proc.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${out}`)));
  });
  return { proc, url: `redis://127.0.0.1:${p}`, port: p };
}
