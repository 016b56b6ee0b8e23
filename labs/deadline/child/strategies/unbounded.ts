import { Agent } from 'undici';
import { forEachObject, getObject, serveDeadline, workHere } from '../service';
import type { DeadlineContext, ServiceUnderTest, Strategy } from '../strategy';

// #region run
async function run(ctx: DeadlineContext): Promise<ServiceUnderTest> {
  // All K GETs of every request at once, each object's work in its GET's callback on the main
  // thread, and no cap on sockets to the store (undici's default, like Node's http agent since 0.12).
  const agent = new Agent({ connections: null });
  const server = await serveDeadline(ctx, (req) =>
    forEachObject(ctx, req, async (objectId) => {
      const body = await getObject(ctx, agent, objectId, req.signal);
      if (req.signal.aborted) return false; // the deadline already answered
      workHere(ctx, body);
      return true;
    }),
  );
  return { port: server.port, close: async () => void (await server.close(), await agent.destroy()) };
}
// #endregion run

export const strategy: Strategy = {
  id: 'unbounded',
  role: 'no-limit',
  label: 'unbounded (the write-up’s Node service)',
  library: 'undici',
  mode: null,
  offloadsWork: false,
  refuses: false,
  order: 1,
  expects: { outcome: 'completed', timersOnTimeInSpike: false },
  keepsResults: false,
  explanation:
    'Every request fires its K GETs at once and parses each object on the main thread as it arrives. When the work ' +
    'arriving needs more than one core, the event loop falls behind, and the deadline timers wait behind the work ' +
    'they were meant to cut short.',
  article: { peakMb: '–', note: '1200 ms timeout, requests took up to 10 s during the daily spike' },
  run,
};
