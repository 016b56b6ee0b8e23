/**
 * The parts of the protocol every lab shares: memory readings, outcomes, the common sample and
 * summary fields. Each lab adds its own readings and figures (labs/<lab>/shared/schema.ts); the
 * messages that carry them are in protocol.ts. Client-safe: nothing from `node:`.
 */
import { z } from 'zod';
import { commonParamsSchema } from './params';
import { snapshotAnalysisSchema } from '../heap/analysis';
import type { FlameNode } from '../profile/cpu-profile';

/**
 * How a run ended. 'interrupted': the server shut down (or died) while it was going, so it has no
 * result of its own; 'stopped' is kept for a person pressing Stop. 'refused': a fenced strategy
 * (one of yours, server/user-strategies/) tried something its fence forbids; the reason names the
 * permission ("no permission to write /etc/x").
 */
export const OUTCOMES = ['completed', 'data-lost', 'out-of-memory', 'crashed', 'stopped', 'timed-out', 'interrupted', 'refused'] as const;
export const outcomeSchema = z.enum(OUTCOMES);
export type Outcome = z.infer<typeof outcomeSchema>;

export const runStatusSchema = z.enum(['queued', 'preparing', 'running', ...OUTCOMES]);
export type RunStatus = z.infer<typeof runStatusSchema>;

const memoryFields = {
  rss: z.number(),
  heapTotal: z.number(),
  heapUsed: z.number(),
  external: z.number(),
  arrayBuffers: z.number(),
};
export const memorySchema = z.object(memoryFields);
export type Memory = z.infer<typeof memorySchema>;
export const MEMORY_FIELDS = ['rss', 'heapTotal', 'heapUsed', 'external', 'arrayBuffers'] as const;
export type MemoryField = (typeof MEMORY_FIELDS)[number];

// Records from before "not measured" was null hold zeros where a run measured nothing (a run stopped
// before it started). No live process has an RSS of 0, so a 0 RSS there reads as "not measured".
const zeroRssAsUnmeasured = (v: unknown) => (v === 0 ? null : v);
const zeroPeakAsUnmeasured = (v: unknown) => (v !== null && typeof v === 'object' && (v as { rss?: unknown }).rss === 0 ? null : v);

/** A run's peak memory over its samples: null when it has no sample (never started). */
export const peakMemorySchema = z.preprocess(zeroPeakAsUnmeasured, memorySchema.nullable());
/** The highest RSS read from outside the process (/proc): null when none was read. */
export const procPeakRssSchema = z.preprocess(zeroRssAsUnmeasured, z.number().nullable());

/** A summary of a run that took samples, so its peak was measured: what verdicts and lessons compare. */
export type Measured<S extends { peak: Memory | null }> = S & { peak: Memory };

/** True when the run took samples (a run that ended before its strategy started has none, and a null peak). */
export function isMeasured<S extends { peak: Memory | null }>(s: S): s is Measured<S> {
  return s.peak !== null;
}

/**
 * A rate of a run's summary (MB/s, responses/s, a speed-up) as far as it was measured: null when the
 * summary has none, and for a run that took no sample, whose older records hold 0 there.
 */
export function measuredRate(s: { sampleCount: number }, rate: number | null | undefined): number | null {
  return s.sampleCount > 0 && typeof rate === 'number' ? rate : null;
}

/**
 * One reading taken inside the child: these common fields, plus the lab's own readings (all
 * numbers, named by the lab's schema, e.g. the streams lab's bytesRead). Bytes are bytes; times ms.
 */
