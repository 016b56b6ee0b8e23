/**
 * Recorded runs on disk (record-files.ts) with an in-memory index, so listing 500 runs reads no
 * file. Every write of a run goes through that run's own promise chain, so appends, meta rewrites,
 * reads and deletion of one run never interleave, and nothing blocks the event loop: sample lines
 * are buffered and appended about once a second. A failed write (disk full, permissions) is logged
 * and listed in `warnings()`; it never throws into the lab.
 */
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isFinalStatus, labReadings, observeSeries, RUN_ID_PATTERN, toListItem, type Observed, type RunDetail, type RunListItem, type RunRecord, type StoredLine } from '../../lib/history';
import { boundSeries } from '../../lib/series';
import { type ProcSample, type RunState, type RunStatus, type Sample } from '../../lib/protocol';
import { appendLines, META_FILE, readMeta, readSeries, recordBytes, SAMPLES_FILE, writeJsonAtomic } from './record-files';
import { emptyMemory, foldPeaks, Thinning } from '../../lib/series';

export interface RunStoreOptions {
  /** Directory holding one sub-directory per run (`<dataDir>/runs`). */
  dir: string;
  keepRuns: number;
  keepBytes: number;
  flushIntervalMs?: number;
  /**
   * While the server runs, a run that ended less than this long ago is never deleted by
   * retention, however many runs come after it (default 10 minutes).
   */
  minAgeMs?: number;
  /** Where warnings are logged (console.warn by default). */
  log?: (message: string) => void;
}

/** Lines waiting for the disk per run; past this (a stalled disk) new samples are dropped and counted. */
export const MAX_PENDING_LINES = 5000;
/** Retention spares runs younger than this while the server runs: a flood can't flush history. */
export const MIN_AGE_MS = 10 * 60_000;
/** Warnings kept for the page; the oldest go first. */
const MAX_WARNINGS = 50;

interface Entry {
  record: RunRecord;
  dir: string;
  diskBytes: number;
  pending: StoredLine[];
  dropped: number;
  lostToErrors: number;
  samples: Thinning;
  proc: Thinning;
  observed: Observed;
  chain: Promise<void>;
  metaQueued: boolean;
  failedWrites: Set<string>;
}

const emptyObserved = (): Observed => ({
  peak: emptyMemory(),
  procPeakRss: 0,
  readings: {},
  lastT: 0,
  sampleCount: 0,
  procCount: 0,
});

export class RunStore {
  private readonly entries = new Map<string, Entry>();
  private readonly warningList: string[] = [];
  private readonly timer: NodeJS.Timeout;

  private constructor(private readonly opts: RunStoreOptions) {
    this.timer = setInterval(() => this.flushAll(), opts.flushIntervalMs ?? 1000);
    this.timer.unref();
  }

  /** Loads every record, marks runs that were going when the server died as interrupted, applies retention. */
  static async open(opts: RunStoreOptions): Promise<RunStore> {
    const store = new RunStore(opts);
    await mkdir(opts.dir, { recursive: true });
    const names = (await readdir(opts.dir, { withFileTypes: true })).filter((d) => d.isDirectory() && RUN_ID_PATTERN.test(d.name)).map((d) => d.name);
    // A few reads at a time: fast for 500 runs without opening 500 files at once.
    for (let i = 0; i < names.length; i += 16) await Promise.all(names.slice(i, i + 16).map((n) => store.load(n)));
    // At startup every run is old enough: the limits are what they say.
    await store.enforceRetention(0);
    return store;
  }

  private async load(name: string): Promise<void> {
    const dir = join(this.opts.dir, name);
    await removeTempFiles(dir);
    const meta = await readMeta(dir);
    if (!meta.ok) return this.warn(`run ${name}: ${meta.error}; the record was skipped`);
    let record = meta.record;
    if (record.run.id !== name) return this.warn(`run ${name}: meta.json names run ${record.run.id}; the record was skipped`);
    if (!isFinalStatus(record.run.status)) record = await this.markInterrupted(dir, record);
    this.entries.set(name, this.newEntry(record, dir, await recordBytes(dir)));
  }

