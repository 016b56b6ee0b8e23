/**
 * Can PostgreSQL's own user reach the binaries and the cluster? As root, the embedded PostgreSQL
 * runs as the `postgres` system user, which must be able to pass through (the execute bit) every
 * folder above them. A project under a private folder (`mktemp -d` gives 0700, /root is 0700)
 * blocks it. Then the binaries are copied, once per package version, into a folder only root can
 * write to and anyone can pass through, `/var/tmp/stream-lab-postgres/` (else under os.tmpdir()),
 * and the cluster is made there too, keyed by the data folder's path, with a note in the data
 * folder saying where it is. Such a cluster is removed once its data folder (or the note) is gone.
 *
 * The folders are judged from their mode bits and owners (`firstBlocking`, pure); whether the
 * binaries really run is then tried as that user (`postgres --version`), which also catches what
 * the bits don't show (ACLs, a noexec mount).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  constants,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  chmodSync,
  copyFileSync,
  readlinkSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import { processAlive } from '../runner/proc-status';

const run = promisify(execFile);

/** A folder's mode and owner, as `stat` gives them. */
export interface DirMode {
  path: string;
  mode: number;
  uid: number;
  gid: number;
}

/**
 * Who the server runs as. Node's `spawn({ uid, gid })` drops the supplementary groups
 * (setgroups(0)), so only this one group counts.
 */
export interface Who {
  uid: number;
  gid: number;
}

/** Refused: the `postgres` user cannot reach what it needs; the message names the folder and the fix. */
export class PostgresUnreachable extends Error {}

/** May `who` pass through `dir`? The kernel's order: the owner's bits, else the group's, else the others'. */
export function canPass(dir: Pick<DirMode, 'mode' | 'uid' | 'gid'>, who: Who): boolean {
  if (who.uid === 0) return true;
  if (dir.uid === who.uid) return (dir.mode & 0o100) !== 0;
  if (dir.gid === who.gid) return (dir.mode & 0o010) !== 0;
  return (dir.mode & 0o001) !== 0;
}

/** The first folder of `chain` (from / down) that `who` cannot pass through, or null when none blocks. */
export function firstBlocking(chain: DirMode[], who: Who): DirMode | null {
  return chain.find((dir) => !canPass(dir, who)) ?? null;
}

/** The chmod that opens `dir` to `who` for passing through, and only that. */
export function fixFor(dir: DirMode, who: Who): string {
  const bit = dir.uid === who.uid ? 'u+x' : dir.gid === who.gid ? 'g+x' : 'o+x';
  return `chmod ${bit} ${dir.path}`;
}

/**
 * Is every folder of `chain` root's and closed to others' writes (or sticky, as /tmp and
 * /var/tmp are)? Else someone else could swap what root later hands to PostgreSQL.
 */
export function onlyRootCanChange(chain: DirMode[]): boolean {
  return chain.every((dir) => dir.uid === 0 && ((dir.mode & 0o022) === 0 || (dir.mode & 0o1000) !== 0));
}

/** Every folder from / down to `path` (included), symlinks resolved, with its mode and owner. */
export function chainOf(path: string): DirMode[] {
  const real = realpathSync(path);
  const parts = real.split(sep).filter(Boolean);
  const paths = ['/', ...parts.map((_, i) => `/${parts.slice(0, i + 1).join('/')}`)];
  return paths.map((p) => {
    const st = statSync(p);
    return { path: p, mode: st.mode & 0o7777, uid: st.uid, gid: st.gid };
  });
}

/** Where the shared folder may go, first that fits. */
export const SHARED_BASES = (): string[] => [...new Set(['/var/tmp', tmpdir()])];
export const SHARED_NAME = 'stream-lab-postgres';

/**
 * The folder the binaries' copies and relocated clusters go in: root's, 0755, in the first base
 * that `who` can reach and only root can change. Made if missing; refused (never used) when it
 * exists but isn't root's alone.
 */