export const sampleSchema = z
  .object({
    ...memoryFields,
    /** ms since the child started the strategy. */
    t: z.number(),
    /** Child's wall clock (epoch ms) when the sample was taken: lets the page measure sample age. */
    at: z.number(),
    /** Event-loop delay over the last interval. */
    elMeanMs: z.number(),
    elMaxMs: z.number(),
    gcCount: z.number(),
    gcMs: z.number(),
    /** CPU time (user + system) over the last interval, as % of one core; absent in runs recorded before it existed. */
    cpuPct: z.number().optional(),
    /** Event-loop utilization over the last interval (0–1): the share of time the loop was busy. */
    elu: z.number().optional(),
    /** The longest synchronous stretch over 50 ms since the last sample (0: none; server/child/long-tasks.ts); absent in runs recorded before it. */
    longTaskMs: z.number().optional(),
  })
  .catchall(z.number());
export type Sample = z.infer<typeof sampleSchema>;

/**
 * Read by the parent from /proc/<pid>, so a run with a blocked event loop still moves: RSS, and
 * CPU % of one core over the last readings (absent in runs recorded before it existed). These are
 * the readings a card draws while the child's own sampler is silent (lib/readouts/blocked.ts).
 */
export const procSampleSchema = z.object({
  t: z.number(),
  at: z.number(),
  rss: z.number(),
  cpuPct: z.number().optional(),
  /**
   * How long the child's sampler had been silent when /proc was read: ms from its last sample's
   * `at` to this reading's. The sampler runs on the run's main thread, so a silence well past the
   * sample interval is a blocked event loop. Null before the child's first sample or with the
   * sampler off; absent in runs recorded before it existed.
   */
  sinceSampleMs: z.number().nullable().optional(),
  /**
   * V8's heap while the main thread was blocked, read by a watcher thread of the child through the
   * inspector (server/child/block-heap.ts); absent whenever the child's own samples carry the heap
   * (a free loop), where the inspector is off, and in runs recorded before it existed.
   */
  heapUsed: z.number().optional(),
  heapTotal: z.number().optional(),
});
export type ProcSample = z.infer<typeof procSampleSchema>;

/** CPU a run used, measured in the child from the moment the strategy started. */
export const cpuSummarySchema = z.object({
  userMs: z.number(),
  systemMs: z.number(),
  /** Highest CPU % of one core in any interval, from the child's samples or /proc. */
  peakPct: z.number(),
});

/** A function of a CPU profile by self time (lib/profile/cpu-profile.ts FunctionTime). */
export const profileFunctionSchema = z.object({
  name: z.string(),
  url: z.string(),
  line: z.number(),
  selfMs: z.number(),
  totalMs: z.number(),
  selfShare: z.number(),
});

/** A profiled run's profile in brief; the whole profile is stored beside its record (a .cpuprofile). */
export const profileSummarySchema = z.object({
  intervalUs: z.number(),
  samples: z.number(),
  /** Time the samples cover (ms). */
  sampledMs: z.number(),
  /** The functions with the most self time, V8's own entries ((program), (garbage collector)…) included. */
  top: z.array(profileFunctionSchema).max(20),
  /** Why there is no profile although one was asked for (the inspector did not answer…), else null. */
  error: z.string().nullable(),
});
export type ProfileSummary = z.infer<typeof profileSummarySchema>;

/** A function of a heap profile by bytes allocated (lib/profile/heap-profile.ts FunctionAllocation). */
export const allocationFunctionSchema = z.object({
  name: z.string(),
  url: z.string(),
  line: z.number(),
  selfBytes: z.number(),
  totalBytes: z.number(),
  selfShare: z.number(),
  /** Stream Lab's harness allocated it (sampler, scenario, consumers), not the strategy; absent: the strategy's, or recorded before issue 38. */
  harness: z.boolean().optional(),
});

/** A flame graph's node (lib/profile/cpu-profile.ts FlameNode): a function and what was measured at and below it. */
export const flameNodeSchema: z.ZodType<FlameNode> = z.lazy(() =>
  z.object({ name: z.string(), url: z.string(), line: z.number(), total: z.number(), self: z.number(), children: z.array(flameNodeSchema) }),
);

