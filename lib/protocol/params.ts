/**
 * Parameters every lab's runs share (sampling, memory budget, heap limit, watchdog, retained mode)
 * and the helpers each lab uses to declare its own. Shared by the CLI, the server and the browser,
 * so it imports nothing from `node:`.
 */
import { z } from 'zod';
import { nodeSpecSchema } from '../runtimes';
import { parseSnapshotTrigger, TRIGGER_HELP } from '../heap/trigger';

export const MIB = 1024 * 1024;

import { COMMON_LIMITS, type Limit } from './limits';

export { COMMON_LIMITS, type Limit };

/** "delayMs must be between 0 and 1000": the one wording every boundary uses. */
export function rangeMessageFor(field: string, limit: Limit, max: number = limit.max): string {
  return `${field} must be between ${limit.min} and ${max}`;
}

/** A number within `limit`, with messages that name the field and the range. */
export function rangedNumber(field: string, limit: Limit, opts: { int?: boolean } = {}) {
  const msg = rangeMessageFor(field, limit);
  const range = `${limit.min}–${limit.max}`;
  let n = z.number({
    error: (issue) => (issue.input === undefined ? `${field} is required (${range})` : `${field} must be a number (${range})`),
  });
  if (opts.int) n = n.int({ error: `${field} must be a whole number` });
  return n.min(limit.min, { error: msg }).max(limit.max, { error: msg });
}

/** The part of every lab's parameters that the runner itself acts on. */
export const commonParamsShape = {
  /** null turns the sampler off (used to measure its overhead). */
  sampleMs: rangedNumber('sampleMs', COMMON_LIMITS.sampleMs, { int: true }).nullable(),
  /** Run the child with --expose-gc and collect before each sample: memory then means retained. */
  retained: z.boolean({ error: (issue) => (issue.input === undefined ? 'retained is required (true or false)' : 'retained must be true or false') }),
  /** RSS budget, like a container memory limit; null = no budget. */
  budgetMb: rangedNumber('budgetMb', COMMON_LIMITS.budgetMb, { int: true }).nullable(),
  /** V8 old-space limit (--max-old-space-size); null = Node's default. */
  maxOldSpaceMb: rangedNumber('maxOldSpaceMb', COMMON_LIMITS.maxOldSpaceMb, { int: true }).nullable(),
  timeoutS: rangedNumber('timeoutS', COMMON_LIMITS.timeoutS, { int: true }),
  /** The Node the run's child runs on ("22", "22.23.3"); null (or absent, in records and links from before runtimes) = the server's own. */
  node: nodeSpecSchema,
  /**
   * Profile the run's process with V8's CPU profiler, driven by the runner over the inspector
   * protocol (server/runner/profiler.ts). Optional: absent is off, as in every run recorded before.
   */
  profile: z.boolean({ error: 'profile must be true or false' }).optional(),
  /** The profiler's sampling interval; absent = COMMON_LIMITS.profileIntervalUs.default. */
  profileIntervalUs: rangedNumber('profileIntervalUs', COMMON_LIMITS.profileIntervalUs, { int: true }).optional(),
  /**
   * Sample the run's allocations with V8's sampling heap profiler (server/runner/inspection.ts):
   * allocations by function, live and at the end, and a .heapprofile download. Also lets a person
   * take heap snapshots of the running run ("Snapshot now"). Optional: absent is off.
   */
  heapProfile: z.boolean({ error: 'heapProfile must be true or false' }).optional(),
  /** The heap profiler's mean sampling interval; absent = COMMON_LIMITS.heapIntervalKb.default. */
  heapIntervalKb: rangedNumber('heapIntervalKb', COMMON_LIMITS.heapIntervalKb, { int: true }).optional(),
  /** When to take a heap snapshot of the run (lib/heap/trigger.ts): "at=5" or "when=arrayBuffers>32MB"; absent = none. */
  heapSnapshot: z
    .string({ error: `heapSnapshot must be ${TRIGGER_HELP}` })
    .max(80, { error: `heapSnapshot must be ${TRIGGER_HELP}` })
    .superRefine((spec, ctx) => {
      try {
        parseSnapshotTrigger(spec);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
      }
    })
    .optional(),
};
export const commonParamsSchema = z.object(commonParamsShape);
export type CommonParams = z.infer<typeof commonParamsSchema>;

export const DEFAULT_COMMON_PARAMS: CommonParams = {
  sampleMs: COMMON_LIMITS.sampleMs.default,
  retained: false,
  budgetMb: COMMON_LIMITS.budgetMb.default,
  maxOldSpaceMb: null,
  timeoutS: COMMON_LIMITS.timeoutS.default,
  node: null,
};

/** Turns a zod error into one line naming the field, e.g. "delayMs must be between 0 and 1000". */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const path = issue.path.join('.');
      if (issue.code === 'unrecognized_keys') return `unknown field(s): ${issue.keys.join(', ')}`;
      // Custom messages already name the field; zod's defaults do not.
      return issue.message.includes(String(issue.path[issue.path.length - 1] ?? '\u0000')) ? issue.message : `${path || 'message'}: ${issue.message}`;
    })
    .join('; ');
}
