/**
 * The heap side of an inspected run: reads the sampling heap profile every few seconds while the
 * run goes (shown live as `heapProfile`), and takes heap snapshots — when the run's trigger is met
 * (params.heapSnapshot) or a person asks ("Snapshot now") — then has them analysed off the main
 * thread (server/heap/snapshot-analysis.ts). Each snapshot is shown live in `heapSnapshots` and
 * kept in the summary; its file goes to the run's record, compressed.
 *
 * An `at=` trigger fires on this process's clock, a timer from the strategy's start, not on the
 * run's samples: those come from the run's main thread and stop while a computation holds it
 * (at=1 during a report that held the loop from 0.05 to 1.73 s fired at 1.74 s). The inspector
 * still answers then, and V8 takes the snapshot in the middle of the computation.
 */
import { createReadStream } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGzip } from 'node:zlib';
import { describeTrigger, parseSnapshotTrigger, triggerMet, type SnapshotTrigger } from '../../lib/heap/trigger';
import { MIB } from '../../lib/protocol/params';
import type { HeapProfileSummary, HeapSnapshotSummary, LiveUpdate, ProcSample, Sample } from '../../lib/protocol';
import { analyzeSnapshot } from '../heap/snapshot-analysis';
import type { Inspection } from './inspection';
import { snapshotBefore } from './snapshot-before';

/** How often the live heap profile is read: each read walks V8's sample tree (a few ms). The first comes sooner. */
export const HEAP_PROFILE_EVERY_MS = 3000;
const FIRST_HEAP_PROFILE_MS = 1000;
/** Snapshots a run may take: each pauses it and is stored. */
export const MAX_SNAPSHOTS = 5;
/** An analysis that takes longer is given up (565 MB took 20 s here: docs/results.md §17). */
const ANALYSIS_TIMEOUT_MS = 120_000;
/** A snapshot's own memory in the run's process, as measured: this many times heapUsed, plus SNAPSHOT_COST_FIXED. */
export const SNAPSHOT_COST_PER_HEAP = 5;
export const SNAPSHOT_COST_FIXED = 40 * MIB;
/** The file name of a run's nth snapshot in its record (served decompressed as .heapsnapshot). */
export const snapshotFileName = (n: number) => `snapshot-${n}.heapsnapshot.gz`;
export const HEAP_PROFILE_FILE = 'heap.heapprofile';

export interface HeapWatchHooks {
  inspection: Inspection;
  params: { heapProfile?: boolean; heapIntervalKb?: number; heapSnapshot?: string; budgetMb: number | null; sampleMs: number | null };
  /** ms since the strategy started (null before it has). */
  now(): number | null;
  /** The run's last sample, its latest /proc reading (since the strategy started) and RSS, for the budget check and the "before" figures. */
  last(): { sample: Sample | null; proc: ProcSample | null; rss: number };
  live(update: LiveUpdate): void;
  file(name: string, data: Buffer): void;
}

export class HeapWatch {
  readonly snapshots: HeapSnapshotSummary[] = [];
  heapProfile: HeapProfileSummary | undefined = undefined;
  private readonly trigger: SnapshotTrigger | null;
  private triggered = false;
  private timer: NodeJS.Timeout | undefined;
  private atTimer: NodeJS.Timeout | undefined;
  private taking: Promise<unknown> = Promise.resolve();
  private ended = false;
  /** Snapshots taken (refusals don't count). */
  private taken = 0;

  constructor(private readonly hooks: HeapWatchHooks) {
    this.trigger = hooks.params.heapSnapshot ? parseSnapshotTrigger(hooks.params.heapSnapshot) : null;
  }

  /** The strategy started: an `at=` trigger's timer and live heap profile reads begin. */
  started(): void {
    if (this.trigger?.kind === 'at') {
      const dueMs = this.trigger.seconds * 1000 - (this.hooks.now() ?? 0);
      this.atTimer = setTimeout(() => this.fire(), Math.max(0, dueMs));
    }
    if (!this.hooks.params.heapProfile) return;
    const tick = async () => {
      const at = this.hooks.now();
      const r = at === null ? null : await this.hooks.inspection.readHeapProfile(at);
      if (this.ended) return;
      if (r && !r.summary.error) this.hooks.live({ append: {}, set: { heapProfile: r.summary } });
      this.timer = setTimeout(() => void tick(), HEAP_PROFILE_EVERY_MS);
    };
    this.timer = setTimeout(() => void tick(), FIRST_HEAP_PROFILE_MS);
  }

  /** Each sample: takes the run's snapshot once its `when=` trigger is met. */
  sample(s: Sample): void {
    if (this.trigger?.kind === 'when' && triggerMet(this.trigger, s)) this.fire();
  }

  /** Each /proc reading of the run's RSS: a `when=rss>` trigger is met there too, while the run's samples are held up. */
  procRss(rss: number): void {
    if (this.trigger?.kind === 'when' && this.trigger.figure === 'rss' && rss > this.trigger.above) this.fire();
  }

  private fire(): void {
    if (this.triggered || this.ended || !this.trigger) return;
    this.triggered = true;
    // The trigger's snapshot is recorded even when refused: the run asked for it, and it happens once.
    void this.take(describeTrigger(this.trigger), true);
  }

  /**
   * Takes a snapshot now and resolves with its summary (a refusal or failure is the summary's
   * error). Snapshots queue: one at a time. A person's refusal (`recordRefusal` false) is only
   * answered, never recorded: asking again and again must not grow the run's summary.
   */
  take(trigger: string, recordRefusal = false): Promise<HeapSnapshotSummary> {
    const next = this.taking.then(() => this.takeOne(trigger, recordRefusal));
    this.taking = next.catch(() => undefined);
    return next;
  }