export function sharedDir(who: Who, bases: string[] = SHARED_BASES()): string {
  const why: string[] = [];
  for (const base of bases) {
    if (!existsSync(base)) {
      why.push(`${base} does not exist`);
      continue;
    }
    const chain = chainOf(base);
    const blocked = firstBlocking(chain, who);
    if (blocked) {
      why.push(`${blocked.path} is closed to it (fix: ${fixFor(blocked, who)})`);
      continue;
    }
    if (!onlyRootCanChange(chain)) {
      why.push(`${base} is in a folder others than root can change`);
      continue;
    }
    const dir = join(realpathSync(base), SHARED_NAME);
    try {
      mkdirSync(dir, { mode: 0o755 });
      chmodSync(dir, 0o755); // past the umask
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const st = lstatSync(dir);
    if (!st.isDirectory() || st.uid !== 0 || (st.mode & 0o022) !== 0) {
      throw new PostgresUnreachable(
        `${dir} is not a folder only root can change (owner uid ${st.uid}, mode ${(st.mode & 0o7777).toString(8)}): Stream Lab will not run PostgreSQL from it; remove it (rm -rf ${dir}), or set DATABASE_URL`,
      );
    }
    if ((st.mode & 0o555) !== 0o555) chmodSync(dir, 0o755);
    return dir;
  }
  throw new PostgresUnreachable(`no folder to put PostgreSQL where the postgres user can reach it: ${why.join('; ')}; or set DATABASE_URL`);
}

/** Does `postgres --version` in `binDir` run as `who`? (Spawn errors such as EACCES come back as the reason.) */
export async function runsAs(binDir: string, who: Who): Promise<string | null> {
  try {
    const { stdout } = await run(join(binDir, 'postgres'), ['--version'], {
      uid: who.uid,
      gid: who.gid,
      timeout: 15_000,
      env: { ...process.env, LC_ALL: 'C' },
    });
    return /postgres/i.test(stdout) ? null : `postgres --version said ${JSON.stringify(stdout.trim())}`;
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: string };
    return e.stderr?.trim() || e.code || e.message;
  }
}

const MANIFEST = '.stream-lab-copy.json';

/** Every file and symlink under `dir`, relative, with its size (files) or target (symlinks). */
function listTree(dir: string, base = dir, out: Record<string, number | string> = {}): Record<string, number | string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const rel = relative(base, path);
    if (entry.isSymbolicLink()) out[rel] = readlinkSync(path);
    else if (entry.isDirectory()) listTree(path, base, out);
    else if (entry.isFile()) out[rel] = statSync(path).size;
  }
  return out;
}

/**
 * Is the copy at `dir` whole and current: every file its manifest lists, at its size (a temp
 * cleaner may have aged some out), and the manifest the source's tree as it is now (a copy taken
 * while npm was still installing, before the package's library symlinks existed, is not).
 */
function wholeCopy(dir: string, source: string): boolean {
  let files: Record<string, number | string>;
  try {
    files = (JSON.parse(readFileSync(join(dir, MANIFEST), 'utf8')) as { files: Record<string, number | string> }).files;
  } catch {
    return false;
  }
  if (!sameTree(files, listTree(source))) return false;
  return Object.entries(files).every(([rel, want]) => {
    try {
      const path = join(dir, rel);
      return typeof want === 'string' ? readlinkSync(path) === want : lstatSync(path).size === want;
    } catch {
      return false;
    }
  });
}

