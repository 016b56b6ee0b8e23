/**
 * Ends a sweep step that runs past its time, inside the run's process, and leaves the process
 * serving. Child side, no zod.
 *
 * Why this way: a step is synchronous work on the main thread (the lab's point), so nothing on that
 * thread can interrupt it, and killing the process would lose the run. A worker thread holds an
 * inspector session on the main thread and, when a step's time is up, sends
 * `Runtime.terminateExecution`: V8 unwinds the running JavaScript (uncatchably) and cancels the
 * termination once it is back in the event loop, so the next request is served as usual.
 *
 * The race: termination hits whatever runs next if the step has just returned. A shared word says
 * which step runs; the worker claims it (step id → STOPPING) before terminating, the main thread
 * releases it (step id → 0) when the step returns. If the release loses, termination is already on
 * its way and the main thread waits for it, so it lands in the step's own handler, never elsewhere.
 */
import { Worker } from 'node:worker_threads';

const IDLE = 0;
const STOPPING = -1;
/** How long a step that lost the race waits for the termination already sent (it comes in microseconds). */
const LOST_RACE_WAIT_MS = 2000;
/**
 * How often the worker looks at the running step's deadline. Polling, not a message per step: a
 * message wakes the worker during the step, and its CPU is counted in the step's process CPU time,
 * noise as large as a sub-millisecond step (groupBy with push at 1e3 rows: ~0.07 ms). A look every
 * 10 ms costs about as much as the long-task detector's timer and lands in a short step rarely.
 */
const POLL_MS = 10;

// CommonJS, evaluated in the worker: no file to bundle or find. Shared: [0] the running step's id
// (IDLE, or STOPPING once claimed), and at byte 8 its deadline (epoch ms: the threads' own
// performance clocks start at different moments).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const inspector = require('node:inspector');
const word = new Int32Array(workerData, 0, 1);
const deadline = new Float64Array(workerData, 8, 1);
const session = new inspector.Session();
session.connectToMainThread();
const poll = setInterval(() => {
  const id = Atomics.load(word, 0);
  if (id <= 0 || Date.now() < deadline[0]) return;
  if (Atomics.compareExchange(word, 0, id, ${STOPPING}) !== id) return;
  session.post('Runtime.terminateExecution', () => parentPort.postMessage({ type: 'stopped', id }));
}, ${POLL_MS});
parentPort.on('message', (m) => {
  if (m.type !== 'close') return;
  clearInterval(poll);
  session.disconnect();
  parentPort.close();
});
parentPort.postMessage({ type: 'ready' });
`;

export interface StepWatchdog {
  /**
   * Marks step `id` as running for at most `limitMs`; call the returned function when its
   * synchronous part has returned (if the time ran out meanwhile, it does not return).
   */
  arm(id: number, limitMs: number): () => void;
  close(): Promise<void>;
}

/** Starts the watchdog's thread; `onStopped(id)` runs on the main thread after a step was ended. */
export async function startStepWatchdog(onStopped: (id: number) => void): Promise<StepWatchdog> {
  const shared = new SharedArrayBuffer(16);
  const word = new Int32Array(shared, 0, 1);
  const deadline = new Float64Array(shared, 8, 1);
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: shared });
  await new Promise<void>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', () => {
      worker.off('error', reject);
      resolve();
    });
  });
  worker.on('message', (m: { type: 'stopped'; id: number }) => {
    Atomics.store(word, 0, IDLE);
    onStopped(m.id);
  });
  worker.unref();
  return {
    arm(id, limitMs) {
      // The deadline first: the worker reads it only once it sees the id.
      deadline[0] = Date.now() + Math.max(1, limitMs);
      Atomics.store(word, 0, id);
      return () => {
        if (Atomics.compareExchange(word, 0, id, IDLE) === id) return;
        // The worker claimed the step: its termination is coming; let it land here.
        const until = performance.now() + LOST_RACE_WAIT_MS;
        while (performance.now() < until);
      };
    },
    async close() {
      // Already gone: its 'exit' came and will not come again.
      if (worker.threadId === -1) return;
      // Awaited: the thread must keep the process alive until it has gone (nothing else may).
      worker.ref();
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      worker.postMessage({ type: 'close' });
      await exited;
    },
  };
}