  private async takeOne(trigger: string, recordRefusal: boolean): Promise<HeapSnapshotSummary> {
    const { sample, proc, rss } = this.hooks.last();
    const before = snapshotBefore(sample, proc, Date.now(), this.hooks.params.sampleMs);
    const entry: HeapSnapshotSummary = { n: 0, trigger, atMs: this.hooks.now() ?? 0, pauseMs: 0, before, bytes: 0, analysis: null, error: null };
    // After the run's end nothing is recorded: the summary is being written.
    if (this.ended) return { ...entry, error: 'the run has ended' };
    // The heap now if it was read (mid-block, by the watcher thread), else the last sample's: the best known.
    const refusal = this.refusal(rss, before?.heapUsed ?? sample?.heapUsed ?? 0);
    if (refusal) return recordRefusal ? this.record({ ...entry, n: this.snapshots.length + 1, error: refusal }) : { ...entry, error: refusal };
    entry.n = this.snapshots.length + 1;
    this.taken += 1;
    let dir: string | null = null;
    try {
      dir = await mkdtemp(join(tmpdir(), 'stream-lab-heap-'));
      const file = join(dir, 'run.heapsnapshot');
      const { bytes, pauseMs } = await this.hooks.inspection.snapshot(file);
      entry.bytes = bytes;
      entry.pauseMs = Math.round(pauseMs);
      try {
        entry.analysis = await analyzeOneAtATime(file);
      } catch (err) {
        entry.error = (err as Error).message;
      }
      const gz = await gzipFile(file);
      try {
        this.hooks.file(snapshotFileName(entry.n), gz);
      } catch (err) {
        entry.error ??= `the snapshot file was not kept: ${(err as Error).message}`;
      }
    } catch (err) {
      entry.error = `no snapshot: ${(err as Error).message}`;
    } finally {
      if (dir) await rm(dir, { recursive: true, force: true });
    }
    return this.record(entry);
  }

  /** Why a snapshot can't be taken now (null: it can). */
  private refusal(rss: number, heapUsed: number): string | null {
    if (this.taken >= MAX_SNAPSHOTS) return `a run keeps at most ${MAX_SNAPSHOTS} snapshots`;
    const { budgetMb } = this.hooks.params;
    // V8 builds the snapshot in the run's own process. Measured (docs/results.md §17): RSS rose
    // 28–440 MB over the moment before, up to 5× heapUsed + 40 MB (an HTTP run: heapUsed 81 MB,
    // +440 MB): that is what the budget must leave room for.
    const need = SNAPSHOT_COST_PER_HEAP * heapUsed + SNAPSHOT_COST_FIXED;
    if (budgetMb !== null && rss + need > budgetMb * MIB) {
      return `refused: a snapshot needs memory of its own in the run's process (about ${mb(need)} here: 5× heapUsed + 40 MB, measured); with RSS at ${mb(rss)} it would pass the run's ${budgetMb} MB budget`;
    }
    return null;
  }

  private record(entry: HeapSnapshotSummary): HeapSnapshotSummary {
    this.snapshots.push(entry);
    this.hooks.live({ append: { heapSnapshots: [entry] }, set: {} });
    return entry;
  }

  /**
   * The run is ending: no more reads or snapshots. Returns at once: a capture under way is waited
   * for by the inspection's stop (its queue), an analysis by `settled`, after the child is gone.
   */
  stopTaking(): void {
    this.ended = true;
    clearTimeout(this.timer);
    clearTimeout(this.atTimer);
  }

  /** Resolves once every snapshot asked for has been analysed and recorded. */
  async settled(): Promise<void> {
    await this.taking;
  }
}

/**
 * Analyses run in the server's own process (a worker thread each, up to ~2.5× the file in
 * memory): one at a time across all runs, so a parallel experiment's snapshots can't stack up.
 */
let analysing: Promise<unknown> = Promise.resolve();
function analyzeOneAtATime(file: string): ReturnType<typeof analyzeSnapshot> {
  const next = analysing.then(
    () => analyzeSnapshot(file, { timeoutMs: ANALYSIS_TIMEOUT_MS }),
    () => analyzeSnapshot(file, { timeoutMs: ANALYSIS_TIMEOUT_MS }),
  );
  analysing = next.catch(() => undefined);
  return next;
}

/** A snapshot's temp folder older than this was left by a server that died mid-snapshot. */
const STALE_TEMP_MS = 60 * 60_000;

/**
 * Removes snapshot temp folders a killed server left behind (hundreds of MB each). Only old ones:
 * another server on this machine may be writing a fresh one now.
 */
export async function removeStaleSnapshotDirs(now = Date.now()): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await readdir(tmpdir()).catch(() => [] as string[])) {
    if (!name.startsWith('stream-lab-heap-')) continue;
    const dir = join(tmpdir(), name);
    const st = await stat(dir).catch(() => null);
    if (!st?.isDirectory() || now - st.mtimeMs < STALE_TEMP_MS) continue;
    await rm(dir, { recursive: true, force: true });
    removed.push(dir);
  }
  return removed;
}

const mb = (bytes: number) => `${Math.round(bytes / MIB)} MB`;

async function gzipFile(file: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await new Promise<void>((resolve, reject) => {
    const gz = createGzip({ level: 6 });
    gz.on('data', (c: Buffer) => chunks.push(c));
    gz.on('end', resolve);
    gz.on('error', reject);
    createReadStream(file).on('error', reject).pipe(gz);
  });
  return Buffer.concat(chunks);
}
