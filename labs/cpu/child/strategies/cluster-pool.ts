import cluster, { type Worker } from 'node:cluster';
import { addedListenerCount } from '../listeners';
import { serveFib } from '../serve';
import type { FibAnswer } from '../fib';
import type { CpuContext, ServerUnderTest, Strategy } from '../strategy';

// #region run
async function run({ port, workers, entries }: CpuContext): Promise<ServerUnderTest> {
  cluster.setupPrimary({ exec: entries.fibProcess });
  const procs: Worker[] = Array.from({ length: workers }, () => cluster.fork());
  const listeners = addedListenerCount(procs); // ours only: Node's cluster adds one to each process
  // Each process says it is ready: messages sent to an ES-module worker before that are lost.
  await Promise.all(procs.map((w) => new Promise((resolve) => w.once('message', resolve))));
  // One listener per process for its whole life; answers find their request by id.
  const pending = new Map<number, (a: FibAnswer) => void>();
  for (const proc of procs) {
    proc.on('message', (m: { id: number; value: number; pid: number; computeMs: number }) => {
      pending.get(m.id)?.({ id: m.id, n: 0, value: m.value, servedBy: String(m.pid), spawnMs: 0, computeMs: m.computeMs });
      pending.delete(m.id);
    });
  }
  let next = 0;
  const server = await serveFib(port, ({ n, id }) => {
    procs[next++ % procs.length].send({ id, n });
    return new Promise((resolve) => pending.set(id, (a) => resolve({ ...a, n })));
  });
  const close = async () => {
    await server.close();
    await Promise.all(procs.map((w) => new Promise((resolve) => (w.isDead() ? resolve(null) : (w.once('exit', resolve), w.kill())))));
  };
  return { port: server.port, close, messageListeners: listeners };
}
// #endregion run

export const strategy: Strategy = {
  id: 'cluster-pool',
  role: 'pool',
  comparedWith: ['single-thread'],
  label: 'cluster pool, fixed',
  library: 'node',
  mode: null,
  parallel: true,
  spawnsPerRequest: false,
  order: 7,
  expects: { outcome: 'completed', leaksListeners: false },
  keepsResults: false,
  explanation:
    'The same process pool with one message listener per process for its whole life and a request id in every ' +
    'message: the listener count stays at the number of processes, whatever the number of requests.',
  article: null,
  run,
};
