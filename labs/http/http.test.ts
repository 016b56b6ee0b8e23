/**
 * The HTTP lab with real processes: a fresh PostgreSQL per run (embedded, or DATABASE_URL when a
 * server is given), the server under test in the run's child, the load in its own child. Tables are
 * small here (the figures that matter are recorded with `npm run bench`, docs/results.md).
 */
import { spawn } from 'node:child_process';
import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, type TestContext } from 'vitest';
import { summaryOfLab } from '../../lib/protocol';
import type { HttpSummary } from './shared/schema';
import { admit } from '../../server/queue/admission';
import { RunQueue } from '../../server/queue/run-queue';
import { prepareAndStart } from '../../server/runner/lab-run';
import { liveChildCount } from '../../server/runner/runner';
import { benchStrategyFiles, runLeftovers, withTempDataDir } from '../../server/test-support';
import { checkBody } from './child/body-check';
import { ensureTable, type TableInfo } from './child/database';
import { pgRoot } from '../../server/db/ready';
import { httpLab } from './parent/index';
import { DEFAULT_HTTP_PARAMS, httpParamsSchema, type HttpParams } from './shared/params';
import { embeddedRefusal, ensureCluster, startPostgres, type RunningPostgres } from '../../server/db/postgres';
import { sweepShared } from '../../server/db/reach';
import { strategy as ndjsonCursor } from './child/strategies/ndjson-cursor';

const IDS = httpLab.strategies.map((s) => s.id);
const TEST_DB_URL = process.env.STREAM_LAB_TEST_DATABASE_URL;
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let seq = 0;

// As root, PostgreSQL runs as the postgres user; when it can't reach the binaries or a cluster
// folder even through the shared copy (reach.ts), the embedded tests skip, saying what blocks.
const EMBEDDED_REFUSAL = await embeddedRefusal();
if (EMBEDDED_REFUSAL) console.warn(`http lab: skipping the embedded PostgreSQL tests: ${EMBEDDED_REFUSAL}`);
const needsEmbedded = (ctx: TestContext) => ctx.skip(EMBEDDED_REFUSAL !== null, EMBEDDED_REFUSAL ?? undefined);
// Clusters relocated for this file's temp data folders (a private os.tmpdir()) go with them.
afterAll(() => void sweepShared());

// 7 rows per write and 300 per cursor read: neither divides 2000, so every strategy's last, partial batch is exercised.
const small = (over: Partial<HttpParams> = {}): HttpParams => ({
  ...DEFAULT_HTTP_PARAMS,
  rows: 2000,
  batchRows: 7,
  cursorRows: 300,
  concurrency: 3,
  requests: 6,
  budgetMb: null,
  ...over,
});

async function run(strategy: string, params: HttpParams): Promise<HttpSummary> {
  const handle = prepareAndStart({ lab: 'http', runId: `http-test-${++seq}`, strategy, params });
  return summaryOfLab(await handle.done, 'http');
}

const withReachableDataDir = () => withTempDataDir('http', { reachable: true });
const leftovers = runLeftovers;

