/**
 * The Redis back end's names and settings, one place for web servers and workers: the BullMQ
 * queue, the event stream workers write and web servers read, the stop channel, and how soon a
 * silent worker's run is given up (BullMQ's lock and stalled-job check).
 */
import { Redis } from 'ioredis';
import { readIntSetting } from '../env';

/** The BullMQ queue every web server adds to and every worker takes from. */
export const QUEUE_NAME = 'stream-lab-runs';
/** Keys of our own (BullMQ's live under `bull:`). */
export const KEYS = {
  /** Redis stream of run events (created, updated, samples, ended), capped (MAXLEN ~). */
  events: 'stream-lab:events',
  /** Pub/sub channel: stop a run wherever it is. */
  stops: 'stream-lab:stops',
  /** A run stopped before a worker took it: the worker skips it. */
  stopped: (runId: string) => `stream-lab:stopped:${runId}`,
  /** sha256 of each data file made by the first worker that made it (size:seed → hex). */
  dataSha: 'stream-lab:data-sha256',
  /** One chunk of a run's file on its way from a worker to the web servers (server/scale/run-files.ts); it expires. */
  fileChunk: (runId: string, transfer: string, i: number) => `stream-lab:file:${runId}:${transfer}:${i}`,
} as const;

/**
 * A run's files (CPU profile, heap profile, snapshots) go through Redis beside the stream, not in
 * it: chunks of `chunkBytes` under their own keys, each kept `ttlMs` (long enough for every web
 * server to read them, short enough that nothing stays), and one small event naming them. A file
 * over `maxBytes` is not sent (the worker says so), nor read by a web server.
 */
export const RUN_FILES = {
  chunkBytes: 1024 * 1024,
  /** The largest chunk a web server reads (a worker of another version may cut them otherwise). */
  maxChunkBytes: 8 * 1024 * 1024,
  maxBytes: 512 * 1024 * 1024,
  ttlMs: 15 * 60_000,
} as const;
export type RunFileLimits = { chunkBytes: number; maxChunkBytes: number; maxBytes: number; ttlMs: number };

/**
 * Events kept in the stream: at ~20 samples a second per run, about a minute and a half of 8 runs
 * at once, plenty for a web server that blinks; older events are trimmed, so Redis memory is bounded.
 */
export const EVENTS_MAX_LEN = 20_000;

/** How long a worker that stops answering keeps its job's lock (then the run ends interrupted). */
export const LOCK = { env: 'STREAM_LAB_WORKER_LOCK_MS', min: 1000, max: 600_000, default: 30_000 } as const;

export function readLockMs(env: Record<string, string | undefined> = process.env): number {
  return readIntSetting(LOCK, env);
}

/** STREAM_LAB_REDIS_URL, checked: null when unset (the in-process queue is used). */
export function readRedisUrl(env: Record<string, string | undefined> = process.env): string | null {
  const raw = env.STREAM_LAB_REDIS_URL;
  if (raw === undefined || raw === '') return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RangeError(`STREAM_LAB_REDIS_URL must be a URL like redis://127.0.0.1:6379 (got "${raw}")`);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new RangeError(`STREAM_LAB_REDIS_URL must start with redis:// or rediss:// (got "${url.protocol}//")`);
  }
  return raw;
}

/** The URL as it may be shown: password hidden. */
export function describeRedis(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString().replace(/\/$/, '');
}

const retryStrategy = (times: number) => Math.min(200 * times, 2000);

/**
 * A connection that fails a command at once while Redis is away, instead of queueing it in memory
 * without bound (ioredis' offline queue): what publishes samples and answers the page.
 */
export function failFastConnection(url: string): Redis {
  return new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, retryStrategy });
}

/** A connection for blocking reads (the event stream, pub/sub): it waits for Redis to come back. */
export function patientConnection(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, retryStrategy });
}

/** BullMQ's connection options (it makes its own connections from them). */
export function bullConnection(url: string) {
  return { url, maxRetriesPerRequest: null, retryStrategy };
}

/** Resolves once the connection is ready (a fail-fast connection refuses commands before). */
export function whenReady(redis: Redis): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => redis.once('ready', () => resolve()));
}
