import { Piscina } from 'piscina';
import { serveFib } from '../serve';
import type { CpuContext, ServerUnderTest, Strategy } from '../strategy';

// #region run
async function run({ port, workers, entries }: CpuContext): Promise<ServerUnderTest> {
  // A fixed pool of threads, started once; requests queue for a free one instead of spawning.
  const pool = new Piscina({ filename: entries.fibThread, minThreads: workers, maxThreads: workers, idleTimeout: Infinity });
  const server = await serveFib(port, async ({ n, id }) => {
    const r = (await pool.run({ n })) as { value: number; servedBy: string; computeMs: number };
    return { id, n, value: r.value, servedBy: r.servedBy, spawnMs: 0, computeMs: r.computeMs };
  });
  const close = async () => {
    await server.close();
    await pool.destroy();
  };
  return { port: server.port, close, messageListeners: () => 0 };
}
// #endregion run

export const strategy: Strategy = {
  id: 'worker-pool',
  role: 'pool',
  comparedWith: ['single-thread'],
  label: 'piscina worker pool',
  library: 'piscina',
  mode: null,
  parallel: true,
  spawnsPerRequest: false,
  order: 5,
  expects: { outcome: 'completed', leaksListeners: false },
  keepsResults: false,
  explanation:
    'piscina keeps N worker threads alive and queues tasks for them: parallel up to the cores with no start-up per ' +
    'request, and a fixed memory cost paid once.',
  article: null,
  run,
};
