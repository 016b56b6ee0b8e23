import { Worker } from 'node:worker_threads';
import { serveFib } from '../serve';
import type { CpuContext, ServerUnderTest, Strategy } from '../strategy';

// #region run
async function run({ port, entries }: CpuContext): Promise<ServerUnderTest> {
  const live = new Set<Worker>();
  const server = await serveFib(port, ({ n, id }) => {
    // A new thread (its own V8 isolate and event loop) for every request, in this process.
    const started = performance.now();
    const worker = new Worker(entries.fibThread, { workerData: { n, oneShot: true } });
    live.add(worker);
    return new Promise((resolve, reject) => {
      worker.once('message', (m: { value: number; servedBy: string; computeMs: number }) => {
        resolve({ id, n, value: m.value, servedBy: m.servedBy, spawnMs: performance.now() - started - m.computeMs, computeMs: m.computeMs });
      });
      worker.once('error', reject);
      worker.once('exit', () => live.delete(worker));
    });
  });
  const close = async () => {
    await Promise.all([...live].map((w) => w.terminate()));
    await server.close();
  };
  return { port: server.port, close, messageListeners: () => 0 };
}
// #endregion run

export const strategy: Strategy = {
  id: 'worker-per-request',
  role: 'per-request',
  comparedWith: ['single-thread'],
  label: 'new Worker per request',
  library: 'node',
  mode: null,
  parallel: true,
  spawnsPerRequest: true,
  order: 4,
  expects: { outcome: 'completed', leaksListeners: false },
  keepsResults: false,
  explanation:
    'Each request starts a worker_threads Worker that computes and ends. Threads share the process (one RSS) and start ' +
    'faster than processes, but each still boots a V8 isolate and its own heap.',
  article: { peakMb: '93 (RSS)', note: '4.36–4.37 s each, ~5 ms to start' },
  run,
};
