/**
 * The heap of a run whose main thread is blocked, read from a thread of its own. Child side, no zod.
 *
 * Why this way: the sampler runs on the main thread, so a synchronous stretch silences it, and
 * /proc (read by the runner) knows RSS and CPU but nothing of V8's heap. An inspector session a
 * worker holds on the main thread still answers then: V8 runs its messages as interrupts of the
 * JavaScript being executed (the hot-code step watchdog relies on the same), so
 * `Runtime.getHeapUsage` reads the heap mid-block. Not when the thread is blocked outside
 * JavaScript (a sync syscall, Atomics.wait): the reading waits, and the chart keeps its gap.
 *
 * The main thread beats on a shared clock at every sample; the worker reads the heap only when the
 * beat is older than twice the sample interval, so a free loop costs one timer tick in the worker.
 * The thread itself costs ~10 MB of RSS (an isolate: 42.2 → 51.9 MB idle here, docs/results.md
 * §23) and ~25 ms to start, so only the labs whose work holds the loop ask for it
 * (Lab.watchesBlockedHeap); it starts while the lab loads and is online before the run's idle
 * baseline, so above-idle figures stay the strategy's. STREAM_LAB_BLOCK_HEAP=0 leaves it out.
 * It connects for each reading and disconnects after it: a session still connected when the
 * process exits makes Node print "Waiting for the debugger to disconnect...".
 *
 * The readings go to the runner as JSON lines on HEAP_FD (a pipe the runner gives every run child,
 * server/runner/spare-child.ts), not over IPC: IPC belongs to the main thread, which is the one
 * that is stuck. Without that pipe, or where the inspector is off (Node 20/22's permission model),
 * nothing starts and a block is a gap in the heap lines, as before.
 */
import { fstatSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

/** The run child's extra pipe for readings taken off the main thread (stdio index 4). */
export const HEAP_FD = 4;

/** The main thread counts as blocked, and the worker reads the heap, once its beat is this many sample intervals old. */
export const SILENT_INTERVALS = 2;

// CommonJS, evaluated in the worker: no file to bundle or find. Shared: [0] the main thread's last
// beat (epoch ms: the threads' performance clocks start at different moments).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { writeSync } = require('node:fs');
const inspector = require('node:inspector');
const beat = new Float64Array(workerData.shared, 0, 1);
let reading = false;
let poll;
const look = (intervalMs) => {
  if (reading || Date.now() - beat[0] <= ${SILENT_INTERVALS} * intervalMs) return;
  reading = true;
  let session;
  try {
    session = new inspector.Session();
    session.connectToMainThread();
  } catch {
    // The inspector is off in this process (the permission model): nothing to read, ever.
    clearInterval(poll);
    return;
  }
  session.post('Runtime.getHeapUsage', (err, r) => {
    session.disconnect();
    reading = false;
    if (err || !r) return;
    const line = JSON.stringify({ at: Date.now(), heapUsed: r.usedSize, heapTotal: r.totalSize }) + '\\n';
    // A full pipe (the runner behind) loses this reading; a closed one ends the watch.
    try { writeSync(workerData.fd, line); } catch (e) { if (e.code !== 'EAGAIN') clearInterval(poll); }
  });
};
parentPort.on('message', (m) => {
  clearInterval(poll);
  if (m.type === 'arm') poll = setInterval(look, m.intervalMs, m.intervalMs);
  else parentPort.close();
});
`;

export interface BlockHeapWatch {
  /** Resolves once the thread runs (or failed to): its memory is then in the process's figures. */
  online: Promise<void>;
  /** Starts watching at the run's sample interval, the main thread alive from now. */
  arm(intervalMs: number): void;
  /** The main thread is alive now (call at every sample). */
  beat(): void;
  /** Ends the thread; resolves once it has gone. */
  stop(): Promise<void>;
}

function heapPipeOpen(): boolean {
  try {
    const st = fstatSync(HEAP_FD);
    return st.isFIFO() || st.isSocket();
  } catch {
    return false;
  }
}

/** Starts the thread if this process has the runner's pipe; null otherwise (nothing watches then). */
export function startHeapWatch(): BlockHeapWatch | null {
  if (process.env.STREAM_LAB_BLOCK_HEAP === '0' || !heapPipeOpen()) return null;
  const shared = new SharedArrayBuffer(8);
  const beat = new Float64Array(shared, 0, 1);
  let worker: Worker;
  try {
    // A small young generation: the thread's own garbage (a session and a line per reading) is
    // collected before it grows RSS (report-slow's RSS above idle: 344 MB with the default, 332 MB
    // with this, 333–335 MB without the thread).
    worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { shared, fd: HEAP_FD },
      resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 16 },
    });
  } catch {
    // A fenced run without --allow-worker (server/user-strategies/fence.ts): no thread, no watch.
    return null;
  }
  // Never what keeps a process alive; a thread that fails (no inspector module) just ends the watch.
  worker.unref();
  worker.on('error', () => {});
  const online = new Promise<void>((resolve) => {
    worker.once('online', () => resolve());
    worker.once('exit', () => resolve());
  });
  const gone = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    online,
    arm: (intervalMs) => {
      beat[0] = Date.now();
      worker.postMessage({ type: 'arm', intervalMs });
    },
    beat: () => {
      beat[0] = Date.now();
    },
    stop: () => {
      worker.postMessage({ type: 'stop' });
      return gone;
    },
  };
}
