import { timedFib } from '../fib';
import { serveFib } from '../serve';
import type { CpuContext, ServerUnderTest, Strategy } from '../strategy';

// #region run
async function run({ port }: CpuContext): Promise<ServerUnderTest> {
  // fib runs in the request handler, on the one event loop: requests (and /ping) queue behind it.
  const server = await serveFib(port, async ({ n, id }) => ({ id, n, ...timedFib(n), servedBy: String(process.pid), spawnMs: 0 }));
  return { ...server, messageListeners: () => 0 };
}
// #endregion run

export const strategy: Strategy = {
  id: 'single-thread',
  role: 'one-thread',
  label: 'one thread',
  library: 'node',
  mode: null,
  parallel: false,
  spawnsPerRequest: false,
  order: 1,
  expects: { outcome: 'completed', leaksListeners: false },
  keepsResults: false,
  explanation:
    'The handler computes fib(n) itself. One event loop, one core: four requests at once finish one computation apart, ' +
    'and a /ping waits for whatever computation is running.',
  article: { peakMb: '–', note: '3.81 / 7.29 / 10.88 / 15.28 s for 4 × fib(42), 8 CPUs' },
  run,
};
