/**
 * Generated CSV files under data/: made once per (size, seed), reused after, described by a
 * manifest (bytes, rows, sha256). Files are written under a temp name and renamed when complete,
 * so a crash mid-write never leaves a file that looks finished.
 */
import { createHash } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { MIB } from '../../lib/protocol/params';
import { DEFAULT_MAX_SIZE_MB, LIMITS } from '../../labs/streams/shared/params';
import { csvStream } from './csv-source';

export interface DataManifest {
  file: string;
  bytes: number;
  rows: number;
  sha256: string;
  seed: number;
  createdAt: string;
}

export interface DataFile extends DataManifest {
  path: string;
}

/** Room left on the disk after a new file, so generating one never fills the disk to the brim. */
const DISK_MARGIN_BYTES = 256 * MIB;

/** Where generated files go: STREAM_LAB_DATA_DIR, or data/ at the repository root. */
export function dataDir(): string {
  return process.env.STREAM_LAB_DATA_DIR ?? fileURLToPath(new URL('../../data', import.meta.url));
}

/** The largest file this process will make: STREAM_LAB_MAX_SIZE_MB, default 2048; a bad value throws. */
export function maxSizeMb(): number {
  const raw = process.env.STREAM_LAB_MAX_SIZE_MB;
  if (raw === undefined || raw === '') return DEFAULT_MAX_SIZE_MB;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < LIMITS.sizeMb.min || n > DEFAULT_MAX_SIZE_MB) {
    throw new RangeError(`STREAM_LAB_MAX_SIZE_MB must be a whole number between ${LIMITS.sizeMb.min} and ${DEFAULT_MAX_SIZE_MB} (got "${raw}")`);
  }
  return n;
}

/** Throws a message naming the limit when the size is outside 1 MiB … max. */
export function checkSize(sizeMb: number, max = maxSizeMb()): number {
  if (!Number.isFinite(sizeMb) || sizeMb < LIMITS.sizeMb.min || sizeMb > max) {
    throw new RangeError(`sizeMb must be between ${LIMITS.sizeMb.min} and ${max} (got ${sizeMb})`);
  }
  return Math.round(sizeMb * MIB);
}

function names(dir: string, sizeBytes: number, seed: number) {
  const base = `stream-lab-${sizeBytes}-s${seed}`;
  return { csv: join(dir, `${base}.csv`), manifest: join(dir, `${base}.json`), base };
}

/** The cached file for this size and seed, if a complete one is on disk. */
export function findDataFile(sizeBytes: number, seed: number, dir = dataDir()): DataFile | null {
  const n = names(dir, sizeBytes, seed);
  if (!existsSync(n.manifest) || !existsSync(n.csv)) return null;
  try {
    const manifest = JSON.parse(readFileSync(n.manifest, 'utf8')) as DataManifest;
    if (manifest.bytes !== sizeBytes || statSync(n.csv).size !== sizeBytes) return null;
    return { ...manifest, path: n.csv };
  } catch {
    return null;
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Deletes half-written files (`*.tmp-<pid>-…`) left by a process that died while generating; a
 * file whose writer is still alive (another server or a bench) is left alone. Returns the names.
 */
export function removeStaleTempFiles(dir = dataDir()): string[] {
  if (!existsSync(dir)) return [];
  const removed: string[] = [];
  for (const name of readdirSync(dir)) {
    const m = /\.tmp-(\d+)(?:-\d+)?$/.exec(name);
    if (!m || processAlive(Number(m[1]))) continue;
    rmSync(join(dir, name), { force: true });
    removed.push(name);
  }
  return removed;
}

const inFlight = new Map<string, Promise<DataFile>>();

/**
 * The data file for this size and seed, generating it (with progress) when it is not cached.
 * Concurrent callers for the same file share one generation.
 */
export function ensureDataFile(opts: {
  sizeMb: number;
  seed?: number;
  onProgress?: (writtenBytes: number, sizeBytes: number) => void;
}): Promise<DataFile> {
  let sizeBytes: number;
  try {
    sizeBytes = checkSize(opts.sizeMb);
  } catch (err) {
    return Promise.reject(err);
  }
  const seed = opts.seed ?? LIMITS.seed.default;
  const dir = dataDir();
  const cached = findDataFile(sizeBytes, seed, dir);
  if (cached) return Promise.resolve(cached);
  const key = `${dir}:${sizeBytes}:${seed}`;
  let job = inFlight.get(key);
  if (!job) {
    job = generate(dir, sizeBytes, seed, opts.onProgress).finally(() => inFlight.delete(key));
    inFlight.set(key, job);
  }
  return job;
}

async function generate(
  dir: string,
  sizeBytes: number,
  seed: number,
  onProgress?: (writtenBytes: number, sizeBytes: number) => void,
): Promise<DataFile> {
  mkdirSync(dir, { recursive: true });
  const fs = await statfs(dir);
  const free = fs.bavail * fs.bsize;
  if (free < sizeBytes + DISK_MARGIN_BYTES) {
    throw new Error(
      `not enough disk space in ${dir}: a ${(sizeBytes / MIB).toFixed(0)} MiB file needs ${((sizeBytes + DISK_MARGIN_BYTES) / MIB).toFixed(0)} MiB free (file + ${DISK_MARGIN_BYTES / MIB} MiB margin), ${(free / MIB).toFixed(0)} MiB available`,
    );
  }
  const n = names(dir, sizeBytes, seed);
  const tmp = `${n.csv}.tmp-${process.pid}-${Date.now()}`;
  const hash = createHash('sha256');
  let written = 0;
  let rows = 0;
  let lastReport = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      hash.update(chunk);
      written += chunk.length;
      for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) rows += 1;
      if (onProgress && (written - lastReport >= 4 * MIB || written === sizeBytes)) {
        lastReport = written;
        onProgress(written, sizeBytes);
      }
      cb(null, chunk);
    },
  });
  try {
    await pipeline(csvStream(sizeBytes, seed), tap, createWriteStream(tmp));
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  const manifest: DataManifest = {
    file: `${n.base}.csv`,
    bytes: written,
    rows: rows - 1, // the header line is not a row
    sha256: hash.digest('hex'),
    seed,
    createdAt: new Date().toISOString(),
  };
  renameSync(tmp, n.csv);
  writeFileSync(`${n.manifest}.tmp-${process.pid}`, JSON.stringify(manifest, null, 2));
  renameSync(`${n.manifest}.tmp-${process.pid}`, n.manifest);
  return { ...manifest, path: n.csv };
}
