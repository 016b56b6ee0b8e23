/**
 * The streams lab's postgres consumer with real processes: the run's own PostgreSQL over the
 * embedded cluster (or DATABASE_URL, when STREAM_LAB_TEST_DATABASE_URL gives one), a real table,
 * real INSERTs, on a 2 MiB file. The figures that matter come from `npm run bench`.
 */
import { spawn } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it, type TestContext } from 'vitest';
import { embeddedRefusal, ensureCluster, startPostgres } from '../../server/db/postgres';
import { sweepShared } from '../../server/db/reach';
import { pgRoot } from '../../server/db/ready';
import { processAlive, processesWithEnv, runLeftovers, withDataFiles } from '../../server/test-support';
import { SINK_PREFIX } from './child/consumers/postgres';
import { prepareConsumer } from './parent/consumers';
import { startStreamsRun } from './parent/run';
import { DEFAULT_STREAMS_PARAMS, type StreamsParams } from './shared/params';
import type { StreamsSummary } from './shared/schema';

const TEST_DB_URL = process.env.STREAM_LAB_TEST_DATABASE_URL;
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const EMBEDDED_REFUSAL = await embeddedRefusal();
if (EMBEDDED_REFUSAL) console.warn(`streams lab: skipping the postgres consumer's embedded tests: ${EMBEDDED_REFUSAL}`);
const needsEmbedded = (ctx: TestContext) => ctx.skip(EMBEDDED_REFUSAL !== null, EMBEDDED_REFUSAL ?? undefined);
// Clusters relocated for this file's temp data folders (a private os.tmpdir()) go with them.
afterAll(() => void sweepShared());

let seq = 0;

// 4 KiB chunks cut ~500 lines at their edges; 7 rows per INSERT leaves a partial last batch in most calls.
const params = (over: Partial<StreamsParams> = {}): StreamsParams => ({
  ...DEFAULT_STREAMS_PARAMS,
  sizeMb: 2,
  chunkKb: 4,
  delayMs: 0,
  budgetMb: null,
  consumer: 'postgres',
  dbBatchRows: 7,
  ...over,
});

/** A data file as a run takes it. */
type RunFile = { path: string; bytes: number };

/** The file's rows: its lines after the header. */
const rowsIn = (file: RunFile) => readFileSync(file.path, 'latin1').split('\n').length - 2;

async function runPostgres(strategy: string, p: StreamsParams, file: RunFile, onSample?: (dbRows: number, stop: () => void) => void) {
  const consumer = await prepareConsumer(p, () => undefined);
  let stop: () => void = () => undefined;
  const handle = startStreamsRun({
    runId: `postgres-consumer-test-${++seq}`,
    strategy,
    params: p,
    file,
    consumer,
    onSample: onSample && ((s) => onSample(s.dbRows ?? 0, stop)),
  });
  stop = () => handle.stop();
  return handle.done;
}

/** The run's database processes by now (PostgreSQL carries the run's STREAM_LAB_DATA_DIR). */
function postgresPids(dataDir: string): number[] {
  return processesWithEnv('STREAM_LAB_DATA_DIR', dataDir).filter((pid) => {
    try {
      return /\/bin\/postgres\b/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
    } catch {
      return false;
    }
  });
}

async function until(done: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline && !done()) await new Promise((r) => setTimeout(r, 50));
}

function expectEveryRow(s: StreamsSummary, file: RunFile) {
  expect([s.outcome, s.reason]).toEqual(['completed', null]);
  // The consumer's own check passed (count and checksum), and the table held every row of the file once.
  expect(s.dbRows).toBe(rowsIn(file));
  expect(s.records).toBe(rowsIn(file) + 1);
  expect(s.insertsPerSec).toBeGreaterThan(0);
}

