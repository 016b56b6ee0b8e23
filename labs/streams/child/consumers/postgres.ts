/**
 * The postgres consumer: each item's CSV rows inserted into a table of the run's own, in multi-row
 * INSERTs of at most `batchRows` rows, through a pool of as many connections as calls may overlap.
 * Its database is the run's own server over the embedded cluster, or DATABASE_URL (server/db/). At
 * the end the table's rows are counted and checksummed against what was sent. The table, the pool
 * and the server go with the run. The wait is the database's own: delayMs is not added (cpuUs is,
 * as the work of parsing a call's rows would be).
 */
import type pg from 'pg';
import { limitAt } from '../../../../server/child/check-config';
import { openDb, parseDbSource, type DbSource, type OpenDb } from '../../../../server/db/source';
import { STREAMS_LIMITS } from '../../shared/limits';
import { burnCpu } from '../consumer';
import { countText, insertSql, lineHash, ROW_HASH_SQL, RowTaker, rowValues, SINK_COLUMNS, tableLoss, type Tally } from './sink-rows';
import { NO_CONSUMER_READINGS, type Consumer, type ConsumerModule, type ConsumerReport, type ConsumerSettings } from './types';

interface PostgresConfig {
  batchRows: number;
  db: DbSource;
}

/** Every run's table starts so: `stream_lab_sink_<pid>_<ms>`, also the pool's application_name (pg_stat_activity shows it). */
export const SINK_PREFIX = 'stream_lab_sink_';

class PostgresSink implements Consumer {
  private readonly taker = new RowTaker();
  private readonly sent: Tally = { rows: 0, sum: 0n };
  private readonly failed = { rows: 0, first: null as string | null };
  private committed = 0;
  private closing: Promise<void> | null = null;

  constructor(
    private readonly db: OpenDb,
    private readonly pool: pg.Pool,
    private readonly table: string,
    private readonly batchRows: number,
    private readonly cpuUs: number,
  ) {}

  async work(item: Buffer | string): Promise<void> {
    // Taken before any await: the lines are cut in the order the calls start (sink-rows.ts).
    const rows = this.taker.take(item);
    if (this.cpuUs > 0) burnCpu(this.cpuUs);
    await this.insert(rows);
  }

  /** One INSERT per `batchRows` rows, one after another (a call holds one connection at a time); a failed one is counted, never thrown. */
  private async insert(rows: string[]): Promise<void> {
    for (let i = 0; i < rows.length; i += this.batchRows) {
      const batch = rows.slice(i, i + this.batchRows);
      for (const line of batch) this.sent.sum += lineHash(line);
      this.sent.rows += batch.length;
      try {
        // Named: each connection prepares a batch size's statement once.
        await this.pool.query({ name: `sink_${batch.length}`, text: insertSql(this.table, batch.length), values: batch.flatMap(rowValues) });
        this.committed += batch.length;
      } catch (err) {
        this.failed.rows += batch.length;
        this.failed.first ??= (err as Error).message;
      }
    }
  }

  readings() {
    return { ...NO_CONSUMER_READINGS, dbRows: this.committed };
  }

  async finish(): Promise<ConsumerReport> {
    await this.insert(this.taker.rest());
    const { rows } = await this.pool.query<{ n: string; sum: string }>(
      `SELECT count(*)::text AS n, coalesce(sum(${ROW_HASH_SQL}), 0)::text AS sum FROM ${this.table}`,
    );
    const inTable: Tally = { rows: Number(rows[0].n), sum: BigInt(rows[0].sum) };
    const note = this.failed.rows > 0 ? `INSERTs of ${countText(this.failed.rows)} rows failed: ${this.failed.first}` : null;
    return { extras: { dbRows: inTable.rows }, lost: tableLoss(inTable, this.sent, this.failed), note };
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.pool.query(`DROP TABLE IF EXISTS ${this.table}`).catch(() => undefined);
      await this.pool.end().catch(() => undefined);
      await this.db.server?.stop();
    })();
    return this.closing;
  }

  killNow(): void {
    this.db.server?.process.kill('SIGKILL');
  }
}

/**
 * Drops the tables of earlier runs that could not drop their own (a stopped run's process is
 * killed). Only on the run's own server: it alone holds the cluster (postmaster.pid), so every such
 * table there is a dead run's. A DATABASE_URL may be shared with runs still writing theirs.
 */
async function dropLeftovers(pool: pg.Pool): Promise<void> {
  const { rows } = await pool.query<{ name: string }>(
    `SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() AND tablename LIKE '${SINK_PREFIX.replaceAll('_', '\\_')}%'`,
  );
  for (const { name } of rows) await pool.query(`DROP TABLE IF EXISTS ${name}`);
}

async function startSink({ cpuUs, concurrency }: ConsumerSettings, config: PostgresConfig): Promise<Consumer> {
  const db = await openDb(config.db);
  // Loaded here, not at the top: every streams run's child loads this module, and only a postgres run needs pg.
  const { default: Pg } = await import('pg');
  const table = `${SINK_PREFIX}${process.pid}_${Date.now()}`;
  // No wait limit: in pg-pool it also bounds the wait for a free connection, and a strategy that
  // overlaps more calls than the knob (unbounded, or one of yours that did not say) would lose
  // inserts to it. A server that is down refuses at once; a stuck one meets the run's watchdog.
  const pool = new Pg.Pool({ connectionString: db.url, max: concurrency, application_name: table, connectionTimeoutMillis: 0 });
  // An idle connection whose server goes away emits 'error' on the pool; never crash on it.
  pool.on('error', () => undefined);
  try {
    if (db.server) await dropLeftovers(pool);
    // UNLOGGED: no WAL for rows thrown away at the end of the run. Text columns: sink-rows.ts says why.
    await pool.query(`CREATE UNLOGGED TABLE ${table} (${SINK_COLUMNS.map((c) => `${c} text`).join(', ')})`);
  } catch (err) {
    await pool.end().catch(() => undefined);
    await db.server?.stop();
    throw new Error(`${db.label}: could not make the table ${table}: ${(err as Error).message}`);
  }
  return new PostgresSink(db, pool, table, config.batchRows, cpuUs);
}

export const postgresConsumer: ConsumerModule<PostgresConfig> = {
  parse: (c) => ({
    batchRows: limitAt(c, 'batchRows', STREAMS_LIMITS.dbBatchRows, { int: true }),
    db: parseDbSource(c.db, 'consumer.config.db'),
  }),
  start: startSink,
};
