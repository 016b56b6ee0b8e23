import cluster, { type Worker } from 'node:cluster';
import { addedListenerCount } from '../listeners';
import { serveFib } from '../serve';
import type { CpuContext, ServerUnderTest, Strategy } from '../strategy';

// #region run
async function run({ port, workers, entries }: CpuContext): Promise<ServerUnderTest> {
  // The write-up's bonus pool, as written: processes forked once, requests handed out in turn...
  cluster.setupPrimary({ exec: entries.fibProcess });
  const procs: Worker[] = Array.from({ length: workers }, () => cluster.fork());
  const listeners = addedListenerCount(procs); // ours only: Node's cluster adds one to each process
  // Each process says it is ready: messages sent to an ES-module worker before that are lost.
  await Promise.all(procs.map((w) => new Promise((resolve) => w.once('message', resolve))));
  let index = 0;
  const server = await serveFib(port, ({ n, id }) => {
    const proc = procs[index++ % procs.length];
    proc.send({ id, n });
    // ...and a new 'message' listener per request that is never removed: every later answer from
    // this process runs every earlier request's listener too, and while a process has two requests,
    // its first answer settles both (the second request gets the first one's result).
    return new Promise((resolve) => {
      proc.on('message', (m: { id: number; value: number; pid: number; computeMs: number }) =>
        resolve({ id: m.id, n, value: m.value, servedBy: String(m.pid), spawnMs: 0, computeMs: m.computeMs }),
      );
    });
  });
  const close = async () => {
    await server.close();
    await Promise.all(procs.map((w) => new Promise((resolve) => (w.isDead() ? resolve(null) : (w.once('exit', resolve), w.kill())))));
  };
  return { port: server.port, close, messageListeners: listeners };
}
// #endregion run

export const strategy: Strategy = {
  id: 'cluster-pool-leaky',
  role: 'leaky-pool',
  comparedWith: ['single-thread'],
  label: 'cluster pool, as written (leaks listeners)',
  library: 'node',
  mode: null,
  parallel: true,
  spawnsPerRequest: false,
  order: 6,
  expects: { outcome: 'completed', leaksListeners: true },
  keepsResults: false,
  explanation:
    "The write-up’s pool: processes forked once, each request sent to the next one with worker.on('message') — a " +
    'listener added per request and never removed. Listener count and memory grow with every request; Node warns past 10.',
  article: { peakMb: '–', note: 'bonus: a process pool with cluster.setupPrimary' },
  run,
};
