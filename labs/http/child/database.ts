/**
 * The HTTP lab's database, parent side: where it is (the embedded cluster under the data folder,
 * or DATABASE_URL) and the `author` tables, one per size, made once and reused. Seeding reports its
 * progress in rows. Tables are made one at a time (a lock), since two seedings of the embedded
 * cluster would each start a server on the same folder.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { dataDir } from '../../../server/data/data-files';
import { ensureCluster, startPostgres, type Cluster } from './postgres';

/** A seeded table and what every complete response must add up to. */
export interface TableInfo {
  table: string;
  rows: number;
  idSum: number;
  yearSum: number;
}

/** Where a run's child finds the database: the cluster to start, or DATABASE_URL (read from its own env). */
export type DbSource = { kind: 'embedded'; binDir: string; dataDir: string; passwordFile: string; uid: number | null; gid: number | null } | { kind: 'url' };

const FIRST = [
  'Anna',
  'Ben',
  'Clara',
  'David',
  'Emma',
  'Felix',
  'Greta',
  'Hans',
  'Ida',
  'Jonas',
  'Karla',
  'Lukas',
  'Mia',
  'Noah',
  'Olga',
  'Paul',
  'Rosa',
  'Simon',
  'Tilda',
  'Uwe',
];
const LAST = [
  'Müller',
  'Schmidt',
  'Schneider',
  'Fischer',
  'Weber',
  'Meyer',
  'Wagner',
  'Becker',
  'Schulz',
  'Hoffmann',
  'Koch',
  'Richter',
  'Klein',
  'Wolf',
  'Neumann',
  'Schwarz',
  'Braun',
  'Zimmermann',
  'Krüger',
  'Hartmann',
  'Lange',
  'Werner',
  'Krause',
  'Lehmann',
  'Köhler',
];
const CHUNK_ROWS = 50_000;

export const tableName = (rows: number) => `author_${rows}`;

/** The embedded cluster's folder (under STREAM_LAB_DATA_DIR). */
export const pgRoot = () => resolve(dataDir(), 'postgres'); // absolute: the child checks it is, whatever STREAM_LAB_DATA_DIR was given relative to

/** DATABASE_URL with its password hidden, for messages. */
export function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || 5432}${u.pathname}`;
  } catch {
    return 'DATABASE_URL (not a valid URL)';
  }
}

/** Connects, or throws naming the connection and why (never its password). */
export async function connect(url: string, label: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  // A server that goes away later emits 'error' on the client; without a listener it would crash us.
  client.on('error', () => undefined);
  try {
    await client.connect();
    return client;
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    await client.end().catch(() => undefined);
    throw new Error(`${label}: could not connect (${e.code ?? e.message}${e.code && e.message ? `: ${e.message}` : ''})`);
  }
}

let lock: Promise<unknown> = Promise.resolve();

/** Runs `fn` after every earlier call has settled. */
function serialized<T>(fn: () => Promise<T>): Promise<T> {
  const next = lock.then(fn, fn);
  lock = next.catch(() => undefined);
  return next;
}

/** The table for `rows`, made if missing; `report(done)` is called as rows are inserted. */
export function ensureTable(rows: number, report: (doneRows: number) => void): Promise<{ source: DbSource; info: TableInfo }> {
  return serialized(async () => {
    const url = process.env.DATABASE_URL;
    if (url) {
      const client = await connect(url, `DATABASE_URL ${describeUrl(url)}`);
      try {
        return { source: { kind: 'url' } as const, info: await seed(client, rows, report) };
      } finally {
        await client.end().catch(() => undefined);
      }
    }
    // The cluster's folder: pgRoot(), or where PostgreSQL's user can reach it (postgres.ts).
    const cluster = await ensureCluster(pgRoot());
    const root = cluster.root;
    const source: DbSource = {
      kind: 'embedded',
      binDir: cluster.binDir,
      dataDir: cluster.dataDir,
      passwordFile: cluster.passwordFile,
      uid: cluster.user.uid ?? null,
      gid: cluster.user.gid ?? null,
    };
    const known = readSeeded(root)[tableName(rows)];
    if (known) return { source, info: known };
    const info = await withServer(cluster, (client) => seed(client, rows, report));
    writeSeeded(root, { ...readSeeded(root), [info.table]: info });
    return { source, info };
  });
}

async function withServer<T>(cluster: Cluster, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const server = await startPostgres(cluster);
  try {
    const client = await connect(server.url, 'the embedded PostgreSQL');
    try {
      return await fn(client);
    } finally {
      await client.end().catch(() => undefined);
    }
  } finally {
    await server.stop();
  }
}

/** Makes `author_<rows>` unless the bookkeeping table says it is complete; returns its sums. */
async function seed(client: pg.Client, rows: number, report: (doneRows: number) => void): Promise<TableInfo> {
  const table = tableName(rows);
  await client.query(
    'CREATE TABLE IF NOT EXISTS stream_lab_tables (name text PRIMARY KEY, rows bigint NOT NULL, id_sum bigint NOT NULL, year_sum bigint NOT NULL)',
  );
  const found = await client.query<{ rows: string; id_sum: string; year_sum: string }>('SELECT rows, id_sum, year_sum FROM stream_lab_tables WHERE name = $1', [
    table,
  ]);
  if (found.rows.length === 1) {
    const r = found.rows[0];
    return { table, rows: Number(r.rows), idSum: Number(r.id_sum), yearSum: Number(r.year_sum) };
  }
  // `table` is built from a checked integer, never from text a user typed.
  await client.query(`DROP TABLE IF EXISTS ${table}`);
  await client.query(`CREATE TABLE ${table} (id integer NOT NULL, first_name text NOT NULL, last_name text NOT NULL, year_of_birth integer NOT NULL)`);
  report(0);
  for (let from = 1; from <= rows; from += CHUNK_ROWS) {
    const to = Math.min(rows, from + CHUNK_ROWS - 1);
    await client.query(
      `INSERT INTO ${table} SELECT i, ($3::text[])[1 + i % ${FIRST.length}], ($4::text[])[1 + (i * 7) % ${LAST.length}], 1900 + (i * 37) % 110 FROM generate_series($1::int, $2::int) AS i`,
      [from, to, FIRST, LAST],
    );
    report(to);
  }
  await client.query(`ALTER TABLE ${table} ADD PRIMARY KEY (id)`);
  await client.query(`ANALYZE ${table}`);
  const sums = await client.query<{ n: string; id_sum: string; year_sum: string }>(
    `SELECT count(*) AS n, sum(id) AS id_sum, sum(year_of_birth) AS year_sum FROM ${table}`,
  );
  const info: TableInfo = { table, rows: Number(sums.rows[0].n), idSum: Number(sums.rows[0].id_sum), yearSum: Number(sums.rows[0].year_sum) };
  await client.query('INSERT INTO stream_lab_tables VALUES ($1, $2, $3, $4)', [table, info.rows, info.idSum, info.yearSum]);
  return info;
}

/** Tables already made in the embedded cluster, so a run needn't start a server just to ask. */
function readSeeded(root: string): Record<string, TableInfo> {
  const file = join(root, 'seeded.json');
  if (!existsSync(file)) return {};
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, TableInfo>;
  } catch {
    return {};
  }
}

function writeSeeded(root: string, tables: Record<string, TableInfo>): void {
  writeFileSync(join(root, 'seeded.json'), JSON.stringify(tables, null, 2));
}
