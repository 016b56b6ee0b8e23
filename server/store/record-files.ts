/**
 * The files of one recorded run, `<dataDir>/runs/<runId>/`:
 *   meta.json       the RunRecord, replaced atomically (temp + fsync + rename + fsync of the dir),
 *                   so after a crash it is either the old or the new version, never half of one;
 *   samples.ndjson  one sample per line, append-only; a crash can only tear the last line, which
 *                   readers skip and report.
 * Plain files rather than an embedded database: no dependency, nothing to migrate, a reader can
 * open a run with `less`, and the two failure modes above are the only ones to handle.
 */
import { open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { runRecordSchema, storedLineSchema, type RunRecord } from '../../lib/history';
import { describeZodError } from '../../lib/protocol/params';
import type { ProcSample, Sample } from '../../lib/protocol';

export const META_FILE = 'meta.json';
export const SAMPLES_FILE = 'samples.ndjson';
/** A profiled run's V8 CPU profile, as Chrome DevTools and speedscope open it. */
export const PROFILE_FILE = 'profile.cpuprofile';
/**
 * The other files a run's record may hold, by name: its sampling heap profile (.heapprofile, as
 * DevTools and speedscope open it) and its heap snapshots, gzipped (server/runner/heap-watch.ts).
 * Names come from our own runner; the pattern keeps anything else out of the record's folder.
 */
export const RUN_FILE_PATTERN = /^(heap\.heapprofile|snapshot-[1-9][0-9]?\.heapsnapshot\.gz)$/;

/** A file a run's record may hold besides its meta and samples: its CPU profile or a RUN_FILE_PATTERN file. */
export function isRunFileName(name: string): boolean {
  return name === PROFILE_FILE || RUN_FILE_PATTERN.test(name);
}

let tmpSeq = 0;

/** Writes bytes so that the file is always complete: a crash leaves the old version or the new one. */
export async function writeFileAtomic(path: string, data: Buffer | string): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}-${++tmpSeq}`;
  const fh = await open(tmp, 'w');
  try {
    await fh.writeFile(data);
    // Without fsync, rename can reach the disk before the data does, leaving an empty "new" file.
    await fh.sync();
  } catch (err) {
    await fh.close().catch(() => {});
    await rm(tmp, { force: true });
    throw err;
  }
  await fh.close();
  try {
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  await syncDir(path.slice(0, path.lastIndexOf('/')));
}

/** Writes JSON so that the file is always complete: a crash leaves the old version or the new one. */
export function writeJsonAtomic(path: string, value: unknown): Promise<void> {
  return writeFileAtomic(path, JSON.stringify(value));
}

/** fsync of a directory makes a rename in it durable; some filesystems refuse it, which is harmless. */
async function syncDir(dir: string): Promise<void> {
  try {
    const fh = await open(dir, 'r');
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  } catch {
    // EISDIR/EINVAL on filesystems without directory fsync: the rename is still atomic.
  }
}

/** Appends whole lines in one write, so only a crash mid-write can leave a torn (last) line. */
export async function appendLines(path: string, lines: readonly string[]): Promise<void> {
  if (lines.length === 0) return;
  const fh = await open(path, 'a');
  try {
    await fh.writeFile(`${lines.join('\n')}\n`);
  } finally {
    await fh.close();
  }
}

export type ReadMeta = { ok: true; record: RunRecord } | { ok: false; error: string };

/** Reads and validates meta.json; any problem becomes a one-line reason, never a throw. */
export async function readMeta(dir: string): Promise<ReadMeta> {
  let text: string;
  try {
    text = await readFile(join(dir, META_FILE), 'utf8');
  } catch (err) {
    return { ok: false, error: (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'meta.json is missing' : String(err) };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: `meta.json is not valid JSON (${text.length} bytes, truncated or corrupt)` };
  }
  const parsed = runRecordSchema.safeParse(json);
  if (!parsed.success) return { ok: false, error: `meta.json does not match the record format: ${describeZodError(parsed.error).slice(0, 200)}` };
  return { ok: true, record: parsed.data };
}

export interface SeriesRead {
  samples: Sample[];
  proc: ProcSample[];
  /** Lines that were skipped, described for the log and the page. */
  warnings: string[];
}

/** Reads samples.ndjson, skipping (and describing) a torn last line and any corrupt line. */
export async function readSeries(dir: string): Promise<SeriesRead> {
  const out: SeriesRead = { samples: [], proc: [], warnings: [] };
  let text: string;
  try {
    text = await readFile(join(dir, SAMPLES_FILE), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') out.warnings.push(`samples could not be read: ${String(err)}`);
    return out;
  }
  const lines = text.split('\n');
  // A complete file ends with "\n", so the last element is "" unless the last write was torn.
  const torn = lines.pop() ?? '';
  let corrupt = 0;
  for (const line of lines) {
    if (line === '') continue;
    let parsed;
    try {
      parsed = storedLineSchema.safeParse(JSON.parse(line));
    } catch {
      parsed = null;
    }
    if (!parsed?.success) corrupt += 1;
    else if ('s' in parsed.data) out.samples.push(parsed.data.s);
    else out.proc.push(parsed.data.p);
  }
  if (torn !== '') out.warnings.push(`the last sample line was incomplete (${torn.length} bytes, a write cut short) and was skipped`);
  if (corrupt > 0) out.warnings.push(`${corrupt} corrupt sample line(s) were skipped`);
  return out;
}

/** Bytes the record takes on disk (its two files; a missing file counts 0). */
export async function recordBytes(dir: string): Promise<number> {
  let total = 0;
  // Every file of the record counts toward retention: a run's profiles and snapshots too.
  const names = await readdir(dir).catch(() => [META_FILE, SAMPLES_FILE]);
  for (const name of names) {
    try {
      total += (await stat(join(dir, name))).size;
    } catch {
      // Not written yet.
    }
  }
  return total;
}