describe('streams lab: the postgres consumer (embedded PostgreSQL)', () => {
  const data = withDataFiles('postgres-consumer', [2], { reachable: true });

  it.for([
    ['readable-map', false, 4],
    ['readable-map', true, 4],
    ['pipeline-generator', false, 1],
  ] as const)('%s (records %s, concurrency %i) puts every row of the file in the table once', async ([strategy, records, concurrency], ctx) => {
    needsEmbedded(ctx);
    const file = data.files[0];
    const t0 = performance.now();
    const s = await runPostgres(strategy, params({ records, concurrency }), file);
    const wallMs = performance.now() - t0;
    expectEveryRow(s, file);
    // Booting the run's PostgreSQL and the table's check are timed, and not in the run's time (so not
    // in inserts/s): the run lasted at least all three one after another, so counting either twice
    // would pass the wall time.
    expect(s.consumerStartMs).toBeGreaterThan(0);
    expect(s.consumerCheckMs).toBeGreaterThan(0);
    expect(s.durationMs + s.consumerStartMs! + s.consumerCheckMs!).toBeLessThanOrEqual(wallMs);
    expect(s.peakInFlight).toBe(concurrency);
    // The run's server stopped with it.
    expect(runLeftovers(data.dir.path)).toEqual([]);
  });

  it('reports data-lost naming the rows the table lacks when INSERTs fail', async (ctx) => {
    needsEmbedded(ctx);
    // A NUL is no text PostgreSQL stores: the INSERT of the 7 rows around row 50 fails.
    const lines = Array.from({ length: 100 }, (_, i) => `${i + 1},2024-01-01,C000001,invoice,1.00,${i === 49 ? 'nul\0here' : 'alpha'}`);
    const path = join(data.dir.path, 'with-nul.csv');
    writeFileSync(path, `id,date,customer,category,amount,note\n${lines.join('\n')}\n`, 'latin1');
    const s = await runPostgres('pipeline-generator', params({ concurrency: 1 }), { path, bytes: statSync(path).size });
    expect(s.outcome).toBe('data-lost');
    expect(s.reason).toMatch(/^the table has 93 of 100 rows \(INSERTs of 7 rows failed: invalid byte sequence for encoding "UTF8": 0x00/);
    expect(s.dbRows).toBe(93);
  });

  it('a stopped run takes its PostgreSQL and connections along; the next run drops the table it left', async (ctx) => {
    needsEmbedded(ctx);
    const file = data.files[0];
    let pids: number[] = [];
    // Records one at a time: slow enough to stop in the middle.
    const s = await runPostgres('pipeline-generator', params({ records: true, concurrency: 1 }), file, (dbRows, stop) => {
      if (dbRows > 100 && pids.length === 0) {
        pids = postgresPids(data.dir.path);
        stop();
      }
    });
    expect(s.outcome).toBe('stopped');
    expect(pids.length).toBeGreaterThan(0);
    // The server's backends leave the run's process group; they exit once the postmaster is gone.
    await until(() => pids.every((pid) => !processAlive(pid)));
    expect(pids.filter((pid) => processAlive(pid))).toEqual([]);
    expect(runLeftovers(data.dir.path)).toEqual([]);

    expect(await sinkTables()).toHaveLength(1);
    expectEveryRow(await runPostgres('pipeline-generator', params(), file), file);
    expect(await sinkTables()).toEqual([]);
  });

  it("when the process that started the run dies (SIGKILL), the run's PostgreSQL dies too", async (ctx) => {
    needsEmbedded(ctx);
    const { NODE_OPTIONS: _drop, ...env } = process.env;
    const args = ['--strategies', 'pipeline-generator', '--size-mb', '2', '--delay-ms', '0', '--consumer', 'postgres', '--records'];
    const bench = spawn(process.execPath, ['--import', 'tsx', 'server/cli/bench.ts', ...args], {
      cwd: ROOT,
      env: { ...env, STREAM_LAB_DATA_DIR: data.dir.path },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    bench.stderr!.setEncoding('utf8').on('data', (t: string) => (stderr = (stderr + t).slice(-2000)));
    const exited = new Promise((resolve) => bench.once('exit', resolve));
    try {
      // Until the run is inserting: its consumer (and so its kill on exit) is in place.
      await until(() => /pipeline-generator: [1-9]\d*% done/.test(stderr), 60_000);
      expect(postgresPids(data.dir.path).length, stderr).toBeGreaterThan(0);
    } finally {
      bench.kill('SIGKILL');
      await exited;
    }
    await until(() => runLeftovers(data.dir.path).length === 0);
    expect(runLeftovers(data.dir.path)).toEqual([]);
  });
});

/** The sink tables in the embedded cluster, read through a server of the test's own. */
async function sinkTables(): Promise<string[]> {
  const server = await startPostgres(await ensureCluster(pgRoot()));
  const client = new pg.Client({ connectionString: server.url });
  try {
    await client.connect();
    const { rows } = await client.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE tablename LIKE 'stream\\_lab\\_sink\\_%'`);
    return rows.map((r) => r.name);
  } finally {
    await client.end().catch(() => undefined);
    await server.stop();
  }
}

describe('streams lab: the postgres consumer names a DATABASE_URL that refuses, and starts nothing', () => {
  it('fails the prepare with the address, never the password', async () => {
    const saved = process.env.DATABASE_URL;
    process.env.DATABASE_URL = 'postgresql://lab:secret@127.0.0.1:1/lab';
    try {
      const states: string[] = [];
      await expect(prepareConsumer(params(), (st) => states.push(`${st.unit}:${st.state}`))).rejects.toThrow(
        /^could not make the postgres consumer's database ready: DATABASE_URL 127\.0\.0\.1:1\/lab: could not connect \(ECONNREFUSED/,
      );
      expect(states).toEqual(['database:generating', 'database:failed']);
    } finally {
      if (saved === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = saved;
    }
  });
});

describe.skipIf(!TEST_DB_URL)('streams lab: the postgres consumer against DATABASE_URL (STREAM_LAB_TEST_DATABASE_URL)', () => {
  const data = withDataFiles('postgres-consumer-url', [2]);
  const saved = process.env.DATABASE_URL;
  afterAll(() => {
    if (saved === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = saved;
  });
  const sinkConnections = async () => {
    const client = new pg.Client({ connectionString: TEST_DB_URL });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name LIKE $1`, [
        `${SINK_PREFIX.replaceAll('_', '\\_')}%`,
      ]);
      return rows[0].n;
    } finally {
      await client.end();
    }
  };

  it.for([false, true])('records %s: every row reaches the table once', async (records) => {
    process.env.DATABASE_URL = TEST_DB_URL;
    expectEveryRow(await runPostgres('readable-map', params({ records, concurrency: 4 }), data.files[0]), data.files[0]);
  });

  it('a stopped run leaves no connection open', async () => {
    process.env.DATABASE_URL = TEST_DB_URL;
    let during: Promise<number> | null = null;
    const s = await runPostgres('pipeline-generator', params({ records: true, concurrency: 1 }), data.files[0], (dbRows, stop) => {
      // Stopped once the run's connection has been seen in pg_stat_activity.
      if (dbRows > 100 && !during) during = sinkConnections().finally(stop);
    });
    expect(s.outcome).toBe('stopped');
    expect(await during).toBe(1);
    let open = -1;
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline && (open = await sinkConnections()) > 0) await new Promise((r) => setTimeout(r, 100));
    expect(open).toBe(0);
  });
});
if (!TEST_DB_URL) console.warn('streams lab: skipping the postgres consumer DATABASE_URL tests: STREAM_LAB_TEST_DATABASE_URL is not set');
