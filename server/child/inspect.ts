/**
 * Inside a profiled run's process: opens the inspector on a loopback port the OS picks, tells the
 * parent its URL, and waits while the parent starts V8's profiler over it (server/runner/
 * profiler.ts), so the profile covers the strategy from its first line; at the end, waits until
 * the parent has the profile before the process exits. The inspector never listens beyond
 * 127.0.0.1 and closes with the run. Child side, no zod.
 */
import inspector from 'node:inspector';
import { parentSays } from './parent-channel';

/** How long the child waits for the parent at each step; past it, the run goes on unprofiled. */
const PARENT_WAIT_MS = 5000;

/** Opens the inspector and waits until the parent's profiler runs (or gave up). */
export async function openForProfiler(send: (message: { type: 'inspector'; url: string }) => void): Promise<void> {
  inspector.open(0, '127.0.0.1', false);
  const started = parentSays('profiler.started', PARENT_WAIT_MS);
  send({ type: 'inspector', url: inspector.url()! });
  await started;
}

/** After the last report: waits until the parent has stopped the profiler, then closes the inspector. */
export async function releaseProfiler(): Promise<void> {
  await parentSays('profiler.stopped', PARENT_WAIT_MS);
  inspector.close();
}
