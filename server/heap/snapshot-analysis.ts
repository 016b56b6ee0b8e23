/**
 * analyzeSnapshot(file): what holds the memory in a V8 heap snapshot (lib/heap/analysis.ts says
 * what comes back), worked out off the caller's thread.
 *
 * Why a worker thread: parsing a snapshot of hundreds of MB and building its dominator tree is
 * seconds of synchronous work that would stall the server's event loop (its live charts, its
 * other runs); a thread with resourceLimits also bounds the JS heap the job may take, and a
 * timeout bounds its time. The thread is always terminated before the promise settles, whatever
 * happened, so none is left behind.
 *
 * Why our own parser (server/heap/snapshot-reader.ts) and dominator tree rather than
 * @vscode/v8-heap-parser alone: that package gives retained sizes and class groups but no edge
 * names, no source locations and no way to walk from an object to its retainers by name, which
 * is the point here; it also needs the whole file as one Uint8Array inside 32-bit WASM memory.
 * Our retained sizes are checked against it in reference-check.test.ts (they agree except on a
 * handful of nodes where its dominator shortcut is off by a few bytes; ours match the textbook
 * fixpoint).
 */
import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { MAX_LISTED, type SnapshotAnalysis, snapshotAnalysisSchema } from '../../lib/heap/analysis';
import type { SnapshotJob, SnapshotWorkerMessage } from './snapshot-worker';

export interface AnalyzeSnapshotOptions {
  /** Give up after this long (default 5 min; on 2 busy vCPUs a 188 MB snapshot took 4.6 s, a 565 MB one 20 s). */
  timeoutMs?: number;
  /**
   * The thread's JS heap limit (MB, default 2048). The snapshot's strings live there; its numbers
   * live in typed arrays outside it, which the limit does not bound: about 2.5 times the file at
   * the peak (1.4 GB of RSS for a 565 MB snapshot).
   */
  maxHeapMb?: number;
  /** Classes to list (default 20, at most MAX_LISTED). */
  topGroups?: number;
  /** Holders to list (default 5, at most MAX_LISTED). */
  topObjects?: number;
}

const PREFIX = 'the heap snapshot could not be analysed';

function failure(file: string, why: string): Error {
  return new Error(`${PREFIX}: ${why} (${file})`);
}

function describeFailure(m: { message: string; code?: string }): string {
  if (m.code === 'ENOENT') return 'no such file';
  if (m.code === 'EISDIR') return 'it is a folder, not a file';
  if (m.code === 'EACCES') return 'no permission to read it';
  return m.message;
}

export function analyzeSnapshot(file: string, opts: AnalyzeSnapshotOptions = {}): Promise<SnapshotAnalysis> {
  const path = resolve(file);
  const timeoutMs = opts.timeoutMs ?? 5 * 60_000;
  const maxHeapMb = opts.maxHeapMb ?? 2048;
  const listed = (n: number | undefined) => (n === undefined ? undefined : Math.max(0, Math.min(MAX_LISTED, Math.floor(n))));
  const job: SnapshotJob = { file: path, options: { topGroups: listed(opts.topGroups), topObjects: listed(opts.topObjects) } };
  return new Promise((resolvePromise, rejectPromise) => {
    const worker = new Worker(new URL('./worker-entry.mjs', import.meta.url), {
      workerData: job,
      // Not the host's flags (see worker-entry.mjs): the entry brings its own TypeScript loader.
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: maxHeapMb },
      stdout: false,
      stderr: false,
    });
    let settled = false;
    const settle = (err: Error | null, analysis?: SnapshotAnalysis): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      worker.removeAllListeners();
      // A late 'error' from a thread being torn down must not become an unhandled event.
      worker.on('error', () => {});
      void worker.terminate().finally(() => (err ? rejectPromise(err) : resolvePromise(analysis!)));
    };
    const timer = setTimeout(
      () => settle(failure(path, `it took longer than ${timeoutMs < 10_000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`}`)),
      timeoutMs,
    );
    worker.on('message', (m: SnapshotWorkerMessage) => {
      if (m.type === 'failed') return settle(failure(path, describeFailure(m)));
      const parsed = snapshotAnalysisSchema.safeParse(m.analysis);
      if (!parsed.success) return settle(failure(path, `the analysis came back malformed: ${parsed.error.message}`));
      settle(null, parsed.data);
    });
    worker.on('error', (err: NodeJS.ErrnoException) => {
      const why =
        err.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `it needed more than the ${maxHeapMb} MB of JS heap allowed (maxHeapMb)`
          : `the analysing thread failed: ${err.message}`;
      settle(failure(path, why));
    });
    worker.on('exit', (code) => settle(failure(path, `the analysing thread exited (code ${code}) before it answered`)));
  });
}
