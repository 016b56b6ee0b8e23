import { fork, type ChildProcess } from 'node:child_process';
import { serveFib } from '../serve';
import type { CpuContext, ServerUnderTest, Strategy } from '../strategy';

// #region run
async function run({ port, entries }: CpuContext): Promise<ServerUnderTest> {
  const live = new Set<ChildProcess>();
  const server = await serveFib(port, ({ n, id }) => {
    // A new Node process for every request: ~tens of ms and a whole runtime's memory each.
    const started = performance.now();
    const child = fork(entries.fibProcess, [], { execArgv: [] });
    live.add(child);
    let spawnMs = 0;
    return new Promise((resolve, reject) => {
      child.on('message', (m: { ready?: true; id: number; value: number; pid: number; computeMs: number }) => {
        if (m.ready) {
          // The process is up and listening: that wait is the spawn cost.
          spawnMs = performance.now() - started;
          return void child.send({ id, n });
        }
        resolve({ id: m.id, n, value: m.value, servedBy: String(m.pid), spawnMs, computeMs: m.computeMs });
        child.kill();
      });
      child.once('exit', () => {
        live.delete(child);
        reject(new Error('the process ended without an answer'));
      });
    });
  });
  const close = async () => {
    for (const c of live) c.kill('SIGKILL');
    await server.close();
  };
  return { port: server.port, close, messageListeners: () => 0 };
}
// #endregion run

export const strategy: Strategy = {
  id: 'fork-per-request',
  role: 'per-request',
  comparedWith: ['single-thread'],
  label: 'child_process.fork per request',
  library: 'node',
  mode: null,
  parallel: true,
  spawnsPerRequest: true,
  order: 3,
  expects: { outcome: 'completed', leaksListeners: false },
  keepsResults: false,
  explanation:
    'Each request forks a fresh Node process that computes and exits. Parallel up to the cores, but every request ' +
    'first pays a Node start-up (the spawn cost) and each process holds a runtime’s memory while it lives.',
  article: { peakMb: '–', note: '4.19–4.26 s each, ~35 ms to spawn' },
  run,
};
