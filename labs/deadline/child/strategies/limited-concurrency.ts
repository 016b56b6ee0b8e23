import pLimit from 'p-limit';
import { Agent } from 'undici';
import { forEachObject, getObject, serveDeadline, workHere } from '../service';
import type { DeadlineContext, ServiceUnderTest, Strategy } from '../strategy';

// #region run
async function run(ctx: DeadlineContext): Promise<ServiceUnderTest> {
  // One limiter for the whole service: at most `concurrency` GETs (with their work) at a time, and
  // as many sockets to the store. An object whose request already timed out is dropped from the queue.
  const limit = pLimit(ctx.concurrency);
  const agent = new Agent({ connections: ctx.concurrency });
  const server = await serveDeadline(ctx, (req) =>
    forEachObject(ctx, req, (objectId) =>
      limit(async () => {
        if (req.signal.aborted) return false;
        const body = await getObject(ctx, agent, objectId, req.signal);
        if (req.signal.aborted) return false;
        workHere(ctx, body);
        return true;
      }),
    ),
  );
  return { port: server.port, close: async () => void (await server.close(), limit.clearQueue(), await agent.destroy()) };
}
// #endregion run

export const strategy: Strategy = {
  id: 'limited-concurrency',
  role: 'limits',
  label: 'p-limit on the GETs',
  library: 'p-limit',
  mode: null,
  offloadsWork: false,
  refuses: false,
  order: 2,
  expects: { outcome: 'completed', timersOnTimeInSpike: false },
  keepsResults: false,
  explanation:
    'A limiter (p-limit) caps the GETs in flight in the whole service. It protects the store and the sockets, but the ' +
    'work still runs on the one event loop: it is paced by the limit, not moved off the timers’ thread.',
  article: null,
  run,
};
