/**
 * A web server catching up with the shared queue from BullMQ's own records: at start (the jobs
 * still waiting or running, so a restarted server shows and keeps every queued run) and when Redis
 * comes back after an outage (runs that ended meanwhile get their end from the job).
 */
import type { Job, Queue } from 'bullmq';
import { unstartedSummary } from '../runner/unstarted';
import { failureOutcome, jobDataSchema, jobProgressSchema, jobResultSchema } from './job-data';
import type { RunMirror } from './run-mirror';

/** Jobs not yet finished, oldest first; bounded by the queue's own caps (64 runs waiting). */
const OPEN_STATES = ['active', 'waiting', 'prioritized', 'delayed'] as const;

/** Adds every open job's experiment and runs (with their newest states) to the mirror. */
export async function rebuildFromJobs(queue: Queue, mirror: RunMirror): Promise<number> {
  const jobs = await queue.getJobs([...OPEN_STATES], 0, 999, true);
  const byExperiment = new Map<string, Job[]>();
  for (const job of jobs) {
    const data = jobDataSchema.safeParse(job.data);
    if (!data.success) continue;
    const list = byExperiment.get(data.data.experiment.id) ?? [];
    byExperiment.set(data.data.experiment.id, [...list, job]);
  }
  for (const open of byExperiment.values()) {
    const data = jobDataSchema.parse(open[0].data);
    const newest = new Map(open.flatMap((j) => jobProgressSchema.safeParse(j.progress).data?.runs ?? []).map((r) => [r.id, r]));
    const openRunIds = new Set(open.flatMap((j) => jobDataSchema.parse(j.data).runIds));
    mirror.apply({ t: 'experiment', experiment: data.experiment, runs: data.runs.map((r) => newest.get(r.id) ?? r), jobs: data.jobs });
    // Runs of this experiment whose jobs finished before this server started: their ends, if kept.
    for (const info of data.jobs) if (!info.runIds.some((id) => openRunIds.has(id))) await settleJob(queue, mirror, info.id);
  }
  return jobs.length;
}

/** Ends the mirror's runs of a job that has finished (completed: its results; failed: interrupted or crashed). */
export async function settleJob(queue: Queue, mirror: RunMirror, jobId: string, failedReason?: string): Promise<void> {
  const job = failedReason === undefined ? await queue.getJob(jobId) : undefined;
  const state = failedReason === undefined ? await job?.getState() : 'failed';
  if (state === 'completed') {
    const result = jobResultSchema.safeParse(job?.returnvalue);
    for (const { run, summary } of result.data?.ended ?? []) mirror.end(run, summary);
  }
  const why =
    state === 'failed'
      ? failureOutcome(failedReason ?? job?.failedReason)
      : state === 'completed'
        ? { outcome: 'crashed' as const, reason: 'its worker finished the job without reporting this run' }
        : state === undefined || state === 'unknown'
          ? { outcome: 'interrupted' as const, reason: 'its job is gone from the queue (Redis lost it)' }
          : null;
  if (!why) return; // still waiting or running
  for (const id of mirror.jobs.get(jobId)?.runIds ?? []) {
    const entry = mirror.live(id);
    if (entry) mirror.end(entry.state, unstartedSummary(entry.state, why.reason, why.outcome));
  }
}

/** After an outage: every job with a run still going here is asked how it stands. */
export async function reconcile(queue: Queue, mirror: RunMirror): Promise<void> {
  for (const jobId of [...mirror.jobs.keys()]) await settleJob(queue, mirror, jobId);
}