/** A heap-profiled run's allocations in brief (live in `run.live` as `heapProfile`, and in the summary); the whole profile is stored (a .heapprofile). */
export const heapProfileSummarySchema = z.object({
  intervalKb: z.number(),
  /** Bytes the samples stand for, collected objects included (V8 scales each sample by the interval). */
  sampledBytes: z.number(),
  /** ms since the strategy started when this profile was read. */
  atMs: z.number(),
  /** The functions that allocated most in their own frame. */
  top: z.array(allocationFunctionSchema).max(20),
  /** The call tree by bytes allocated, cut to its widest few hundred nodes, for the card's flame graph (absent when the profile failed). */
  tree: flameNodeSchema.optional(),
  error: z.string().nullable(),
});
export type HeapProfileSummary = z.infer<typeof heapProfileSummarySchema>;

/**
 * The run's memory just before a snapshot (server/runner/snapshot-before.ts): RSS as last read (the
 * run's sample or /proc), the rest its last sample's — unless that sample is as old as a held loop's
 * (an `at=` or `when=rss>` trigger fires on the runner's clock, mid-block): then the heap the child's
 * watcher thread read with the latest /proc reading (server/child/block-heap.ts), and null for what
 * nobody read then, not the stale sample's. Older records hold the last sample's five numbers.
 */
export const snapshotBeforeSchema = z.object({
  rss: z.number(),
  heapTotal: z.number().nullable(),
  heapUsed: z.number().nullable(),
  external: z.number().nullable(),
  arrayBuffers: z.number().nullable(),
});
export type SnapshotBefore = z.infer<typeof snapshotBeforeSchema>;

/** One heap snapshot of a run: when, what its pause cost, and what holds the memory (or why not). */
export const heapSnapshotSummarySchema = z.object({
  /** 1, 2, …: its file is snapshot-<n>.heapsnapshot. */
  n: z.number(),
  /** What asked for it: "now" (a person), "at 5 s", "when arrayBuffers > 32 MB". */
  trigger: z.string(),
  /** ms since the strategy started when the snapshot began, and how long the run's process stood still for it. */
  atMs: z.number(),
  pauseMs: z.number(),
  /** The run's memory just before (snapshotBeforeSchema: what was read then); null when nothing was. */
  before: snapshotBeforeSchema.nullable(),
  /** Size of the .heapsnapshot file (uncompressed), 0 when none was written. */
  bytes: z.number(),
  analysis: snapshotAnalysisSchema.nullable(),
  /** Why there is no snapshot or no analysis (refused for the budget, the inspector closed…), else null. */
  error: z.string().nullable(),
});
export type HeapSnapshotSummary = z.infer<typeof heapSnapshotSummarySchema>;

/**
 * What a finished run showed, in one sentence, with the figures the sentence quotes (raw units:
 * bytes, ms; a ratio as a plain number; another run's figure under its strategy id, e.g.
 * "buffered-json.peak.heapUsed") and whether that is what its strategy is expected to show:
 * true when the figures confirm it, false when they contradict it (a worse outcome included),
 * null when it cannot be told (a stopped or interrupted run, a strategy with no expectation, a
 * comparison whose other run is missing). Made by labs/<lab>/view/verdict.ts; never stored, since
 * a comparison changes when the experiment's other runs end.
 */
export const verdictSchema = z.object({
  text: z.string(),
  figures: z.record(z.string(), z.union([z.number(), z.string()])),
  expected: z.boolean().nullable(),
});
export type Verdict = z.infer<typeof verdictSchema>;

