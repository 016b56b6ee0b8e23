/**
 * Recorded runs: the in-memory index (listing 500 runs reads no file) over the per-run records on
 * disk. Each run's writes go through its RecordWriter (record-writer.ts), reading back at startup
 * is recovery.ts, which runs to delete is retention.ts. Sample lines are buffered and appended
 * about once a second. A failed write (disk full, permissions) is logged and listed in
 * `warnings()`; it never throws into the queue.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { isFinalStatus, labReadings, toListItem, type Observed, type RunDetail, type RunListItem, type RunRecord } from '../../lib/history';
import { type ProcSample, type RunState, type RunStatus, type Sample } from '../../lib/protocol';
import { RecordWriter } from './record-writer';
import { loadRecords } from './recovery';
import { chooseForDeletion } from './retention';
import { boundSeries, foldMax, foldPeaks, Thinning } from '../../lib/series';
import { labOf } from '../../lib/labs';

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

/** Retention spares runs younger than this while the server runs: a flood can't flush history. */
export const MIN_AGE_MS = 10 * 60_000;
/** Warnings kept for the page; the oldest go first. */
const MAX_WARNINGS = 50;

interface Entry {
  record: RunRecord;
  writer: RecordWriter;
  samples: Thinning;
  proc: Thinning;
  observed: Observed;
}

