/**
 * The fence against hostile code (issue 39), with real processes: strategy files of yours that
 * signal their parent, a stand-in server, another run's child and their own run, and that connect
 * to a server's port, a Redis and a PostgreSQL on loopback — run through the bench CLI on the
 * server's Node and on Node 24. Each attempt outside its run ends `refused`, naming it; nothing
 * outside receives anything. kill(-1) is tried only inside a run's own namespace, and the strategy
 * checks it is in one first (outside, as root, it would end every process on the machine).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childPids, processAlive, runScript } from '../test-support';
import { startRedis } from '../scale/scale-test-support';
import { ensureCluster, startPostgres, type RunningPostgres } from '../db/postgres';
import { listRuntimes } from '../runtimes/store';
import type { StreamsSummary } from '../../labs/streams/shared/schema';
import { namespaceSupport } from './namespaces';

const rootDir = fileURLToPath(new URL('../..', import.meta.url));
const support = namespaceSupport();
if (!support.ok) console.warn(`namespaces.test: SKIPPING the fence tests: this machine makes no namespaces (${support.why})`);
const node24 = listRuntimes().find((r) => r.version.startsWith('24.')) ?? null;
if (!node24) console.warn(`namespaces.test: SKIPPING the Node 24 half: no Node 24 in ${process.env.STREAM_LAB_RUNTIMES_DIR ?? '<data dir>/runtimes'}`);
const runtimes: { name: string; node: string | null }[] = [
  { name: `the server's Node ${process.versions.node}`, node: null },
  ...(node24 ? [{ name: `Node ${node24.version}`, node: node24.version }] : []),
];

/** A pull reader that does `line` first (at the start of its run), then reads on. */
const reader = (id: string, line: string) => `
  import net from 'node:net';
  export const strategy = {
    id: '${id}', label: '${id}', mode: 'pull',
    async run({ stream, consume }) {
      ${line};
      for await (const chunk of stream) await consume(chunk);
    },
  };`;
const connects = (port: number) => `await new Promise((resolve, reject) => net.connect(${port}, '127.0.0.1').once('connect', resolve).once('error', reject))`;
const outside = (signal: string) => `sent ${signal} to a process outside its run`;

/** A stand-in for the lab's server: a real process with a port, which says every SIGTERM it gets and keeps serving. */
function startStandIn(): Promise<{ proc: ChildProcess; port: number; heard: () => string }> {
  const script = `
    const s = require('node:net').createServer((c) => c.end('ok')).listen(0, '127.0.0.1', () => console.log('port ' + s.address().port));
    process.on('SIGTERM', () => console.log('got SIGTERM'));`;
  const proc = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  return new Promise((resolve) => {
    proc.stdout!.setEncoding('utf8').on('data', (s: string) => {
      out += s;
      const port = /port (\d+)/.exec(out);
      if (port) resolve({ proc, port: Number(port[1]), heard: () => out });
    });
  });
}

/** Does the stand-in still answer on its loopback port? */
function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    connect(port, '127.0.0.1')
      .once('data', () => resolve(true))
      .once('error', () => resolve(false));
  });
}

/** The pid of a bench's run child (its Node running the child build), once it is up. */
async function runChildOf(bench: ChildProcess): Promise<number> {
  for (let i = 0; i < 600; i++) {
    const child = childPids(bench.pid!).find((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('child/bootstrap');
      } catch {
        return false;
      }
    });
    if (child) return child;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the other run never started');
}

