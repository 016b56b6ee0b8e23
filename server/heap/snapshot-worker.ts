/**
 * The analysing thread's body (started by snapshot-analysis.ts through worker-entry.mjs): analyses
 * the file named in workerData and posts one message, the result or the error's text.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { SnapshotAnalysis } from '../../lib/heap/analysis';
import { analyzeSnapshotFileSync } from './analyze-file';
import type { SummaryOptions } from './summarize';

export interface SnapshotJob {
  file: string;
  options: SummaryOptions;
}

export type SnapshotWorkerMessage = { type: 'done'; analysis: SnapshotAnalysis } | { type: 'failed'; message: string; code?: string };

const job = workerData as SnapshotJob;
let message: SnapshotWorkerMessage;
try {
  message = { type: 'done', analysis: analyzeSnapshotFileSync(job.file, job.options) };
} catch (err) {
  const e = err as NodeJS.ErrnoException;
  message = { type: 'failed', message: e instanceof Error ? e.message : String(err), code: e?.code };
}
parentPort!.postMessage(message);
