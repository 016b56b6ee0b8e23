/**
 * A run's files (its CPU profile, heap profile and heap snapshots) from the worker that ran it to
 * every web server's history. They are too big for the capped event stream (a snapshot is tens of
 * MB), so the worker writes a file's bytes to Redis in chunks, each under its own key with a TTL
 * (RUN_FILES: nothing stays in Redis), then appends one small 'file' event naming them, before the
 * run's 'ended' event. Each web server reads the chunks back in stream order, one file at a time,
 * checks the length and the sha256, and hands the file to its listeners as the in-process queue
 * does (runProfile with the parsed profile, runFile for the others). A file over the limit, a
 * missing (expired) or altered chunk is said on the console and skipped, never thrown.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { PROFILE_FILE, isRunFileName } from '../store/record-files';
import type { FileEvent, RunEvent } from './events';
import { KEYS, RUN_FILES, type RunFileLimits } from './redis-config';
import type { RunMirror } from './run-mirror';

const mb = (bytes: number) => (bytes < 1024 * 1024 ? `${bytes} bytes` : `${(bytes / (1024 * 1024)).toFixed(1)} MB`);

/**
 * Worker side: writes the file's chunks (one at a time: the connection holds at most one chunk
 * beyond the file) and returns the event that names them, for the caller to append. Throws when
 * the file is over the limit or Redis refuses a chunk (away: the fail-fast connection refuses at
 * once, nothing is queued).
 */
export async function sendRunFile(redis: Redis, runId: string, name: string, data: Buffer, limits: RunFileLimits = RUN_FILES): Promise<FileEvent> {
  if (!isRunFileName(name)) throw new RangeError(`"${name}" is not a file a run record may hold`);
  if (data.length > limits.maxBytes) throw new RangeError(`${name} is ${mb(data.length)}, over the ${mb(limits.maxBytes)} a worker sends through Redis`);
  const transfer = randomBytes(16).toString('hex');
  const hash = createHash('sha256');
  const chunks = Math.ceil(data.length / limits.chunkBytes);
  for (let i = 0; i < chunks; i++) {
    const chunk = data.subarray(i * limits.chunkBytes, (i + 1) * limits.chunkBytes);
    hash.update(chunk);
    await redis.set(KEYS.fileChunk(runId, transfer, i), chunk, 'PX', limits.ttlMs);
  }
  return { t: 'file', runId, name, transfer, bytes: data.length, chunkBytes: limits.chunkBytes, chunks, sha256: hash.digest('hex') };
}

export type Received = { ok: true; data: Buffer } | { ok: false; why: string };

/**
 * Web server side: the file's bytes, read chunk by chunk into one buffer of the announced size
 * (each read asks for no more than the chunk should hold, so a tampered, longer chunk never costs
 * more memory), or why not. Refused before any read when over the limits.
 */
export async function fetchRunFile(redis: Redis, event: FileEvent, limits: RunFileLimits = RUN_FILES): Promise<Received> {
  if (event.bytes > limits.maxBytes) return { ok: false, why: `it is ${mb(event.bytes)}, over the ${mb(limits.maxBytes)} a web server takes from Redis` };
  if (event.chunkBytes > limits.maxChunkBytes || event.chunks !== Math.ceil(event.bytes / event.chunkBytes))
    return { ok: false, why: `its chunks (${event.chunks} of ${event.chunkBytes} bytes for ${event.bytes}) are not ones this server reads` };
  const data = Buffer.allocUnsafe(event.bytes);
  const hash = createHash('sha256');
  for (let i = 0; i < event.chunks; i++) {
    const at = i * event.chunkBytes;
    const want = Math.min(event.chunkBytes, event.bytes - at);
    const chunk = await redis.getrangeBuffer(KEYS.fileChunk(event.runId, event.transfer, i), 0, want - 1);
    if (chunk.length !== want) {
      const what = chunk.length === 0 ? 'is missing (expired, or Redis lost it)' : `holds ${chunk.length} of its ${want} bytes`;
      return { ok: false, why: `chunk ${i + 1} of ${event.chunks} ${what}` };
    }
    chunk.copy(data, at);
    hash.update(chunk);
  }
  const sha256 = hash.digest('hex');
  if (sha256 !== event.sha256) return { ok: false, why: `its sha256 is ${sha256}, not the ${event.sha256} its worker sent (altered in Redis)` };
  return { ok: true, data };
}

/**
 * A web server's reader of the event stream: every event goes to its RunMirror, a file event
 * first through fetchRunFile. Files are fetched one at a time, in stream order (the server holds
 * at most one in memory for this), while the other events go on at once, so a big snapshot never
 * stalls the pages' samples.
 *
 * Ordering: the worker appends a run's files before its 'ended' event, and here a run's 'ended'
 * waits behind the files of that run still being fetched. So the history has the files queued
 * (RecordWriter: one write chain per run, reads behind writes) before it writes the run's end,
 * and a page opened once the run shows ended finds them. The store would also take a file after
 * the end (its entry stays), so a file late by another path (an end learnt from BullMQ's job
 * result after an outage) is still kept; it only arrives after the page first looked.
 */
export class FileRelay {
  private chain: Promise<void> = Promise.resolve();
  /** Files announced but not yet handed on, by run. */
  private readonly pending = new Map<string, number>();
  private stopped = false;

  constructor(
    private readonly redis: Redis,
    private readonly mirror: RunMirror,
    private readonly log: (line: string) => void,
    private readonly limits: RunFileLimits = RUN_FILES,
  ) {}

  apply(event: RunEvent): void {
    if (event.t === 'file') return this.receive(event);
    if (event.t === 'ended' && this.pending.has(event.run.id)) return this.later(() => this.mirror.apply(event));
    this.mirror.apply(event);
  }

  /** Resolves once every file announced so far has been handed on or skipped (tests, shutdown). */
  settled(): Promise<void> {
    return this.chain;
  }

  /** No more files are fetched (the server is closing); those waiting are skipped quietly. */
  stop(): void {
    this.stopped = true;
  }

  private receive(event: FileEvent): void {
    // A run this server never heard of has no record here to hold the file.
    if (!this.mirror.book.runs.has(event.runId)) return;
    const { runId } = event;
    this.pending.set(runId, (this.pending.get(runId) ?? 0) + 1);
    this.later(async () => {
      try {
        if (!this.stopped) await this.handOn(event);
      } finally {
        const left = (this.pending.get(runId) ?? 1) - 1;
        if (left > 0) this.pending.set(runId, left);
        else this.pending.delete(runId);
      }
    });
  }

  private later(task: () => void | Promise<void>): void {
    this.chain = this.chain.then(task).catch((err: unknown) => this.log(`run files: ${err instanceof Error ? err.message : String(err)}`));
  }

  private async handOn(event: FileEvent): Promise<void> {
    const { runId, name } = event;
    const got = await fetchRunFile(this.redis, event, this.limits).catch((err: unknown): Received => ({
      ok: false,
      why: `Redis did not answer (${err instanceof Error ? err.message : String(err)})`,
    }));
    if (!got.ok) return this.log(`run ${runId}: ${name} from its worker skipped: ${got.why}`);
    if (name !== PROFILE_FILE) return this.mirror.emit((l) => l.runFile?.(runId, name, got.data));
    let profile: unknown;
    try {
      profile = JSON.parse(got.data.toString('utf8'));
    } catch {
      return this.log(`run ${runId}: ${name} from its worker skipped: not JSON`);
    }
    this.mirror.emit((l) => l.runProfile?.(runId, profile));
  }
}
