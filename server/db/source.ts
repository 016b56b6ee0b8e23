/**
 * Where a run finds PostgreSQL, for any lab that needs one: the embedded cluster the parent made
 * (postgres.ts; the run's child starts a server of its own over it) or DATABASE_URL, read from the
 * run's own environment so the URL's password never travels in a config. The parent hands the child
 * a DbSource (ready.ts), the child checks it once (parseDbSource) and opens it (openDb).
 *
 * Child-side, and loaded by every run of a lab whose child imports it: no zod, and no `pg` either
 * (a child that never opens a database must not pay for loading it).
 */
import { readFileSync } from 'node:fs';
import { ConfigError, numberAt, objectAt, stringAt } from '../child/check-config';
import { startPostgres, type RunningPostgres } from './postgres';

/** The embedded cluster as the child starts it: where its binaries, folder and password are, and who runs it (null: ourselves). */
export interface EmbeddedSource {
  kind: 'embedded';
  binDir: string;
  dataDir: string;
  passwordFile: string;
  uid: number | null;
  gid: number | null;
}

/** Where a run's child finds the database: the cluster to start, or DATABASE_URL (read from its own env). */
export type DbSource = EmbeddedSource | { kind: 'url' };

const ABSOLUTE = /^\/.+/;

/** The config's `field` as a DbSource, or a ConfigError naming what is wrong. */
export function parseDbSource(value: unknown, field = 'db'): DbSource {
  const db = objectAt(value, field);
  if (db.kind === 'url') {
    if (!process.env.DATABASE_URL) throw new ConfigError(`${field}: kind "url" but DATABASE_URL is not set in the run`);
    return { kind: 'url' };
  }
  if (db.kind !== 'embedded') throw new ConfigError(`${field}.kind must be "embedded" or "url" (got ${JSON.stringify(db.kind)})`);
  return {
    kind: 'embedded',
    binDir: stringAt(db, 'binDir', ABSOLUTE),
    dataDir: stringAt(db, 'dataDir', ABSOLUTE),
    passwordFile: stringAt(db, 'passwordFile', ABSOLUTE),
    uid: numberAt(db, 'uid', 0, 2 ** 31, { int: true, nullable: true }),
    gid: numberAt(db, 'gid', 0, 2 ** 31, { int: true, nullable: true }),
  };
}

/** DATABASE_URL with its password hidden, for messages. */
export function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || 5432}${u.pathname}`;
  } catch {
    return 'DATABASE_URL (not a valid URL)';
  }
}

/** A run's database, open: the URL to connect to, a label for messages (never the password), and the server when it is the run's own. */
export interface OpenDb {
  url: string;
  label: string;
  server: RunningPostgres | null;
}

/** Starts the run's own server over the embedded cluster, or takes DATABASE_URL. The caller stops `server` when the run ends. */
export async function openDb(source: DbSource): Promise<OpenDb> {
  if (source.kind === 'url') {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error('DATABASE_URL is not set in the run');
    return { url, label: `DATABASE_URL ${describeUrl(url)}`, server: null };
  }
  const { binDir, dataDir, passwordFile, uid, gid } = source;
  const user = uid === null ? {} : { uid, gid: gid ?? undefined };
  const server = await startPostgres({ binDir, dataDir, user, password: readFileSync(passwordFile, 'utf8').trim() });
  return { url: server.url, label: 'the embedded PostgreSQL', server };
}