function sameTree(a: Record<string, number | string>, b: Record<string, number | string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

/** Copies the tree, folders 0755, files 0644 or 0755 (executable if the source was), symlinks as they are. */
function copyTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  chmodSync(to, 0o755);
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const src = join(from, entry.name);
    const dst = join(to, entry.name);
    if (entry.isSymbolicLink()) symlinkSync(readlinkSync(src), dst);
    else if (entry.isDirectory()) copyTree(src, dst);
    else if (entry.isFile()) {
      // A reflink where the file system has them, a plain copy otherwise. Not a hard link: that
      // would share the source's inode, and so its mode, which may be closed to others.
      copyFileSync(src, dst, constants.COPYFILE_FICLONE);
      chmodSync(dst, statSync(src).mode & 0o111 ? 0o755 : 0o644);
    }
  }
}

/**
 * The copy of `nativeDir` (bin, lib, share: the binaries find the rest from their own path) named
 * `key` in `shared`, made if missing, not whole or not the source's tree as it is now. Made under a temp name and renamed into place,
 * so a second process never sees half a copy: if it loses the race, it takes the winner's.
 */
export function sharedCopy(nativeDir: string, shared: string, key: string): string {
  const dir = join(shared, key);
  if (wholeCopy(dir, nativeDir)) return dir;
  if (existsSync(dir)) {
    if (wholeCopy(dir, nativeDir)) return dir; // another process's, renamed in since the first look
    // Not whole (aged out by a temp cleaner, or from an older layout): set it aside, then remove it.
    const trash = `${dir}.old-${process.pid}-${Date.now()}`;
    try {
      renameSync(dir, trash);
      rmSync(trash, { recursive: true, force: true });
    } catch {
      // Another process moved it first.
    }
  }
  const temp = mkdtempSync(join(shared, `.${key}-`));
  try {
    copyTree(nativeDir, temp);
    writeFileSync(join(temp, MANIFEST), JSON.stringify({ from: nativeDir, files: listTree(temp) }));
    chmodSync(join(temp, MANIFEST), 0o644);
    renameSync(temp, dir);
  } catch (err) {
    rmSync(temp, { recursive: true, force: true });
    const code = (err as NodeJS.ErrnoException).code;
    if ((code === 'ENOTEMPTY' || code === 'EEXIST') && wholeCopy(dir, nativeDir)) return dir;
    throw err;
  }
  return dir;
}

/**
 * A bin folder `who` can run PostgreSQL from: `binDir` itself when it can, else a copy of the
 * platform package's folder in the shared folder, keyed by the package's version (checked whole
 * on every call: tens of ms, once per run). Refuses naming the folder that blocks and the fix.
 */
