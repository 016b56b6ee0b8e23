/**
 * A worker thread: computes fib(workerData.n) once, posts it, and ends (worker-per-request);
 * its default export is the task function of the piscina pool (worker-pool). Child build entry.
 */
import { isMainThread, parentPort, threadId, workerData } from 'node:worker_threads';
import { timedFib } from './fib';

export default function task({ n }: { n: number }): { value: number; servedBy: string; computeMs: number } {
  return { ...timedFib(n), servedBy: `${process.pid}/${threadId}` };
}

if (!isMainThread && (workerData as { oneShot?: boolean } | null)?.oneShot) {
  parentPort!.postMessage(task(workerData as { n: number }));
}