  /** The server died while this run was going: keep what it had, say so, and never pretend it ended. */
  private async markInterrupted(dir: string, record: RunRecord): Promise<RunRecord> {
    const series = await readSeries(dir);
    for (const w of series.warnings) this.warn(`run ${record.run.id}: ${w}`);
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
      this.warn(`run ${record.run.id}: could not mark it interrupted on disk (${errorText(err)}); shown as interrupted anyway`);
    }
    return updated;
  }

  private newEntry(record: RunRecord, dir: string, diskBytes: number): Entry {
    return {
      record,
      dir,
      diskBytes,
      pending: [],
      dropped: 0,
      lostToErrors: 0,
      samples: new Thinning(),
      proc: new Thinning(),
      observed: emptyObserved(),
      chain: Promise.resolve(),
      metaQueued: false,
      failedWrites: new Set(),
    };
  }

  /** Newest first, optionally only one strategy and/or one status. */
  list(filter: { strategy?: string | null; outcome?: RunStatus | null } = {}): RunListItem[] {
    const out: RunListItem[] = [];
    for (const e of this.entries.values()) {
      if (filter.strategy && e.record.run.strategy !== filter.strategy) continue;
      if (filter.outcome && e.record.run.status !== filter.outcome) continue;
      out.push(toListItem(e.record, e.diskBytes));
    }
    return out.sort((a, b) => b.queuedAt - a.queuedAt);
  }

  count(): number {
    return this.entries.size;
  }

  warnings(): string[] {
    return [...this.warningList];
  }

  storage() {
    let bytes = 0;
    for (const e of this.entries.values()) bytes += e.diskBytes;
    return { runs: this.entries.size, bytes, keepRuns: this.opts.keepRuns, keepBytes: this.opts.keepBytes };
  }

  record(id: string): RunRecord | null {
    return this.entries.get(id)?.record ?? null;
  }

  /** The record with its series (stored plus not yet flushed), thinned to at most `points` samples. */
  async read(id: string, points: number): Promise<RunDetail | null> {
    const e = this.entries.get(id);
    if (!e) return null;
    // On the run's chain: no append is half-way while we read.
    const series = await this.enqueue(e, 'read', () => readSeries(e.dir));
    if (!series) return null;
    for (const line of e.pending) {
      if ('s' in line) series.samples.push(line.s);
      else series.proc.push(line.p);
    }
    for (const w of series.warnings) this.warnOnce(e, `read:${w}`, `run ${id}: ${w}`);
    return {
      record: e.record,
      samples: [...boundSeries(series.samples, points)],
      proc: [...boundSeries(series.proc, points)],
      storedSamples: series.samples.length,
      warnings: series.warnings,
    };
  }

  /** All stored samples of a run, unthinned (exports). */
  async readAll(id: string): Promise<{ record: RunRecord; samples: Sample[]; proc: ProcSample[]; warnings: string[] } | null> {
    const d = await this.read(id, Number.MAX_SAFE_INTEGER);
    return d && { record: d.record, samples: d.samples, proc: d.proc, warnings: d.warnings };
  }

  /** Starts a record (directory and meta.json) for a run the lab just queued. */
  begin(record: RunRecord): void {
    const e = this.newEntry(record, join(this.opts.dir, record.run.id), 0);
    this.entries.set(record.run.id, e);
    void this.enqueue(e, 'create', () => mkdir(e.dir, { recursive: true }));
    this.writeMeta(e);
  }

  /** The lab's latest view of the run (status, pid, start time). */
  update(run: RunState): void {
    const e = this.entries.get(run.id);
    if (!e || isFinalStatus(e.record.run.status)) return;
    e.record = { ...e.record, run };
    this.writeMeta(e);
  }

  appendSample(runId: string, sample: Sample): void {
    const e = this.entries.get(runId);
    if (!e) return;
    const o = e.observed;
    foldPeaks(o.peak, sample);
    o.readings = labReadings(sample);
    o.lastT = sample.t;
    if (e.samples.take()) this.push(e, { s: sample });
  }

  appendProc(runId: string, proc: ProcSample): void {
    const e = this.entries.get(runId);
    if (!e) return;
    e.observed.procPeakRss = Math.max(e.observed.procPeakRss, proc.rss);
    if (e.proc.take()) this.push(e, { p: proc });
  }

  private push(e: Entry, line: StoredLine): void {
    if (e.pending.length >= MAX_PENDING_LINES) {
      if ('s' in line) e.dropped += 1;
      return;
    }
    e.pending.push(line);
  }

  /** The run ended: writes its last samples, then its summary, then applies retention. */
  async end(run: RunState, endedAt: number): Promise<void> {
    const e = this.entries.get(run.id);
    if (!e) return;
    await this.flush(e);
    const notes = [...e.record.notes];
    if (e.dropped > 0) notes.push(`${e.dropped} samples were not saved: the disk did not keep up.`);
    if (e.lostToErrors > 0) notes.push(`${e.lostToErrors} samples were not saved because a write failed (see warnings).`);
    e.record = {
      ...e.record,
      run,
      endedAt,
      observed: { ...e.observed, sampleCount: e.samples.kept - e.dropped - e.lostToErrors, procCount: e.proc.kept },
      notes,
    };
    this.writeMeta(e);
    await e.chain;
    await this.enforceRetention(this.opts.minAgeMs ?? MIN_AGE_MS);
  }

  /** Deletes a finished run's record; a run still going cannot be deleted. */
  async remove(id: string): Promise<'removed' | 'not-found' | 'active'> {
    const e = this.entries.get(id);
    if (!e) return 'not-found';
    if (!isFinalStatus(e.record.run.status)) return 'active';
    this.entries.delete(id);
    await this.enqueue(e, 'delete', () => rm(e.dir, { recursive: true, force: true }));
    return 'removed';
  }

  /** Forgets a run that never started (its record says nothing), whatever its status. */
  async discard(id: string): Promise<void> {
    const e = this.entries.get(id);
    if (!e) return;
    this.entries.delete(id);
    e.pending = [];
    await this.enqueue(e, 'delete', () => rm(e.dir, { recursive: true, force: true }));
  }

  /** Writes every buffered line now (shutdown, tests). */
  async flushAll(): Promise<void> {
    await Promise.all([...this.entries.values()].map((e) => this.flush(e)));
  }

  /** Stops the timer after writing what is buffered. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flushAll();
    await Promise.all([...this.entries.values()].map((e) => e.chain));
  }

  private flush(e: Entry): Promise<void> {
    if (e.pending.length === 0) return e.chain;
    const lines = e.pending;
    e.pending = [];
    return this.enqueue(e, 'save samples', async () => {
      try {
        await appendLines(join(e.dir, SAMPLES_FILE), lines.map((l) => JSON.stringify(l)));
      } catch (err) {
        e.lostToErrors += lines.filter((l) => 's' in l).length;
        throw err;
      }
      e.diskBytes = await recordBytes(e.dir);
    }).then(() => undefined);
  }

  private writeMeta(e: Entry): void {
    if (e.metaQueued) return;
    e.metaQueued = true;
    // Coalesced: whatever the record is when the write runs is what gets written.
    void this.enqueue(e, 'save meta.json', async () => {
      e.metaQueued = false;
      await writeJsonAtomic(join(e.dir, META_FILE), e.record);
      e.diskBytes = await recordBytes(e.dir);
    });
  }

  /** Runs `task` after the run's earlier writes; a failure is reported, never thrown. */
  private enqueue<T>(e: Entry, what: string, task: () => Promise<T>): Promise<T | null> {
    const result = e.chain.then(task).then(
      (v) => v,
      (err: unknown) => {
        this.warnOnce(e, what, `run ${e.record.run.id}: could not ${what} (${errorText(err)}); the server goes on, the record may be incomplete`);
        return null;
      },
    );
    e.chain = result.then(() => undefined);
    return result;
  }

  /**
   * Deletes the oldest ended runs until both the run count and the byte budget are kept, sparing
   * runs that ended less than `minAgeMs` ago (the limits may then be passed for a while).
   */
  private async enforceRetention(minAgeMs: number): Promise<void> {
    const youngest = Date.now() - minAgeMs;
    const ended = [...this.entries.values()]
      .filter((e) => isFinalStatus(e.record.run.status) && (e.record.endedAt ?? e.record.run.queuedAt) <= youngest)
      .sort((a, b) => (a.record.endedAt ?? a.record.run.queuedAt) - (b.record.endedAt ?? b.record.run.queuedAt));
    let { runs, bytes } = this.storage();
    const doomed: Entry[] = [];
    for (const e of ended) {
      if (runs <= this.opts.keepRuns && bytes <= this.opts.keepBytes) break;
      doomed.push(e);
      runs -= 1;
      bytes -= e.diskBytes;
    }
    await Promise.all(doomed.map((e) => this.remove(e.record.run.id)));
  }

  private warnOnce(e: Entry, key: string, message: string): void {
    if (e.failedWrites.has(key)) return;
    e.failedWrites.add(key);
    this.warn(message);
  }

  private warn(message: string): void {
    (this.opts.log ?? ((m: string) => console.warn(`[history] ${m}`)))(message);
    this.warningList.push(message);
    if (this.warningList.length > MAX_WARNINGS) this.warningList.shift();
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Temp files of an atomic write that a crash interrupted: never the record itself, so they go. */
async function removeTempFiles(dir: string): Promise<void> {
  try {
    for (const name of await readdir(dir)) if (name.includes('.tmp-')) await rm(join(dir, name), { force: true });
  } catch {
    // Unreadable directory: readMeta reports it.
  }
}