describe('http lab', () => {
  const dir = withReachableDataDir();
  afterEach(async () => {
    expect(liveChildCount()).toBe(0);
    // The run's database and load ended with it: nothing is left running with our data folder. A
    // stopped run's PostgreSQL is killed with its process group, but on a loaded machine the kernel
    // may still be reaping it when the run's summary arrives (one unit run beside a build and a
    // benchmark saw the postmaster listed): a leak stays listed past the 30 s, a death does not.
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && leftovers(dir.path).length > 0) await new Promise((r) => setTimeout(r, 100));
    expect(leftovers(dir.path)).toEqual([]);
  }, 40_000);

  it("finds the issue's five strategies, buffered first", () => {
    expect(IDS).toEqual(['buffered-json', 'ndjson-all-rows', 'ndjson-cursor', 'json-array-cursor', 'write-ignoring-drain']);
  });

  it.for(IDS)('%s returns every row with the right checksum to every client (embedded PostgreSQL)', async (id, ctx) => {
    needsEmbedded(ctx);
    const s = await run(id, small());
    expect([s.outcome, s.reason]).toEqual(['completed', null]);
    expect(s).toMatchObject({ rows: 2000, requestsPlanned: 6, responsesOk: 6, badResponses: 0 });
    // ~75 bytes a row in either format.
    expect(s.bytesReceived).toBeGreaterThan(6 * 2000 * 60);
    expect(s.reqPerSec).toBeGreaterThan(0);
    expect(s.latencyP99Ms).toBeGreaterThanOrEqual(s.latencyP50Ms!);
    expect(s.ttfbP50Ms).toBeLessThanOrEqual(s.latencyP50Ms!);
    expect(s.loadCpuMs).toBeGreaterThan(0);
    expect(s.peak?.heapUsed).toBeGreaterThan(0);
    expect(s.library.name).toBe(httpLab.strategies.find((x) => x.id === id)!.library);
  });

  it('a slow reader makes write-ignoring-drain pile the response up in the socket; the cursor pipeline keeps it small', async (ctx) => {
    needsEmbedded(ctx);
    // 200k rows ≈ 14.6 MB a response; one fast client and one reading 256 KB a second. A push
    // writer queues whatever the kernel's loopback buffers don't take (~4–5 MB here,
    // docs/results.md §8). Each run is stopped rather than waiting an hour for the slow reader:
    // the push run once the server wrote both responses whole, the pull run after as long. The
    // reader must be far slower than the writer however busy the machine: CI once saw the writer
    // (CPU-starved) produce under 2 MB/s, which a 4 MB/s reader kept up with, so nothing piled.
    const params = small({ rows: 200_000, batchRows: 500, cursorRows: 2000, concurrency: 1, requests: 1, slowClients: 1, slowKbps: 256 });
    const stopped = async (strategy: string, until: (rowsSent: number, ms: number) => boolean) => {
      let stop: (() => void) | null = null;
      let first: number | null = null;
      let rowsSent = 0;
      const handle = prepareAndStart({
        lab: 'http',
        runId: `http-test-${++seq}`,
        strategy,
        params,
        onSample: (s) => {
          rowsSent = s.rowsSent ?? 0;
          first ??= rowsSent > 0 ? performance.now() : null;
          if (first !== null && until(rowsSent, performance.now() - first)) stop?.();
        },
      });
      stop = () => handle.stop();
      const summary = summaryOfLab(await handle.done, 'http');
      return { summary, rowsSent, writingMs: first === null ? 0 : performance.now() - first };
    };
    const push = await stopped('write-ignoring-drain', (rows, ms) => rows >= 2 * params.rows || ms > 60_000);
    const pull = await stopped('ndjson-cursor', (_rows, ms) => ms >= push.writingMs);
    // Said on failure: how far each server got and what its sockets held.
    const seen = ({ summary: s, rowsSent, writingMs }: typeof push) =>
      `${s.strategy}: ${s.outcome} after ${Math.round(writingMs)} ms of writing, ${rowsSent} rows sent, socket buffers at most ${s.peakWritableBytes} bytes`;
    const figures = `${seen(push)}; ${seen(pull)}`;
    expect([push.summary.outcome, pull.summary.outcome], figures).toEqual(['stopped', 'stopped']);
    // The push server wrote both responses whole while the slow reader had read a few MB of one.
    expect(push.rowsSent, figures).toBe(2 * params.rows);
    expect(push.summary.peakWritableBytes, figures).toBeGreaterThan(2 * 1024 * 1024);
    expect(pull.summary.peakWritableBytes, figures).toBeLessThan(push.summary.peakWritableBytes / 4);
  });

  it('hands the child absolute paths when STREAM_LAB_DATA_DIR is relative (the child refuses others)', async (ctx) => {
    needsEmbedded(ctx);
    process.env.STREAM_LAB_DATA_DIR = relative(process.cwd(), dir.path);
    try {
      const prepared = await httpLab.prepare(small(), () => undefined);
      const db = prepared.scenario.db as { kind: string; dataDir: string; passwordFile: string };
      expect(db.kind).toBe('embedded');
      // The data folder's own cluster, or (as root, a folder above it closed to PostgreSQL's user) its relocated one.
      expect(db.dataDir).toBe(join((await ensureCluster(join(dir.path, 'postgres'))).root, 'cluster'));
      expect(db.passwordFile.startsWith('/')).toBe(true);
    } finally {
      process.env.STREAM_LAB_DATA_DIR = dir.path;
    }
  });

  it('refuses bad knobs naming the field and its range, before anything starts', () => {
    const message = (p: Record<string, unknown>) => httpParamsSchema.safeParse({ ...DEFAULT_HTTP_PARAMS, ...p }).error?.issues[0].message;
    expect(message({ rows: 0 })).toBe('rows must be between 1000 and 1000000');
    expect(message({ concurrency: 10_000 })).toBe('concurrency must be between 1 and 200');
    expect(message({ slowKbps: 0 })).toBe('slowKbps must be between 1 and 100000');
  });

  it('a stopped run takes its database, its pool and its load with it', async (ctx) => {
    needsEmbedded(ctx);
    let stopAt: (() => void) | null = null;
    const handle = prepareAndStart({
      lab: 'http',
      runId: `http-test-${++seq}`,
      strategy: 'ndjson-cursor',
      params: small({ requests: 10_000, concurrency: 4 }),
      // Stop once the load has had some responses: PostgreSQL, the pool and the load are all busy.
      onSample: (s) => {
        if ((s.responses ?? 0) > 3) stopAt?.();
      },
    });
    stopAt = () => handle.stop();
    const s = summaryOfLab(await handle.done, 'http');
    expect(s.outcome).toBe('stopped');
    expect(s.responsesOk).toBeGreaterThan(3);
    expect(s.responsesOk).toBeLessThan(10_000);
    // PostgreSQL's backends leave their parent's process group; they exit when it dies. Allow them a moment.
    const deadline = Date.now() + 3000;
    while (Date.now() < deadline && leftovers(dir.path).length > 0) await new Promise((r) => setTimeout(r, 50));
  });

  it("when the process that started the run dies (SIGKILL), the run's PostgreSQL and load die too", async (ctx) => {
    needsEmbedded(ctx);
    const { NODE_OPTIONS: _drop, ...env } = process.env;
    const bench = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'server/cli/bench.ts',
        '--lab',
        'http',
        '--strategies',
        'ndjson-cursor',
        '--rows',
        '2000',
        '--requests',
        '10000',
        '--concurrency',
        '2',
      ],
      {
        cwd: ROOT,
        env: { ...env, STREAM_LAB_DATA_DIR: dir.path },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    bench.stderr!.setEncoding('utf8').on('data', (s: string) => (stderr = (stderr + s).slice(-2000)));
    const exited = new Promise((resolve) => bench.once('exit', resolve));
    try {
      // Wait until the run's PostgreSQL and load are up.
      // 20 s was not enough once (busy 38: the whole machine ~3× slower than in busy 35–36).
      const up = Date.now() + 60_000;
      while (Date.now() < up && !leftovers(dir.path).some((cmd) => cmd.includes('load.mjs'))) await new Promise((r) => setTimeout(r, 100));
      // Both are up (a passing `postgres --version` of the reachability check may show beside them).
      const running = leftovers(dir.path);
      expect(
        running.some((cmd) => /\/bin\/postgres\b/.test(cmd)),
        `${running.join('\n')}\n${stderr}`,
      ).toBe(true);
      expect(
        running.some((cmd) => cmd.includes('load.mjs')),
        `${running.join('\n')}\n${stderr}`,
      ).toBe(true);
    } finally {
      bench.kill('SIGKILL');
      await exited;
    }
    const gone = Date.now() + 5000;
    while (Date.now() < gone && leftovers(dir.path).length > 0) await new Promise((r) => setTimeout(r, 50));
    expect(leftovers(dir.path)).toEqual([]);
  });

  it('runs strategies of yours fenced beside the built-ins: a keyset-paginated reader completes, judged against buffered-json; one that writes a file is refused', async (ctx) => {
    needsEmbedded(ctx);
    const forbidden = join(dir.path, 'written-by-http.txt');
    // New code, not a copy of a built-in: pages of 500 rows by id, each written once the last drained.
    const result = await benchStrategyFiles<HttpSummary & { verdict: { text: string; expected: boolean | null } }>({
      lab: 'http',
      files: {
        'keyset-pages.ts': `import { once } from 'node:events';
        export const strategy = {
          id: 'keyset-pages',
          role: 'cursor',
          format: 'ndjson',
          async run(_req, res, { pool, sql, sent }) {
            const table = /FROM (\\w+)/.exec(sql)[1];
            res.writeHead(200, { 'content-type': 'application/x-ndjson' });
            for (let after = 0; ; ) {
              const { rows } = await pool.query(\`SELECT id, first_name, last_name, year_of_birth FROM \${table} WHERE id > $1 ORDER BY id LIMIT 500\`, [after]);
              if (rows.length === 0) break;
              sent(rows.length);
              if (!res.write(rows.map((r) => JSON.stringify(r)).join('\\n') + '\\n')) await once(res, 'drain');
              after = rows[rows.length - 1].id;
            }
            res.end();
          },
        };`,
        'writes-file.mjs': `import { writeFileSync } from 'node:fs';
        export const strategy = {
          id: 'writes-file', role: 'cursor', format: 'ndjson',
          async run(_req, res) { writeFileSync(${JSON.stringify(forbidden)}, 'x'); res.end(); },
        };`,
      },
      args: ['--strategies', 'buffered-json', '--rows', '2000', '--requests', '6', '--concurrency', '3'],
      dataDir: dir.path,
    });
    // The refused run is not what its strategy expects: exit 1, the JSON still printed.
    expect(result.code, result.stderr).toBe(1);
    const [base, yours, writes] = ['buffered-json', 'keyset-pages', 'writes-file'].map(result.run);
    expect([base.outcome, yours.outcome]).toEqual(['completed', 'completed']);
    expect(yours).toMatchObject({ responsesOk: 6, badResponses: 0, rows: 2000 });
    // Judged as the lab's cursors are: against buffered-json's run, with both runs' figures.
    expect(yours.verdict.text).toContain('buffered-json');
    expect(yours.verdict.text).toMatch(/\d+(\.\d+)? MB vs \d+(\.\d+)? MB/);
    expect(writes.outcome).toBe('refused');
    expect(writes.reason).toMatch(/no permission to write/);
    expect(existsSync(forbidden)).toBe(false);
  }, 180_000);

  it("admits an experiment by the lab's own params (naming the field), and refuses a parallel one", async () => {
    const ask = (rawParams: Record<string, unknown>) => () => admit({ labId: 'http', strategies: ['buffered-json'], rawParams, queued: 0, mine: 0 });
    expect(ask({ ...DEFAULT_HTTP_PARAMS, concurrency: 10_000 })).toThrow('concurrency must be between 1 and 200');
    expect(ask({ ...DEFAULT_HTTP_PARAMS, sizeMb: 4 })).toThrow(/sizeMb/);
    expect(ask(DEFAULT_HTTP_PARAMS)()).toEqual(DEFAULT_HTTP_PARAMS);
    const queue = new RunQueue();
    expect(() => queue.startExperiment('http', ['buffered-json', 'ndjson-cursor'], DEFAULT_HTTP_PARAMS, true)).toThrow(
      /^parallel: the HTTP lab runs one strategy at a time/,
    );
    expect(queue.snapshot().runs).toEqual([]);
    await queue.close();
  });

  it('names DATABASE_URL and its address when that database refuses, and starts nothing', async () => {
    const saved = process.env.DATABASE_URL;
    process.env.DATABASE_URL = 'postgresql://lab:secret@127.0.0.1:1/lab';
    try {
      const reports: string[] = [];
      await expect(httpLab.prepare(small(), (s) => reports.push(s.state))).rejects.toThrow(
        /^could not make the 2000-row table: DATABASE_URL 127\.0\.0\.1:1\/lab: could not connect \(ECONNREFUSED/,
      );
      expect(reports).toEqual(['failed']);
    } finally {
      if (saved === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = saved;
    }
  });
});

describe('http lab: a client that hangs up mid-response', () => {
  withReachableDataDir();
  let db: RunningPostgres;
  let pool: pg.Pool;
  let server: Server;
  let table: TableInfo;
  beforeEach(needsEmbedded);
  beforeAll(async () => {
    if (EMBEDDED_REFUSAL) return;
    const { info } = await ensureTable(20_000, () => undefined);
    table = info;
    db = await startPostgres(await ensureCluster(pgRoot()));
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
    // pool.end() resolves before its connections have closed; the server stopping right after
    // (afterAll) may still reach one, which the pool re-emits as 'error': never crash on it.
    pool.on('error', () => undefined);
    const sql = `SELECT id, first_name, last_name, year_of_birth FROM ${info.table} ORDER BY id`;
    server = createServer(
      (req, res) => void ndjsonCursor.run(req, res, { pool, sql, batchRows: 100, cursorRows: 100, sent: () => undefined }).catch(() => undefined),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    if (EMBEDDED_REFUSAL) return;
    server.closeAllConnections();
    server.close();
    await pool.end();
    await db.stop();
  });

  it('releases the cursor and its connection: the pool is all idle again and the database runs no query for it', async () => {
    const { port } = server.address() as AddressInfo;
    for (let i = 0; i < 3; i++) {
      await new Promise<void>((resolve) => {
        get({ host: '127.0.0.1', port, path: '/authors', agent: false }, (res) => {
          res.once('data', () => {
            res.destroy();
            resolve();
          });
        }).on('error', () => undefined); // the hang-up itself may surface here as ECONNRESET
      });
    }
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline && (pool.totalCount !== pool.idleCount || pool.waitingCount > 0)) await new Promise((r) => setTimeout(r, 50));
    expect({ busy: pool.totalCount - pool.idleCount, waiting: pool.waitingCount }).toEqual({ busy: 0, waiting: 0 });
    // Three aborted responses on a pool of two: had a cursor leaked, the third would still wait.
    const active = await pool.query(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND pid <> pg_backend_pid() AND query LIKE '%FROM author_%'",
    );
    expect(active.rows[0].n).toBe(0);
    // And the connections are fit for the next request: it gets every row.
    const body = await new Promise<string>((resolve, reject) => {
      get({ host: '127.0.0.1', port, path: '/authors', agent: false }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve(text));
      }).on('error', reject);
    });
    expect(checkBody(body, 'ndjson', table)).toBeNull();
  });
});

describe.skipIf(!TEST_DB_URL)('http lab against DATABASE_URL (STREAM_LAB_TEST_DATABASE_URL)', () => {
  withReachableDataDir();
  const saved = process.env.DATABASE_URL;
  beforeAll(() => {
    process.env.DATABASE_URL = TEST_DB_URL;
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = saved;
  });

  it.each(['buffered-json', 'ndjson-cursor', 'json-array-cursor'])('%s returns every row with the right checksum', async (id) => {
    const s = await run(id, small());
    expect([s.outcome, s.reason, s.responsesOk, s.badResponses]).toEqual(['completed', null, 6, 0]);
  });
});
if (!TEST_DB_URL)
  console.warn('http lab: skipping the DATABASE_URL tests: STREAM_LAB_TEST_DATABASE_URL is not set (.ci/run sets it when it can start PostgreSQL)');
