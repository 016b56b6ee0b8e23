/**
 * The HTTP lab's database, parent side: the `author` tables, one per size, made once and reused in
 * the embedded cluster or DATABASE_URL (server/db/ready.ts says which). Seeding reports its
 * progress in rows. Tables are made one at a time (a lock), since two seedings of the embedded
 * cluster would each start a server on the same folder.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import { startPostgres, type Cluster } from '../../../server/db/postgres';
import { connect, readyDb } from '../../../server/db/ready';
import type { DbSource } from '../../../server/db/source';

/** A seeded table and what every complete response must add up to. */
export interface TableInfo {
  table: string;
  rows: number;
  idSum: number;
  yearSum: number;
}

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
    const db = await readyDb();
    if ('url' in db) {
      const client = await connect(db.url, db.label);
      try {
        return { source: db.source, info: await seed(client, rows, report) };
      } finally {
        await client.end().catch(() => undefined);
      }
    }
    const { source, cluster } = db;
    // The cluster's folder: pgRoot(), or where PostgreSQL's user can reach it (server/db/reach.ts).
    const root = cluster.root;
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
