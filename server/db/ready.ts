/**
 * The parent's half of a run's database, for any lab that needs one: DATABASE_URL when it is set,
 * else the embedded cluster under the data folder, made once (initdb) and reused. What a run's
 * child is handed is a DbSource (source.ts); its own server starts in the child.
 */
import { basename, dirname, join, resolve } from 'node:path';
import pg from 'pg';
import { dataDir } from '../data/data-files';
import { ensureCluster, type MadeCluster } from './postgres';
import { describeUrl, type DbSource, type EmbeddedSource } from './source';

/** The embedded cluster's folder (under STREAM_LAB_DATA_DIR). */
export const pgRoot = () => resolve(dataDir(), 'postgres'); // absolute: the child checks it is, whatever STREAM_LAB_DATA_DIR was given relative to

/** A database ready for runs: DATABASE_URL (its URL, for the parent's own use), or the embedded cluster as made. */
export type ReadyDb = { source: { kind: 'url' }; url: string; label: string } | { source: EmbeddedSource; cluster: MadeCluster };

/** DATABASE_URL when set, else the embedded cluster (made if missing; as root, where PostgreSQL's user can reach it: reach.ts). */
export async function readyDb(): Promise<ReadyDb> {
  const url = process.env.DATABASE_URL;
  if (url) return { source: { kind: 'url' }, url, label: `DATABASE_URL ${describeUrl(url)}` };
  const cluster = await ensureCluster(pgRoot());
  const source: EmbeddedSource = {
    kind: 'embedded',
    binDir: cluster.binDir,
    dataDir: cluster.dataDir,
    passwordFile: cluster.passwordFile,
    uid: cluster.user.uid ?? null,
    gid: cluster.user.gid ?? null,
  };
  return { source, cluster };
}

/** What a fenced run's child must read to start the embedded cluster: its password and its lock file (PostgreSQL itself runs outside the fence). */
export function dbReadPaths(source: DbSource): string[] {
  return source.kind === 'embedded' ? [source.passwordFile, join(source.dataDir, 'postmaster.pid')] : [];
}

/** The embedded clusters' folders a run was handed (their lock files among its read paths, dbReadPaths). */
export function clusterDirsIn(readPaths: readonly string[]): string[] {
  return readPaths.filter((p) => basename(p) === 'postmaster.pid').map((p) => dirname(p));
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
