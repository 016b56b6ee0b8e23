/**
 * The disk side of one recorded run: its buffered sample lines and its own promise chain, so
 * appends, meta rewrites, reads and deletion of one run never interleave and nothing blocks the
 * event loop. A failed write is reported once per kind (disk full, permissions), never thrown.
 */
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunRecord, StoredLine } from '../../lib/history';
import {
  appendLines,
  META_FILE,
  PROFILE_FILE,
  readSeries,
  recordBytes,
  RUN_FILE_PATTERN,
  SAMPLES_FILE,
  writeFileAtomic,
  writeJsonAtomic,
} from './record-files';

/** Lines waiting for the disk per run; past this (a stalled disk) new samples are dropped and counted. */
export const MAX_PENDING_LINES = 5000;

export class RecordWriter {
  diskBytes: number;
  private pending: StoredLine[] = [];
  /** Samples dropped because the disk did not keep up. */
  dropped = 0;
  /** Samples lost to a failed write. */
  lostToErrors = 0;
  private chain: Promise<void> = Promise.resolve();
  private metaQueued = false;
  private readonly reported = new Set<string>();

  constructor(
    readonly dir: string,
    diskBytes: number,
    /** The record as it is now (read when a meta write runs, so writes coalesce). */
    private readonly record: () => RunRecord,
    private readonly warn: (message: string) => void,
  ) {
    this.diskBytes = diskBytes;
  }

  /** Buffers one line for the next flush (bounded: see MAX_PENDING_LINES). */
  push(line: StoredLine): void {
    if (this.pending.length >= MAX_PENDING_LINES) {
      if ('s' in line) this.dropped += 1;
      return;
    }
    this.pending.push(line);
  }

  /** Lines not yet on disk (a read adds them to what it found). */
  unflushed(): readonly StoredLine[] {
    return this.pending;
  }

  /** Makes the record's directory (first in the chain, before any write into it). */
  create(): void {
    void this.enqueue('create', () => mkdir(this.dir, { recursive: true }));
  }

  /** Appends the buffered lines. */
  flush(): Promise<void> {
    if (this.pending.length === 0) return this.chain;
    const lines = this.pending;
    this.pending = [];
    return this.enqueue('save samples', async () => {
      const text = lines.map((l) => JSON.stringify(l));
      try {
        await appendLines(join(this.dir, SAMPLES_FILE), text);
      } catch (err) {
        this.lostToErrors += lines.filter((l) => 's' in l).length;
        throw err;
      }
      // Only the samples file grew, by what was appended: no need to list the record's folder on
      // every flush (recordBytes counts every file, profiles and snapshots included).
      this.diskBytes += text.reduce((n, line) => n + Buffer.byteLength(line) + 1, 0);
    }).then(() => undefined);
  }

  /** Rewrites meta.json (atomically); calls while one is queued coalesce into it. */
  writeMeta(): void {
    if (this.metaQueued) return;
    this.metaQueued = true;
    void this.enqueue('save meta.json', async () => {
      this.metaQueued = false;
      await writeJsonAtomic(join(this.dir, META_FILE), this.record());
      this.diskBytes = await recordBytes(this.dir);
    });
  }

  /** The stored series, read between writes (no append is half-way). */
  read() {
    return this.enqueue('read', () => readSeries(this.dir));
  }

  /** Writes the run's CPU profile beside its samples (atomically, in the run's write order). */
  writeProfile(profile: unknown): Promise<void> {
    return this.enqueue('save the CPU profile', async () => {
      await writeJsonAtomic(join(this.dir, PROFILE_FILE), profile);
      this.diskBytes = await recordBytes(this.dir);
    }).then(() => undefined);
  }

  /** Writes one of the run's other files (RUN_FILE_PATTERN) beside its samples, atomically, in the run's write order. */
  writeRunFile(name: string, data: Buffer): Promise<void> {
    if (!RUN_FILE_PATTERN.test(name)) return Promise.reject(new Error(`not a run file: ${name}`));
    return this.enqueue(`save ${name}`, async () => {
      await writeFileAtomic(join(this.dir, name), data);
      this.diskBytes = await recordBytes(this.dir);
    }).then(() => undefined);
  }

  /** One of the run's other files, or null when it has none by that name. */
  readRunFile(name: string): Promise<Buffer | null> {
    if (!RUN_FILE_PATTERN.test(name)) return Promise.resolve(null);
    return this.enqueue(`read ${name}`, () => readFile(join(this.dir, name)).catch(() => null));
  }

  /** The stored CPU profile's JSON, or null when the run has none (after the writes before it). */
  readProfile(): Promise<string | null> {
    return this.enqueue('read the CPU profile', () => readFile(join(this.dir, PROFILE_FILE), 'utf8').catch(() => null));
  }

  /** Deletes the record's directory, after the writes before it. */
  remove(): Promise<void> {
    this.pending = [];
    return this.enqueue('delete', () => rm(this.dir, { recursive: true, force: true })).then(() => undefined);
  }

  /** Resolves once every write queued so far is done. */
  settled(): Promise<void> {
    return this.chain;
  }

  /** Reports a problem once per key (a full disk would otherwise repeat every second). */
  warnOnce(key: string, message: string): void {
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.warn(message);
  }

  /** Runs `task` after the run's earlier writes; a failure is reported, never thrown. */
  private enqueue<T>(what: string, task: () => Promise<T>): Promise<T | null> {
    const result = this.chain.then(task).then(
      (v) => v,
      (err: unknown) => {
        const text = err instanceof Error ? err.message : String(err);
        this.warnOnce(what, `run ${this.record().run.id}: could not ${what} (${text}); the server goes on, the record may be incomplete`);
        return null;
      },
    );
    this.chain = result.then(() => undefined);
    return result;
  }
}
