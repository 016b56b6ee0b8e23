import pLimit from 'p-limit';
import { Piscina } from 'piscina';
import { Agent } from 'undici';
import { forEachObject, getObject, serveDeadline } from '../service';
import { countWork, type DeadlineContext, type ServiceUnderTest, type Strategy } from '../strategy';

// #region run
async function run(ctx: DeadlineContext): Promise<ServiceUnderTest> {
  // The write-up's rewrite in Node terms: a pool of worker threads does the CPU work, and a
  // dispatcher hands each a task only when one is free (2 per thread queued in piscina), so an
  // object whose request already timed out is dropped here instead of being worked for nothing.
  const pool = new Piscina({ filename: ctx.entries.workThread, minThreads: ctx.workers, maxThreads: ctx.workers, idleTimeout: Infinity });
  const dispatch = pLimit(ctx.workers * 2);
  const agent = new Agent({ connections: 256 });
  const server = await serveDeadline(ctx, (req) =>
    forEachObject(ctx, req, async (objectId) => {
      const body = await getObject(ctx, agent, objectId, req.signal);
      return dispatch(async () => {
        if (req.signal.aborted) return false;
        countWork(ctx.counters, (await pool.run({ body, rounds: ctx.rounds })) as number);
        return !req.signal.aborted;
      });
    }),
  );
  const close = async () => {
    await server.close();
    dispatch.clearQueue();
    await agent.destroy();
    await pool.destroy();
  };
  return { port: server.port, close };
}
// #endregion run

export const strategy: Strategy = {
  id: 'worker-pool',
  role: 'offloads',
  label: 'piscina worker pool + dispatcher',
  library: 'piscina',
  mode: null,
  offloadsWork: true,
  refuses: false,
  order: 3,
  expects: { outcome: 'completed', timersOnTimeInSpike: true },
  keepsResults: false,
  explanation:
    'The main thread only does I/O: it fetches, and a dispatcher hands each object’s work to a free thread of a ' +
    'piscina pool. The event loop stays free, so deadlines fire on time even when the pool has more work than cores.',
  article: { peakMb: '–', note: 'the Go rewrite (worker pool + dispatcher): timeouts on time, half the machines' },
  run,
};
