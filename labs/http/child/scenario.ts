/**
 * The HTTP lab inside the run's process, which is the server under test: it starts the run's own
 * PostgreSQL (or uses DATABASE_URL), serves `GET /authors` with the strategy on a plain node:http
 * server, and forks the load (load.ts) against it. The run is done when the load has had every
 * response. Readings: the server's open responses and their socket buffers, and the load's figures.
 */
import type { ChildProcess } from 'node:child_process';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { limitAt, numberAt, objectAt, stringAt } from '../../../server/child/check-config';
import { HTTP_LIMITS } from '../shared/limits';
import { COMMON_LIMITS } from '../../../lib/protocol/limits';
import type { Scenario } from '../../../server/child/scenario';
import type { Expected } from './body-check';
import { openDb, parseDbSource, type DbSource, type OpenDb } from '../../../server/db/source';
import { endProcess, startLoad } from '../../../server/child/load-process';
import { endIfDenied } from '../../../server/child/denied';
import type { LoadConfig, LoadDone, LoadReadings } from './load';
import type { Strategy } from './strategy';

interface HttpConfig {
  db: DbSource;
  table: string;
  expected: Expected;
  batchRows: number;
  cursorRows: number;
  concurrency: number;
  requests: number;
  slowClients: number;
  slowKbps: number;
  timeoutS: number;
}

const NO_LOAD: LoadReadings = { responses: 0, responsesOk: 0, badResponses: 0, reqPerSec: 0, loadCpuPct: 0 };

export const scenario: Scenario<HttpConfig> = {
  parseConfig: (c) => {
    const expected = objectAt(c.expected, 'expected');
    return {
      db: parseDbSource(c.db),
      table: stringAt(c, 'table', /^author_\d+$/),
      expected: {
        rows: numberAt(expected, 'rows', 1, 10_000_000, { int: true }),
        idSum: numberAt(expected, 'idSum', 1, Number.MAX_SAFE_INTEGER, { int: true }),
        yearSum: numberAt(expected, 'yearSum', 1, Number.MAX_SAFE_INTEGER, { int: true }),
      },
      batchRows: limitAt(c, 'batchRows', HTTP_LIMITS.batchRows, { int: true }),
      cursorRows: limitAt(c, 'cursorRows', HTTP_LIMITS.cursorRows, { int: true }),
      concurrency: limitAt(c, 'concurrency', HTTP_LIMITS.concurrency, { int: true }),
      requests: limitAt(c, 'requests', HTTP_LIMITS.requests, { int: true }),
      slowClients: limitAt(c, 'slowClients', HTTP_LIMITS.slowClients, { int: true }),
      slowKbps: limitAt(c, 'slowKbps', HTTP_LIMITS.slowKbps, { int: true }),
      timeoutS: limitAt(c, 'timeoutS', COMMON_LIMITS.timeoutS, { int: true }),
    };
  },

  start(raw, config) {
    const strategy = raw as Strategy;
    const open = new Set<ServerResponse>();
    let rowsSent = 0;
    let load = NO_LOAD;
    let pool: pg.Pool | null = null;
    let final: Record<string, number> = {};
    let problem: string | null = null;
    let serverError: string | null = null;

    const server = createServer((req, res) => {
      if (req.method !== 'GET' || req.url !== '/authors') {
        res.writeHead(404).end();
        return;
      }
      open.add(res);
      res.once('close', () => open.delete(res));
      const ctx = {
        pool: pool!,
        sql: `SELECT id, first_name, last_name, year_of_birth FROM ${config.table} ORDER BY id`,
        batchRows: config.batchRows,
        cursorRows: config.cursorRows,
        sent: (n: number) => (rowsSent += n),
      };
      // A strategy of yours may return nothing, or throw before its first await: both land here.
      new Promise<void>((resolve) => resolve(strategy.run(req, res, ctx))).catch((err: Error) => {
        // A client that hung up ends its pipeline with an error: that is the client's doing.
        if (res.destroyed && !res.writableFinished && (err as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE') return;
        // A strategy of yours that tried what its fence forbids: the run ends refused, naming it.
        endIfDenied(err);
        serverError ??= err.message;
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' }).end(err.message);
        else res.destroy(err);
      });
    });

    let db: OpenDb | null = null;
    let loadChild: ChildProcess | null = null;
    // If this process ends abruptly (its parent died, an uncaught error), take the database and
    // the load along: PostgreSQL would otherwise outlive the run (a stop kills the whole process
    // group, but an exit of ours alone does not).
    const killOnExit = () => {
      db?.server?.process.kill('SIGKILL');
      loadChild?.kill('SIGKILL');
    };
    process.once('exit', killOnExit);

    const done = (async () => {
      try {
        db = await openDb(config.db);
        pool = new pg.Pool({ connectionString: db.url });
        // An idle pooled connection whose server goes away emits 'error' on the pool; never crash on it.
        pool.on('error', () => undefined);
        await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', () => resolve()));
        const { port } = server.address() as AddressInfo;

        const loadConfig: LoadConfig = {
          port,
          concurrency: config.concurrency,
          requests: config.requests,
          slowClients: config.slowClients,
          slowKbps: config.slowKbps,
          format: strategy.format,
          expected: config.expected,
          timeoutS: config.timeoutS,
        };
        const started = startLoad<LoadConfig, LoadReadings, LoadDone>(new URL('./load.mjs', import.meta.url), loadConfig, (r) => (load = r));
        loadChild = started.child;
        const report = await started.done;
        [final, problem] = [report.figures, report.problem];
      } finally {
        await endProcess(loadChild);
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await pool?.end().catch(() => undefined);
        await db?.server?.stop();
        process.off('exit', killOnExit);
      }
      if (serverError && !final.badResponses) throw new Error(`the server failed: ${serverError}`);
    })();

    return {
      readings: () => {
        let writableBytes = 0;
        // A response's writableLength counts its own queue and its socket's: what a push writer piles up.
        for (const res of open) writableBytes += res.writableLength;
        return {
          openResponses: open.size,
          writableBytes,
          rowsSent,
          dbClientsBusy: pool ? pool.totalCount - pool.idleCount : 0,
          ...load,
        };
      },
      done,
      extras: () => final,
      note: () => problem ?? (serverError && `the server failed: ${serverError}`),
      dispose: () => undefined,
    };
  },
};
