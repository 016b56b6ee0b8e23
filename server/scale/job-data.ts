/**
 * What a BullMQ job carries, checked when read back (by a worker taking it, or a web server
 * rebuilding its picture after a restart): the experiment, its runs as queued, its jobs, and which
 * runs this job is. A worker reports the runs' newest states as the job's progress and their
 * ends as its return value, so nothing about a run lives only in one process's memory.
 */
import { z } from 'zod';
import { experimentSchema, runStateSchema, summarySchema } from '../../lib/protocol';
import { jobSchema } from './events';
import { shippedStrategySchema } from '../user-strategies/shipped';

export const jobDataSchema = z.object({
  experiment: experimentSchema,
  runs: z.array(runStateSchema),
  jobs: z.array(jobSchema),
  runIds: z.array(z.string()).min(1),
  /** The experiment's strategies of yours, bundles and all (server/user-strategies/shipped.ts); absent in jobs made before them. */
  yours: z.array(shippedStrategySchema).default([]),
});
export type JobData = z.infer<typeof jobDataSchema>;

/** The job's progress: its runs' newest states. */
export const jobProgressSchema = z.object({ runs: z.array(runStateSchema) });

/** The job's return value: how each of its runs ended. */
export const jobResultSchema = z.object({ ended: z.array(z.object({ run: runStateSchema, summary: summarySchema })) });
export type JobResult = z.infer<typeof jobResultSchema>;

/** What a failed job's reason means for its runs: a worker that went silent interrupted them; anything else crashed them. */
export function failureOutcome(failedReason: string | undefined): { outcome: 'interrupted' | 'crashed'; reason: string } {
  const why = failedReason ?? 'unknown failure';
  if (/stalled|lock/i.test(why)) return { outcome: 'interrupted', reason: `its worker stopped answering mid-run (killed or cut off): ${why}` };
  return { outcome: 'crashed', reason: `its worker failed: ${why}` };
}