const emptyObserved = (): Observed => ({
  peak: null,
  procPeakRss: null,
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
    for (const { record, dir, diskBytes } of await loadRecords(opts.dir, (m) => store.warn(m))) {
      store.entries.set(record.run.id, store.newEntry(record, dir, diskBytes));
    }
    // At startup every run is old enough: the limits are what they say.
    await store.enforceRetention(0);
    return store;
  }

  private newEntry(record: RunRecord, dir: string, diskBytes: number): Entry {
    const entry: Entry = {
      record,
      writer: new RecordWriter(
        dir,
        diskBytes,
        () => entry.record,
        (m) => this.warn(m),
      ),
      samples: new Thinning(),
      proc: new Thinning(),
      observed: emptyObserved(),
    };
    return entry;
  }

  /** Newest first, optionally only one lab, one strategy, one status and/or one browser's runs (owner: its public id). */
  list(filter: { lab?: string | null; strategy?: string | null; outcome?: RunStatus | null; owner?: string | null } = {}): RunListItem[] {
    const out: RunListItem[] = [];
    for (const e of this.entries.values()) {
      if (filter.lab && labOf(e.record.run) !== filter.lab) continue;
      if (filter.strategy && e.record.run.strategy !== filter.strategy) continue;
      if (filter.outcome && e.record.run.status !== filter.outcome) continue;
      if (filter.owner && e.record.experiment?.owner?.id !== filter.owner) continue;
      out.push(toListItem(e.record, e.writer.diskBytes));
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
    for (const e of this.entries.values()) bytes += e.writer.diskBytes;
    return { runs: this.entries.size, bytes, keepRuns: this.opts.keepRuns, keepBytes: this.opts.keepBytes };
  }

  record(id: string): RunRecord | null {
    return this.entries.get(id)?.record ?? null;
  }

  /** The records of an experiment's runs, in no particular order. */
  experimentRecords(experimentId: string): RunRecord[] {
    return [...this.entries.values()].filter((e) => e.record.run.experimentId === experimentId).map((e) => e.record);
  }

  /** The record with its series (stored plus not yet flushed), thinned to at most `points` samples. */
  async read(id: string, points: number): Promise<RunDetail | null> {
    const e = this.entries.get(id);
    if (!e) return null;
    const series = await e.writer.read();
    if (!series) return null;
    for (const line of e.writer.unflushed()) {
      if ('s' in line) series.samples.push(line.s);
      else series.proc.push(line.p);
    }
    for (const w of series.warnings) e.writer.warnOnce(`read:${w}`, `run ${id}: ${w}`);
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

  /** Starts a record (directory and meta.json) for a run that left the queue. */
  begin(record: RunRecord): void {
    const e = this.newEntry(record, join(this.opts.dir, record.run.id), 0);
    this.entries.set(record.run.id, e);
    e.writer.create();
    e.writer.writeMeta();
  }

  /** The queue's latest view of the run (status, pid, start time). */
  update(run: RunState): void {
    const e = this.entries.get(run.id);
    if (!e || isFinalStatus(e.record.run.status)) return;
    e.record = { ...e.record, run };
    e.writer.writeMeta();
  }

  appendSample(runId: string, sample: Sample): void {
    const e = this.entries.get(runId);
    if (!e) return;
    const o = e.observed;
    o.peak = foldPeaks(o.peak, sample);
    o.readings = labReadings(sample);
    o.lastT = sample.t;
    if (e.samples.take()) e.writer.push({ s: sample });
  }

  appendProc(runId: string, proc: ProcSample): void {
    const e = this.entries.get(runId);
    if (!e) return;
    e.observed.procPeakRss = foldMax(e.observed.procPeakRss, proc.rss);
    if (e.proc.take()) e.writer.push({ p: proc });
  }

  /** Stores a profiled run's CPU profile beside its record (before the run's end is written). */
  saveProfile(runId: string, profile: unknown): void {
    void this.entries.get(runId)?.writer.writeProfile(profile);
  }

  /** Stores one of a run's other files (its heap profile, a snapshot) beside its record. */
  saveFile(runId: string, name: string, data: Buffer): void {
    void this.entries
      .get(runId)
      ?.writer.writeRunFile(name, data)
      .catch((err: Error) => console.error(`run ${runId}: ${err.message}`));
  }

  /** One of a run's stored files, or null when there is no such run or file. */
  async file(id: string, name: string): Promise<Buffer | null> {
    return (await this.entries.get(id)?.writer.readRunFile(name)) ?? null;
  }

  /** A run's stored CPU profile (JSON text), or null when there is no such run or it was not profiled. */
  async profile(id: string): Promise<string | null> {
    return (await this.entries.get(id)?.writer.readProfile()) ?? null;
  }

  /** The run ended: writes its last samples, then its summary, then applies retention. */
  async end(run: RunState, endedAt: number): Promise<void> {
    const e = this.entries.get(run.id);
    if (!e) return;
    const w = e.writer;
    await w.flush();
    const notes = [...e.record.notes];
    if (w.dropped > 0) notes.push(`${w.dropped} samples were not saved: the disk did not keep up.`);
    if (w.lostToErrors > 0) notes.push(`${w.lostToErrors} samples were not saved because a write failed (see warnings).`);
    e.record = {
      ...e.record,
      run,
      endedAt,
      observed: { ...e.observed, sampleCount: e.samples.kept - w.dropped - w.lostToErrors, procCount: e.proc.kept },
      notes,
    };
    w.writeMeta();
    await w.settled();
    await this.enforceRetention(this.opts.minAgeMs ?? MIN_AGE_MS);
  }

  /** Deletes a finished run's record; a run still going cannot be deleted. */
  async remove(id: string): Promise<'removed' | 'not-found' | 'active'> {
    const e = this.entries.get(id);
    if (!e) return 'not-found';
    if (!isFinalStatus(e.record.run.status)) return 'active';
    this.entries.delete(id);
    await e.writer.remove();
    return 'removed';
  }

  /** Forgets a run that never started (its record says nothing), whatever its status. */
  async discard(id: string): Promise<void> {
    const e = this.entries.get(id);
    if (!e) return;
    this.entries.delete(id);
    await e.writer.remove();
  }

  /** Writes every buffered line now (shutdown, tests). */
  async flushAll(): Promise<void> {
    await Promise.all([...this.entries.values()].map((e) => e.writer.flush()));
  }

  /** Stops the timer after writing what is buffered. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flushAll();
    await Promise.all([...this.entries.values()].map((e) => e.writer.settled()));
  }

  /** Deletes the oldest ended runs past the limits (retention.ts decides which). */
  private async enforceRetention(minAgeMs: number): Promise<void> {
    const candidates = [...this.entries.values()].map((e) => ({
      id: e.record.run.id,
      final: isFinalStatus(e.record.run.status),
      endedAt: e.record.endedAt ?? e.record.run.queuedAt,
      diskBytes: e.writer.diskBytes,
    }));
    const doomed = chooseForDeletion(candidates, this.opts, Date.now() - minAgeMs);
    await Promise.all(doomed.map((id) => this.remove(id)));
  }

  private warn(message: string): void {
    (this.opts.log ?? ((m: string) => console.warn(`[history] ${m}`)))(message);
    this.warningList.push(message);
    if (this.warningList.length > MAX_WARNINGS) this.warningList.shift();
  }
}
