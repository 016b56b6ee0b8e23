/**
 * Inside a profiled run's process: opens the inspector on a loopback port the OS picks, tells the
 * parent its URL, and waits while the parent starts V8's profiler over it (server/runner/
 * profiler.ts), so the profile covers the strategy from its first line; at the end, waits until
 * the parent has the profile before the process exits. The inspector never listens beyond
 * 127.0.0.1 and closes with the run. Child side, no zod.
 */
import inspector from 'node:inspector';
import net from 'node:net';
import { parentSays } from './parent-channel';

/** How long the child waits for the parent at each step; past it, the run goes on unprofiled. */
const PARENT_WAIT_MS = 5000;

/**
 * Opens the inspector and waits until the parent's profiler runs (or gave up). `handOver`: the run
 * is in a network namespace of its own (server/user-strategies/namespaces.ts), whose loopback the
 * parent can't reach: the child connects to its inspector itself and hands the connected socket
 * over IPC with the URL, and the parent speaks the inspector's WebSocket over it.
 */
export async function openForProfiler(send: (message: { type: 'inspector'; url: string }) => void, handOver = false): Promise<void> {
  inspector.open(0, '127.0.0.1', false);
  const started = parentSays('profiler.started', PARENT_WAIT_MS);
  const url = inspector.url()!;
  if (handOver) await sendConnected(url);
  else send({ type: 'inspector', url });
  await started;
}

/** Sends the inspector's URL with a socket connected to it (the namespaced run's way). */
function sendConnected(url: string): Promise<void> {
  return new Promise((resolve) => {
    const socket = net.connect(Number(new URL(url).port), '127.0.0.1', () => {
      process.send!({ type: 'inspector', url }, socket, undefined, () => resolve());
    });
    // Not connected: the URL alone, so the parent's attempt fails and the run goes on unprofiled (as when the profiler can't start).
    socket.once('error', () => process.send!({ type: 'inspector', url }, undefined, undefined, () => resolve()));
  });
}

/** After the last report: waits until the parent has stopped the profiler, then closes the inspector. */
export async function releaseProfiler(): Promise<void> {
  await parentSays('profiler.stopped', PARENT_WAIT_MS);
  inspector.close();
}
