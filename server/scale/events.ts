/**
 * Run events on Redis: workers (and web servers, for what they decide) append them to one capped
 * stream; every web server reads it in order and replays each event into its own listeners (hub,
 * history), exactly as the in-process queue would report it. Each event is checked against the
 * protocol's schemas when read: whatever is in Redis is data, not trusted code.
 */
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { dataStatusSchema, experimentSchema, runStateSchema, summarySchema } from '../../lib/protocol';
import { liveUpdateSchema, procSampleSchema, sampleSchema } from '../../lib/protocol/common';
import { runIdSchema } from '../../lib/history';
import { isRunFileName } from '../store/record-files';
import { EVENTS_MAX_LEN, KEYS } from './redis-config';

/** One BullMQ job: the runs that start together (one run, or a whole parallel experiment). */
export const jobSchema = z.object({ id: z.string(), runIds: z.array(z.string()).min(1), priority: z.number() });
export type JobInfo = z.infer<typeof jobSchema>;

/**
 * One of a run's files, sent by its worker in chunks under KEYS.fileChunk(runId, transfer, i)
 * (server/scale/run-files.ts): only what names and checks them travels in the stream. The name is
 * one a record may hold (it becomes a path in every web server's history).
 */
export const fileEventSchema = z
  .object({
    t: z.literal('file'),
    runId: runIdSchema,
    name: z.string().max(64).refine(isRunFileName, { error: 'not a file a run record may hold' }),
    /** Random, per file sent: its chunks' keys. */
    transfer: z.string().regex(/^[0-9a-f]{32}$/),
    bytes: z.number().int().nonnegative(),
    chunkBytes: z.number().int().positive(),
    chunks: z.number().int().nonnegative(),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
  })
  .refine((e) => e.chunks === Math.ceil(e.bytes / e.chunkBytes), { error: 'chunks does not match bytes and chunkBytes' });
export type FileEvent = z.infer<typeof fileEventSchema>;

export const runEventSchema = z.discriminatedUnion('t', [
  z.object({ t: z.literal('experiment'), experiment: experimentSchema, runs: z.array(runStateSchema), jobs: z.array(jobSchema) }),
  z.object({ t: z.literal('run'), run: runStateSchema }),
  z.object({ t: z.literal('sample'), runId: z.string(), sample: sampleSchema }),
  z.object({ t: z.literal('proc'), runId: z.string(), proc: procSampleSchema }),
  z.object({ t: z.literal('live'), runId: z.string(), update: liveUpdateSchema }),
  z.object({ t: z.literal('ended'), run: runStateSchema, summary: summarySchema }),
  z.object({ t: z.literal('data'), status: dataStatusSchema }),
  fileEventSchema,
]);
export type RunEvent = z.infer<typeof runEventSchema>;
/** What a web server's RunMirror applies: every event but a file, which run-files.ts fetches and hands on first. */
export type MirrorEvent = Exclude<RunEvent, { t: 'file' }>;

type XReadReply = Array<[string, Array<[string, string[]]>]> | null;

/** Appends one event; the stream keeps about EVENTS_MAX_LEN (trimmed as it grows). */
export async function appendEvent(redis: Redis, event: RunEvent): Promise<string> {
  const id = await redis.xadd(KEYS.events, 'MAXLEN', '~', String(EVENTS_MAX_LEN), '*', 'e', JSON.stringify(event));
  return id ?? '';
}

/** The id of the newest event, or '0-0' for an empty stream: reading from it yields only later events. */
export async function lastEventId(redis: Redis): Promise<string> {
  const last = await redis.xrevrange(KEYS.events, '+', '-', 'COUNT', 1);
  return last[0]?.[0] ?? '0-0';
}

/**
 * Reads events after `fromId` in order until stopped, calling `apply` for each valid one (an
 * invalid one is reported and skipped). While Redis is away the read waits and resumes after the
 * last event applied, so a short outage loses nothing the stream still holds.
 */
export function readEvents(redis: Redis, fromId: string, apply: (event: RunEvent) => void, onBadEvent: (why: string) => void): { stop(): Promise<void> } {
  let lastId = fromId;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      let reply: XReadReply = null;
      try {
        reply = (await redis.xread('COUNT', 500, 'BLOCK', 1000, 'STREAMS', KEYS.events, lastId)) as XReadReply;
      } catch {
        if (!stopped) await new Promise((r) => setTimeout(r, 500));
        continue;
      }
      for (const [, entries] of reply ?? []) {
        for (const [id, fields] of entries) {
          lastId = id;
          const parsed = parseEvent(fields);
          if (parsed.success) apply(parsed.data);
          else onBadEvent(parsed.why);
        }
      }
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
    },
  };
}

function parseEvent(fields: string[]): { success: true; data: RunEvent } | { success: false; why: string } {
  const raw = fields[fields.indexOf('e') + 1];
  try {
    const parsed = runEventSchema.safeParse(JSON.parse(raw ?? ''));
    return parsed.success ? { success: true, data: parsed.data } : { success: false, why: parsed.error.message.slice(0, 200) };
  } catch {
    return { success: false, why: 'not JSON' };
  }
}