/** What every lab's summary has; a lab adds its params and figures (labs/schemas.ts). */
export const commonSummaryShape = {
  runId: z.string(),
  strategy: z.string(),
  outcome: outcomeSchema,
  /** Why the run ended the way it did (error text, budget crossed, …). */
  reason: z.string().nullable(),
  durationMs: z.number(),
  /** Null when the run has no sample (it ended before its strategy started). */
  peak: peakMemorySchema,
  idle: memorySchema.nullable(),
  aboveIdle: memorySchema.nullable(),
  /** Highest RSS the parent saw from outside (/proc); null when it read none. */
  procPeakRss: procPeakRssSchema,
  eventLoopDelayMs: z.object({ p50: z.number(), p99: z.number(), max: z.number() }),
  gc: z.object({ count: z.number(), totalMs: z.number() }),
  /** null in runs recorded before CPU was measured. */
  cpu: cpuSummarySchema.nullable().default(null),
  /**
   * Synchronous stretches of the run's main thread over 50 ms (the longest 100): when each ended
   * (µs, monotonic), how long, and with a profile the functions on top during it. Absent in runs
   * recorded before they were measured.
   */
  longTasks: z
    .array(z.object({ endUs: z.number(), durationMs: z.number(), top: z.array(z.string()).max(5) }))
    .max(100)
    .optional(),
  /** Absent or null unless the run was profiled (params.profile). */
  profile: profileSummarySchema.nullable().optional(),
  /** Absent unless the run was heap-profiled (params.heapProfile). */
  heapProfile: heapProfileSummarySchema.nullable().optional(),
  /** The run's heap snapshots (params.heapSnapshot, "Snapshot now"); absent when none was asked for. */
  heapSnapshots: z.array(heapSnapshotSummarySchema).max(20).optional(),
  sampleCount: z.number(),
  nodeVersion: z.string(),
  library: z.object({ name: z.string(), version: z.string() }),
  params: commonParamsSchema,
  startedAt: z.number(),
  /** Added where a summary is served (the run API, exports), from the experiment's finished runs; absent where stored. */
  verdict: verdictSchema.optional(),
};
const commonSummarySchema = z.object({ lab: z.string(), ...commonSummaryShape });
/** A summary as the generic layers see it: the common part (the lab's figures are there too, unnamed). */
export type CommonSummary = z.infer<typeof commonSummarySchema>;

/** The lab a record made before labs existed belongs to. */
export const LEGACY_LAB = 'streams';

/** Adds `lab` to a value from before labs existed (stored runs, old links), so it still parses. */
export function withLab(value: unknown): unknown {
  if (value && typeof value === 'object' && !Array.isArray(value) && !('lab' in value)) return { ...value, lab: LEGACY_LAB };
  return value;
}

/** A strategy id: letters, digits and dashes (ids such as "rxjs-fromEvent" have capitals). */
export const STRATEGY_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9-]{0,63}$/;
export const strategyIdSchema = z.string().regex(STRATEGY_ID_PATTERN, { error: 'strategy must be a strategy id (letters, digits and dashes, at most 64)' });

/** A lab id: lower-case letters, digits and dashes. */
export const LAB_ID_PATTERN = /^[a-z][a-z0-9-]{0,31}$/;

/**
 * What a run shows live beyond its numeric samples (the CPU lab's request bars and busiest
 * threads): lists that grow (`append`, capped at LIVE_LIST_CAP items each) and values that are
 * replaced (`set`). The server and the page fold updates into the same state with `mergeLive`, so
 * a page that joins late gets the folded state in its snapshot and the updates after it.
 */
export const liveUpdateSchema = z.object({
  append: z.record(z.string(), z.array(z.unknown())).default({}),
  set: z.record(z.string(), z.unknown()).default({}),
});
export type LiveUpdate = z.infer<typeof liveUpdateSchema>;
export type LiveState = Record<string, unknown>;
/** Items kept per growing list: a CPU run has at most 1000 requests. */
export const LIVE_LIST_CAP = 2000;

/** The state after an update (a new object: React state and snapshots share the old one). */
export function mergeLive(state: LiveState, update: LiveUpdate): LiveState {
  const next: LiveState = { ...state, ...update.set };
  for (const [key, items] of Object.entries(update.append)) {
    const before = Array.isArray(state[key]) ? (state[key] as unknown[]) : [];
    next[key] = [...before, ...items].slice(-LIVE_LIST_CAP);
  }
  return next;
}