describe.skipIf(!support.ok)('the fence against hostile code: namespaces of its own', () => {
  let dataDir: string;
  let standIn: Awaited<ReturnType<typeof startStandIn>>;
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let pg: RunningPostgres;
  let pgRoot: string;
  let tcp: Server;
  const summaries = (stdout: string) => JSON.parse(stdout) as StreamsSummary[];
  const env = () => ({ STREAM_LAB_DATA_DIR: dataDir, STREAM_LAB_STRATEGIES_DIR: join(dataDir, 'none') });
  const bench = (files: string[], args: string[]) =>
    runScript(rootDir, ['server/cli/bench.ts', ...files.flatMap((f) => ['--strategy-file', f]), '--size-mb', '1', '--delay-ms', '0', '--json', ...args], env());
  const write = (id: string, line: string) => {
    const file = join(dataDir, `${id}.mjs`);
    writeFileSync(file, reader(id, line));
    return file;
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'stream-lab-fence-'));
    standIn = await startStandIn();
    redis = await startRedis();
    // Not the runs' own cluster (<data dir>/postgres): a PostgreSQL of someone else's.
    const cluster = await ensureCluster(join(dataDir, 'someone-elses-postgres'));
    pgRoot = cluster.root;
    pg = await startPostgres(cluster);
    tcp = createServer((c) => c.end('ok')).listen(0, '127.0.0.1');
    await new Promise((r) => tcp.once('listening', r));
  }, 120_000);

  afterAll(async () => {
    standIn?.proc.kill('SIGKILL');
    redis?.proc.kill('SIGKILL');
    await pg?.stop();
    tcp?.close();
    rmSync(pgRoot, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  describe.each(runtimes)('on $name', ({ node }) => {
    const on = node ? ['--node', node] : [];

    it("ends code of yours that signals another run's child as refused, and that run completes", async () => {
      // The other run: a built-in, long enough to be running through both attacks.
      const other = spawn(
        process.execPath,
        ['--import', 'tsx', 'server/cli/bench.ts', '--strategies', 'pipeline-generator', '--size-mb', '16', '--delay-ms', '60', '--json', ...on],
        { cwd: rootDir, env: { ...process.env, ...env() }, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let otherOut = '';
      other.stdout!.setEncoding('utf8').on('data', (s: string) => (otherOut += s));
      const otherDone = new Promise<number | null>((r) => other.once('close', r));
      const otherPid = await runChildOf(other);
      const files = ['SIGTERM', 'SIGKILL'].map((sig) => write(`signals-other-${sig}`, `process.kill(${otherPid}, '${sig}')`));
      const result = await bench(files, on);
      // Still running after both attacks: they had a target, and it did not go.
      expect(processAlive(otherPid)).toBe(true);
      expect(summaries(result.stdout).map((s) => [s.outcome, s.reason])).toEqual([
        ['refused', outside('SIGTERM')],
        ['refused', outside('SIGKILL')],
      ]);
      expect(await otherDone).toBe(0);
      expect(summaries(otherOut).map((s) => [s.strategy, s.outcome])).toEqual([['pipeline-generator', 'completed']]);
    }, 300_000);

    it("ends code of yours that signals its parent or the server's pid as refused; kill(0) ends only its own run, kill(-1) reaches nothing outside", async () => {
      const files = [
        write('signals-parent-SIGTERM', "process.kill(process.ppid, 'SIGTERM')"),
        write('signals-parent-SIGKILL', "process.kill(process.ppid, 'SIGKILL')"),
        write('signals-server-SIGTERM', `process.kill(${standIn.proc.pid}, 'SIGTERM')`),
        write('signals-server-SIGKILL', `process.kill(${standIn.proc.pid}, 'SIGKILL')`),
        write('signals-own-group', "process.kill(0, 'SIGTERM')"),
        // Only where this can hit nothing but its own run: PID 1 of its namespace is its parent, and pids there are few.
        write(
          'signals-everything',
          "if (process.ppid !== 1 || process.pid > 10) throw new Error('not in a namespace of its own: kill(-1) not tried'); process.kill(-1, 'SIGKILL')",
        ),
      ];
      const result = await bench(files, on);
      // The bench (these runs' parent) lived to report every run.
      expect(summaries(result.stdout).map((s) => [s.strategy, s.outcome, s.reason])).toEqual([
        ['signals-parent-SIGTERM', 'refused', outside('SIGTERM')],
        ['signals-parent-SIGKILL', 'refused', outside('SIGKILL')],
        ['signals-server-SIGTERM', 'refused', outside('SIGTERM')],
        ['signals-server-SIGKILL', 'refused', outside('SIGKILL')],
        ['signals-own-group', 'crashed', 'killed by SIGTERM'],
        // Every process it may signal, named; in its namespace that was its own run's alone (the stand-in lives, below).
        ['signals-everything', 'refused', 'sent SIGKILL to every process it may signal (kill(-1)), outside its run too'],
      ]);
      // The stand-in server heard nothing and still serves.
      expect(processAlive(standIn.proc.pid!)).toBe(true);
      expect(standIn.heard()).not.toContain('got SIGTERM');
      expect(await answers(standIn.port)).toBe(true);
    }, 300_000);

    it("ends code of yours that connects to a server's port, a Redis or a PostgreSQL on loopback as refused, naming where", async () => {
      const pgPort = Number(new URL(pg.url).port);
      const files = [
        write('connects-server', connects(standIn.port)),
        write('connects-tcp', connects((tcp.address() as { port: number }).port)),
        write('connects-redis', connects(redis.port)),
        write('connects-postgres', connects(pgPort)),
      ];
      const result = await bench(files, on);
      const refused = (port: number) => `connected to 127.0.0.1:${port}, outside its run (ECONNREFUSED)`;
      expect(summaries(result.stdout).map((s) => [s.outcome, s.reason])).toEqual([
        ['refused', refused(standIn.port)],
        ['refused', refused((tcp.address() as { port: number }).port)],
        ['refused', refused(redis.port)],
        ['refused', refused(pgPort)],
      ]);
      // All of them were there to be reached from outside the fence.
      expect(await answers(standIn.port)).toBe(true);
    }, 300_000);

    it('runs code of yours with the http and the postgres consumer, in its namespaces, read from outside as its Node', async () => {
      const file = write('plain-pull', 'void 0');
      const http = await bench([file], [...on, '--consumer', 'http']);
      expect(
        summaries(http.stdout).map((s) => [s.outcome, s.reason, s.apiErrors]),
        http.stderr,
      ).toEqual([['completed', null, 0]]);
      const postgres = await bench([file], [...on, '--consumer', 'postgres']);
      expect(
        summaries(postgres.stdout).map((s) => [s.outcome, s.reason]),
        postgres.stderr,
      ).toEqual([['completed', null]]);
      // Read from outside, the RSS is its Node's, found under the wrapper: near what the run saw
      // itself, not the few MB of `unshare` or PID 1's shell.
      for (const s of [...summaries(http.stdout), ...summaries(postgres.stdout)]) {
        expect(s.procPeakRss).toBeGreaterThan(20 * 1024 * 1024);
        expect(s.procPeakRss).toBeGreaterThan(0.8 * s.peak!.rss);
      }
    }, 300_000);
  });

  it('refuses at Start an HTTP-lab run of code of yours while DATABASE_URL (outside its network namespace) is set, saying what would do', async () => {
    const file = join(dataDir, 'http-yours.mjs');
    writeFileSync(
      file,
      `export const strategy = { id: 'http-yours', label: 'http of yours', role: 'buffered', mode: 'push', format: 'json-array',
        async run(_req, res, { pool, sql, sent }) { const { rows } = await pool.query(sql); res.end(JSON.stringify(rows)); sent(rows.length); } };`,
    );
    const result = await runScript(rootDir, ['server/cli/bench.ts', '--lab', 'http', '--strategy-file', file, '--rows', '1000', '--json'], {
      ...env(),
      DATABASE_URL: pg.url,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'bench: --strategies: http-yours is a strategy of yours and runs in a network namespace of its own, where the server at DATABASE_URL is out of reach: unset DATABASE_URL',
    );
  }, 120_000);

  it('runs code of yours in its namespaces, under PID 1; with STREAM_LAB_FENCE_NAMESPACES=0 (a kernel that refuses them) without, as before', async () => {
    const file = write('says-ppid', "throw new Error('ppid ' + process.ppid)");
    const inside = await bench([file], []);
    expect(summaries(inside.stdout).map((s) => [s.outcome, s.reason])).toEqual([['crashed', 'ppid 1']]);
    const without = await runScript(rootDir, ['server/cli/bench.ts', '--strategy-file', file, '--size-mb', '1', '--json'], {
      ...env(),
      STREAM_LAB_FENCE_NAMESPACES: '0',
    });
    const [s] = summaries(without.stdout);
    // Its parent is the bench itself, a pid of this machine's.
    expect(s.reason).toMatch(/^ppid \d+$/);
    expect(s.reason).not.toBe('ppid 1');
  }, 120_000);

  it('takes a busy run of code of yours along when its parent is killed with SIGKILL (it never sees its IPC close)', async () => {
    const file = write('busy-forever', 'for (;;);');
    const { NODE_OPTIONS: _drop, ...base } = process.env;
    const parent = spawn(
      process.execPath,
      ['--import', 'tsx', 'server/cli/bench.ts', '--strategy-file', file, '--size-mb', '1', '--timeout-s', '60', '--json'],
      { cwd: rootDir, env: { ...base, ...env() }, stdio: ['ignore', 'ignore', 'ignore'] },
    );
    const descendants = (pid: number): number[] => childPids(pid).flatMap((c) => [c, ...descendants(c)]);
    let run: number[] = [];
    try {
      let node: number | undefined;
      for (let i = 0; i < 600 && node === undefined; i++) {
        await new Promise((r) => setTimeout(r, 50));
        run = descendants(parent.pid!);
        node = run.find((pid) => {
          try {
            return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('child/bootstrap') && readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'node';
          } catch {
            return false;
          }
        });
      }
      expect(node, 'the run never started').toBeDefined();
      // Into its busy loop: its event loop will never see the channel close.
      await new Promise((r) => setTimeout(r, 1500));
      parent.kill('SIGKILL');
      const deadline = Date.now() + 5000;
      while (run.some(processAlive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(run.filter(processAlive)).toEqual([]);
    } finally {
      parent.kill('SIGKILL');
      for (const pid of run) if (processAlive(pid)) process.kill(pid, 'SIGKILL');
    }
  }, 120_000);

  it.skipIf(!node24)(
    'profiles code of yours on Node 24 through its namespace: the inspector comes over IPC',
    async () => {
      const result = await bench([write('profiled-pull', 'void 0')], ['--node', node24!.version, '--profile']);
      const [s] = summaries(result.stdout);
      expect([s.outcome, s.reason], result.stderr).toEqual(['completed', null]);
      expect(s.profile?.error ?? null).toBeNull();
      expect(s.profile?.samples).toBeGreaterThan(0);
    },
    300_000,
  );
});
