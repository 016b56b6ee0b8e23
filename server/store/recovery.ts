/**
 * Reading the store back at startup: every run directory's record, with half-written temp files
 * removed and runs the last server left going marked interrupted (keeping the samples they had).
 * A record that cannot be read is skipped with a warning, never fatal.
 */
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isFinalStatus, observeSeries, RUN_ID_PATTERN, type RunRecord } from '../../lib/history';
import { META_FILE, readMeta, readSeries, recordBytes, writeJsonAtomic } from './record-files';

export interface LoadedRecord {
  record: RunRecord;
  dir: string;
  diskBytes: number;
}

/** Every readable record under `dir`, a few at a time (fast for 500 runs without opening 500 files at once). */
export async function loadRecords(dir: string, warn: (message: string) => void): Promise<LoadedRecord[]> {
  const names = (await readdir(dir, { withFileTypes: true })).filter((d) => d.isDirectory() && RUN_ID_PATTERN.test(d.name)).map((d) => d.name);
  const loaded: LoadedRecord[] = [];
  for (let i = 0; i < names.length; i += 16) {
    const batch = await Promise.all(names.slice(i, i + 16).map((n) => loadRecord(join(dir, n), n, warn)));
    for (const r of batch) if (r) loaded.push(r);
  }
  return loaded;
}

async function loadRecord(dir: string, name: string, warn: (message: string) => void): Promise<LoadedRecord | null> {
  await removeTempFiles(dir);
  const meta = await readMeta(dir);
  if (!meta.ok) {
    warn(`run ${name}: ${meta.error}; the record was skipped`);
    return null;
  }
  let record = meta.record;
  if (record.run.id !== name) {
    warn(`run ${name}: meta.json names run ${record.run.id}; the record was skipped`);
    return null;
  }
  if (!isFinalStatus(record.run.status)) record = await markInterrupted(dir, record, warn);
  return { record, dir, diskBytes: await recordBytes(dir) };
}

/** The server died while this run was going: keep what it had, say so, and never pretend it ended. */
async function markInterrupted(dir: string, record: RunRecord, warn: (message: string) => void): Promise<RunRecord> {
  const series = await readSeries(dir);
  for (const w of series.warnings) warn(`run ${record.run.id}: ${w}`);
  const lastAt = Math.max(series.samples.at(-1)?.at ?? 0, series.proc.at(-1)?.at ?? 0);
  const was = record.run.status;
  const updated: RunRecord = {
    ...record,
    run: { ...record.run, status: 'interrupted', pid: null },
    endedAt: lastAt || record.recordedAt,
    observed: observeSeries(series.samples, series.proc),
    notes: [...record.notes, `The server stopped while this run was ${was}; the ${series.samples.length} samples saved until then are kept.`],
  };
  try {
    await writeJsonAtomic(join(dir, META_FILE), updated);
  } catch (err) {
    warn(`run ${record.run.id}: could not mark it interrupted on disk (${err instanceof Error ? err.message : String(err)}); shown as interrupted anyway`);
  }
  return updated;
}

/** Temp files of an atomic write that a crash interrupted: never the record itself, so they go. */
async function removeTempFiles(dir: string): Promise<void> {
  try {
    for (const name of await readdir(dir)) if (name.includes('.tmp-')) await rm(join(dir, name), { force: true });
  } catch {
    // Unreadable directory: readMeta reports it.
  }
}
