/**
 * Messages between the runner (parent) and one run's child process, over IPC with advanced
 * serialization. The parent validates what it receives (parseChildMessage) before trusting it; the
 * child validates its config (config.ts). The child imports only types from here: zod stays out
 * of its process.
 */
import { z } from 'zod';
import { liveUpdateSchema, memorySchema, sampleSchema } from '../../lib/protocol/common';

/** Passed to the child as its single argv argument (JSON); checked by parseChildConfig. */
export interface ChildConfig {
  /** Module paths under the child build (no extension), e.g. "labs/<lab>/child/scenario". */
  scenarioModule: string;
  /** A built-in strategy's module under the child build, or "user/<sha256>": a strategy of yours, bundled in .build/user/. */
  strategyModule: string;
  /** The lab's part, checked by its scenario. */
  scenario: Record<string, unknown>;
  /** null: sampler off, only the final reading is sent. */
  sampleMs: number | null;
  retained: boolean;
  /** Open the inspector for the runner's CPU profiler (server/child/inspect.ts); absent = no. */
  profile?: boolean;
  /** A fenced run in namespaces of its own: name what its strategy tries beyond them (fence-guard.ts); absent = no. */
  guard?: boolean;
  /** Read V8's heap from a thread of its own while the main thread is blocked (block-heap.ts); absent = no. */
  heapWatch?: boolean;
}

/**
 * What the runner sends a run's child, every kind: a spare child's config (server/runner/spare-child.ts)
 * and the profiler's two handshakes (server/runner/profiler.ts). The child takes them in one
 * exhaustive switch (server/child/parent-channel.ts); they come from our own parent, so the types
 * are the check.
 */
export type ParentMessage = { type: 'start'; config: ChildConfig } | { type: 'profiler.started' } | { type: 'profiler.stopped' };

/** Sends a message to a run's child if its channel is still open; false when it is not. */
export function sendToChild(child: { connected: boolean; send(message: ParentMessage): boolean }, message: ParentMessage): boolean {
  return child.connected && child.send(message);
}

const childMessageSchema = z.discriminatedUnion('type', [
  /** `node`: the child's own process.versions.node (absent from children built before runtimes). */
  z.object({ type: z.literal('ready'), idle: memorySchema, at: z.number(), node: z.string().max(40).optional() }),
  z.object({ type: z.literal('sample'), sample: sampleSchema }),
  z.object({ type: z.literal('live'), update: liveUpdateSchema }),
  z.object({
    type: z.literal('done'),
    final: sampleSchema,
    elP50Ms: z.number(),
    elP99Ms: z.number(),
    elMaxMs: z.number(),
    /** CPU time since the strategy started. */
    cpu: z.object({ userMs: z.number(), systemMs: z.number() }),
    /** Figures only the scenario knows at the end (e.g. the streams lab's peakInFlight). */
    extras: z.record(z.string(), z.number()),
    /** What the scenario saw go wrong, in words (e.g. the HTTP lab's first bad response), or null. */
    note: z.string().max(2000).nullable().default(null),
    /** Structured results a scenario hands its lab's figures (e.g. the CPU lab's per-request timeline). */
    details: z.record(z.string(), z.unknown()).default({}),
    /** Synchronous stretches over the threshold (server/child/long-tasks.ts), the longest 100. */
    longTasks: z
      .array(z.object({ endUs: z.number(), durationMs: z.number() }))
      .max(100)
      .optional(),
    /**
     * Wall time after the strategy's work ended: the scenario's end check and close (`finish`).
     * The runner leaves it out of the run's duration. Absent from children built before it.
     */
    checkMs: z.number().min(0).optional(),
  }),
  /** `denied`: the error was the permission model's (a fenced strategy of yours): the run ends as refused. */
  z.object({ type: z.literal('error'), message: z.string(), denied: z.boolean().optional() }),
  /** A profiled run's inspector (ws://127.0.0.1:<port>/<uuid>): the runner drives the profiler over it. */
  z.object({
    type: z.literal('inspector'),
    url: z.string().regex(/^ws:\/\/127\.0\.0\.1:\d{1,5}\/[0-9a-f-]{36}$/, { error: 'url must be ws://127.0.0.1:<port>/<uuid>' }),
  }),
]);

export type ChildMessage = z.infer<typeof childMessageSchema>;

/**
 * Checks a message from a child against the full schema. A malformed one is never trusted: a
 * sample without `rss` would skip the budget check and put NaN into the summary.
 */
export function parseChildMessage(value: unknown): { ok: true; message: ChildMessage } | { ok: false; error: string } {
  const parsed = childMessageSchema.safeParse(value);
  if (parsed.success) return { ok: true, message: parsed.data };
  const issue = parsed.error.issues[0];
  return { ok: false, error: `${issue.path.join('.') || 'message'}: ${issue.message}` };
}
