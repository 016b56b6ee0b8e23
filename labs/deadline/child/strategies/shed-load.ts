import { Agent } from 'undici';
import { startProbe } from '../lateness';
import { forEachObject, getObject, serveDeadline, workHere } from '../service';
import type { DeadlineContext, ServiceUnderTest, Strategy } from '../strategy';

// #region run
async function run(ctx: DeadlineContext): Promise<ServiceUnderTest> {
  // The unbounded service, plus admission control: a timer every 10 ms measures how late the event
  // loop is (counting the one overdue right now), and while that passes shedLagMs a new request is
  // refused at once with 503 instead of adding its work to a loop that is already behind.
  const lag = startProbe(10);
  const agent = new Agent({ connections: 256 });
  const server = await serveDeadline(
    ctx,
    (req) =>
      forEachObject(ctx, req, async (objectId) => {
        const body = await getObject(ctx, agent, objectId, req.signal);
        if (req.signal.aborted) return false;
        workHere(ctx, body);
        return true;
      }),
    () => lag.lagMs() < ctx.shedLagMs,
  );
  return { port: server.port, close: async () => void (lag.stop(), await server.close(), await agent.destroy()) };
}
// #endregion run

export const strategy: Strategy = {
  id: 'shed-load',
  role: 'sheds',
  label: 'shed load (503 while the loop is late)',
  library: 'undici',
  mode: null,
  offloadsWork: false,
  refuses: true,
  order: 4,
  expects: { outcome: 'completed', timersOnTimeInSpike: true },
  keepsResults: false,
  explanation:
    'Same work on the main thread, but a request that arrives while the event loop is more than shedLagMs late is ' +
    'refused with 503. The spike’s excess is turned away at the door; what is admitted finishes, and timers stay near on time.',
  article: null,
  run,
};
