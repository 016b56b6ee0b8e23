import cluster, { type Worker } from 'node:cluster';
import type { CpuContext, ServerUnderTest, Strategy } from '../strategy';

// #region run
async function run({ port, workers, entries }: CpuContext): Promise<ServerUnderTest> {
  // N processes each running the single-thread server on one shared port; the primary accepts
  // connections and hands each to a worker in turn (round-robin per connection, not per request).
  cluster.setupPrimary({ exec: entries.clusterWorker });
  const procs: Worker[] = [];
  for (let i = 0; i < workers; i++) {
    const w = cluster.fork({ STREAM_LAB_CPU_PORT: String(port) });
    procs.push(w);
    await new Promise((resolve) => w.once('listening', resolve));
  }
  const close = async () => {
    await Promise.all(procs.map((w) => new Promise((resolve) => (w.isDead() ? resolve(null) : (w.once('exit', resolve), w.kill())))));
  };
  return { port, close, messageListeners: () => 0 };
}
// #endregion run

export const strategy: Strategy = {
  id: 'cluster',
  role: 'processes',
  comparedWith: ['single-thread'],
  label: 'cluster (N processes)',
  library: 'node',
  mode: null,
  parallel: true,
  spawnsPerRequest: false,
  order: 2,
  expects: { outcome: 'completed', leaksListeners: false },
  keepsResults: false,
  explanation:
    'node:cluster forks N copies of the one-thread server that share the port. Requests run in parallel up to the ' +
    'number of cores; each process is a whole Node with its own memory. With keep-alive, one connection stays with one worker.',
  article: { peakMb: '–', note: '4.20–4.27 s each, 4 processes, 8 CPUs' },
  run,
};