export async function usableBinDir(binDir: string, who: Who): Promise<string> {
  const why = await runsAs(binDir, who);
  if (why === null) return binDir;
  const blocked = firstBlocking(chainOf(binDir), who);
  const where = blocked ? `${blocked.path} is closed to it` : why;
  const nativeDir = dirname(binDir);
  let version = 'unknown';
  try {
    version = (JSON.parse(readFileSync(join(nativeDir, '..', 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    // Not the npm package's layout: keyed by the path alone.
  }
  const hash = createHash('sha256').update(nativeDir).digest('hex').slice(0, 8);
  const key = `${process.platform}-${process.arch}-${version.replace(/[^\w.-]/g, '_')}${version === 'unknown' ? `-${hash}` : ''}`;
  let shared: string;
  try {
    shared = sharedDir(who);
  } catch (err) {
    if (err instanceof PostgresUnreachable) {
      throw new PostgresUnreachable(
        `the postgres user (PostgreSQL's, as Stream Lab runs as root) cannot run ${join(binDir, 'postgres')}: ${where}${blocked ? ` (fix: ${fixFor(blocked, who)})` : ''}; and ${err.message}`,
      );
    }
    throw err;
  }
  const copy = join(sharedCopy(nativeDir, shared, key), 'bin');
  const stillWhy = await runsAs(copy, who);
  if (stillWhy !== null) {
    throw new PostgresUnreachable(
      `the postgres user cannot run ${join(binDir, 'postgres')} (${where}) nor its copy ${join(copy, 'postgres')} (${stillWhy})${blocked ? `: fix: ${fixFor(blocked, who)}` : ''}, or set DATABASE_URL`,
    );
  }
  return copy;
}

/** The note a relocated cluster's data folder keeps. */
export const NOTE = 'cluster-location.txt';

/**
 * Removes the relocated clusters whose data folder is gone or no longer points at them (its note
 * removed: the cluster is back in its own folder), unless a PostgreSQL still runs on them.
 */
export function sweepClusters(shared: string): string[] {
  const removed: string[] = [];
  for (const name of readdirSync(shared)) {
    if (!name.startsWith('cluster-')) continue;
    const dir = join(shared, name);
    let origin: string;
    try {
      origin = readFileSync(join(dir, 'origin'), 'utf8').trim();
    } catch {
      continue; // being made, or not ours
    }
    let note = '';
    try {
      note = readFileSync(join(origin, NOTE), 'utf8');
    } catch {
      // The data folder, or its note, is gone.
    }
    if (note.includes(dir)) continue;
    try {
      const pid = Number(readFileSync(join(dir, 'cluster', 'postmaster.pid'), 'utf8').split('\n')[0]);
      if (Number.isInteger(pid) && pid > 0 && processAlive(pid)) continue;
    } catch {
      // No server on it.
    }
    rmSync(dir, { recursive: true, force: true });
    removed.push(dir);
  }
  return removed;
}

/** As root, sweeps every shared folder there is (root's own only; none is made): see sweepClusters. */
export function sweepShared(bases: string[] = SHARED_BASES()): string[] {
  const removed: string[] = [];
  if (process.getuid?.() !== 0) return removed;
  for (const base of bases) {
    try {
      const dir = join(realpathSync(base), SHARED_NAME);
      const st = lstatSync(dir);
      if (st.isDirectory() && st.uid === 0 && (st.mode & 0o022) === 0) removed.push(...sweepClusters(dir));
    } catch {
      // No such folder.
    }
  }
  return removed;
}

/**
 * Where the cluster of the data folder `root` (data/postgres) lives: `root` itself when `who` can
 * reach it, else `<shared>/cluster-<hash of root's path>`, its origin recorded there and a note
 * left in `root`. Refuses naming the folder that blocks and the fix when no shared folder will do.
 */
export function placeCluster(root: string, who: Who): string {
  mkdirSync(dirname(root), { recursive: true });
  const blocked = firstBlocking(chainOf(dirname(root)), who);
  if (!blocked) {
    // Reachable (again): a note from when it wasn't goes, and with it (on the sweep) that cluster.
    rmSync(join(root, NOTE), { force: true });
    sweepShared();
    return root;
  }
  let shared: string;
  try {
    shared = sharedDir(who);
  } catch (err) {
    if (err instanceof PostgresUnreachable) {
      throw new PostgresUnreachable(
        `the postgres user (PostgreSQL's, as Stream Lab runs as root) cannot reach the database folder ${root}: ${blocked.path} is closed to it. Fix: ${fixFor(blocked, who)}, or set STREAM_LAB_DATA_DIR to a folder it can reach, or DATABASE_URL (${err.message})`,
      );
    }
    throw err;
  }
  mkdirSync(root, { recursive: true, mode: 0o700 });
  const origin = realpathSync(root);
  const placed = join(shared, `cluster-${createHash('sha256').update(origin).digest('hex').slice(0, 16)}`);
  writeFileSync(
    join(root, NOTE),
    `The postgres user, which runs PostgreSQL when Stream Lab runs as root, cannot pass through ${blocked.path},\n` +
      `so the cluster of this folder is in ${placed}\n` +
      `Stream Lab removes it once this folder (or this note) is gone; by hand: rm -rf ${placed}\n`,
  );
  sweepShared();
  mkdirSync(placed, { recursive: true, mode: 0o700 });
  writeFileSync(join(placed, 'origin'), `${origin}\n`, { mode: 0o644 });
  return placed;
}
