/**
 * A worker thread: computes fib(workerData.n) once, posts it, and ends (worker-per-request);
 * its default export is the task function of the piscina pool (worker-pool). Child build entry.
 */
import { readlinkSync } from 'node:fs';
import { isMainThread, parentPort, threadId, workerData } from 'node:worker_threads';
import { timedFib } from './fib';

/**
 * This thread's id as the kernel knows it (/proc/thread-self → "<pid>/task/<tid>"): the id the
 * card's thread list reads from /proc and `top -H` shows, so a thread's timeline colour and its CPU
 * row match. Where there is no /proc, worker_threads' own threadId.
 */
function ownThreadId(): number {
  try {
    return Number(/\/task\/(\d+)$/.exec(readlinkSync('/proc/thread-self'))?.[1] ?? threadId);
  } catch {
    return threadId;
  }
}
const thread = ownThreadId();

export default function task({ n }: { n: number }): { value: number; servedBy: string; computeMs: number } {
  return { ...timedFib(n), servedBy: `${process.pid}/${thread}` };
}

if (!isMainThread && (workerData as { oneShot?: boolean } | null)?.oneShot) {
  parentPort!.postMessage(task(workerData as { n: number }));
}
