/**
 * The parent side of an inspected run: one inspector session to the run's process (its URL comes
 * from server/child/inspect.ts) that drives V8's CPU profiler, its sampling heap profiler and its
 * heap snapshots. The inspector answers on its own thread, so a busy main thread still gets a
 * profile read or a snapshot started; a snapshot itself stops the main thread while V8 writes it.
 * Never throws: each failure becomes that part's error, and the run goes on.
 */
import type { ChildProcess } from 'node:child_process';
import { closeSync, openSync, writeSync } from 'node:fs';
import type { Socket } from 'node:net';
import { COMMON_LIMITS } from '../../lib/protocol/params';
import type { CpuProfile } from '../../lib/profile/cpu-profile';
import { functionsByAllocation, heapFlameTree, sampledBytes, type HeapProfile } from '../../lib/profile/heap-profile';
import type { HeapProfileSummary } from '../../lib/protocol';
import { sendToChild } from '../child/protocol';
import { connect, summarizeProfile, type InspectorSession, type ProfileResult } from './profiler';
import { isHarnessScript } from './harness-scripts';

/** Functions kept in a heap profile's brief. */
const TOP_ALLOCATORS = 15;
/** A snapshot of a big heap takes a while (V8 walks every object): minutes, not the 5 s of other calls. */
const SNAPSHOT_TIMEOUT_MS = 5 * 60_000;

export interface InspectOptions {
  /** CPU profiler's interval (µs); null = no CPU profile. */
  cpuIntervalUs: number | null;
  /** Heap profiler's mean interval (KB); null = no heap profile. */
  heapIntervalKb: number | null;
}

/** The brief of a heap profile, read `atMs` after the strategy started. */
export function summarizeHeapProfile(profile: HeapProfile, intervalKb: number, atMs: number): HeapProfileSummary {
  let tree: HeapProfileSummary['tree'];
  try {
    tree = heapFlameTree(profile);
  } catch {
    // A recursion deep enough to overflow the tree's walk: the table still stands, without the flame graph.
    tree = undefined;
  }
  return {
    intervalKb,
    sampledBytes: sampledBytes(profile),
    atMs,
    top: functionsByAllocation(profile, isHarnessScript).slice(0, TOP_ALLOCATORS),
    tree,
    error: null,
  };
}

export interface HeapResult {
  profile: HeapProfile | null;
  summary: HeapProfileSummary;
}

export interface InspectResult {
  cpu: ProfileResult | null;
  heap: HeapResult | null;
}

/**
 * A run's inspection, from the child's inspector URL to its profiles: `attach` starts what was
 * asked for and tells the child to go on; `readHeapProfile` and `snapshot` work while it runs (one
 * call at a time); `stop` (once; later calls get the same promise) collects the profiles, closes the
 * session and tells the child it may exit.
 */
export class Inspection {
  private session: InspectorSession | null = null;
  private attached: Promise<void> | null = null;
  private stopped: Promise<InspectResult> | null = null;
  private error: string | null = null;
  // Snapshots and profile reads one after another: two snapshots at once would each pause the run.
  private busy: Promise<unknown> = Promise.resolve();
  private readonly cpuUs: number | null;
  private readonly heapKb: number | null;

  constructor(opts: InspectOptions) {
    this.cpuUs = opts.cpuIntervalUs;
    this.heapKb = opts.heapIntervalKb;
  }

  /**
   * The child's inspector URL: the first one only (a later 'inspector' message is not the
   * bootstrap's, server/child/bootstrap.ts). True when it took `socket` (the first time).
   */
  attach(url: string, child: ChildProcess, socket?: Socket): boolean {
    if (this.attached) return false;
    this.attached = (async () => {
      try {
        const session = (this.session = await connect(url, socket));
        if (this.cpuUs !== null) {
          await session.call('Profiler.enable');
          await session.call('Profiler.setSamplingInterval', { interval: this.cpuUs });
          await session.call('Profiler.start');
        }
        if (this.heapKb !== null) {
          // Collected objects count too: the question is who allocates, not only who still holds.
          await session.call('HeapProfiler.startSampling', {
            samplingInterval: this.heapKb * 1024,
            includeObjectsCollectedByMajorGC: true,
            includeObjectsCollectedByMinorGC: true,
          });
        }
      } catch (err) {
        this.error = `the profiler did not start: ${(err as Error).message}`;
      }
      sendToChild(child, { type: 'profiler.started' });
    })();
    return true;
  }

  /** The heap profile so far, without stopping the sampler; null when the run is not heap-profiled. */
  readHeapProfile(atMs: number): Promise<HeapResult | null> {
    const kb = this.heapKb;
    if (kb === null) return Promise.resolve(null);
    return this.queued(async () => {
      try {
        const s = await this.ready();
        if (this.error) return this.heapFailed(this.error, atMs);
        const { profile } = (await s.call('HeapProfiler.getSamplingProfile')) as { profile: HeapProfile };
        return { profile, summary: summarizeHeapProfile(profile, kb, atMs) };
      } catch (err) {
        return this.heapFailed(`the heap profile could not be read: ${(err as Error).message}`, atMs);
      }
    });
  }

  /**
   * Writes a heap snapshot of the run's process to `file` (the run stands still meanwhile): its
   * size and the pause. Throws with the reason when it could not be taken.
   */
  snapshot(file: string): Promise<{ bytes: number; pauseMs: number }> {
    return this.queued(async () => {
      const s = await this.ready();
      const fd = openSync(file, 'w', 0o600);
      let bytes = 0;
      let failed: Error | null = null;
      // Chunks arrive as events before the call's answer; written at once, so nothing piles up here.
      // A failed write (a full disk) is kept and fails the snapshot: it must not throw in ws's listener.
      const off = s.onEvent((method, params) => {
        if (method !== 'HeapProfiler.addHeapSnapshotChunk' || failed) return;
        try {
          bytes += writeSync(fd, String(params.chunk ?? ''));
        } catch (err) {
          failed = err as Error;
        }
      });
      const started = performance.now();
      try {
        await s.call('HeapProfiler.takeHeapSnapshot', { reportProgress: false }, SNAPSHOT_TIMEOUT_MS);
        if (failed) throw new Error(`the snapshot could not be written: ${(failed as Error).message}`);
        return { bytes, pauseMs: performance.now() - started };
      } finally {
        off();
        closeSync(fd);
      }
    });
  }

  stop(child: ChildProcess | null, atMs: number): Promise<InspectResult> {
    this.stopped ??= (async () => {
      await this.attached;
      await this.busy;
      try {
        if (!this.session) {
          const why = this.error ?? 'the run’s process never opened its inspector';
          return { cpu: this.cpuUs === null ? null : this.cpuFailed(why), heap: this.heapKb === null ? null : this.heapFailed(why, atMs) };
        }
        return { cpu: await this.stopCpu(this.session), heap: await this.stopHeap(this.session, atMs) };
      } finally {
        this.session?.close();
        if (child) sendToChild(child, { type: 'profiler.stopped' });
      }
    })();
    return this.stopped;
  }

  private async stopCpu(session: InspectorSession): Promise<ProfileResult | null> {
    if (this.cpuUs === null) return null;
    if (this.error) return this.cpuFailed(this.error);
    try {
      const { profile } = (await session.call('Profiler.stop')) as { profile: CpuProfile };
      return { profile, summary: summarizeProfile(profile, this.cpuUs) };
    } catch (err) {
      return this.cpuFailed(`the profile was lost: ${(err as Error).message}`);
    }
  }

  private async stopHeap(session: InspectorSession, atMs: number): Promise<HeapResult | null> {
    if (this.heapKb === null) return null;
    if (this.error) return this.heapFailed(this.error, atMs);
    try {
      const { profile } = (await session.call('HeapProfiler.stopSampling')) as { profile: HeapProfile };
      return { profile, summary: summarizeHeapProfile(profile, this.heapKb, atMs) };
    } catch (err) {
      return this.heapFailed(`the heap profile was lost: ${(err as Error).message}`, atMs);
    }
  }

  private cpuFailed(message: string): ProfileResult {
    return { profile: null, summary: { intervalUs: this.cpuUs ?? COMMON_LIMITS.profileIntervalUs.default, samples: 0, sampledMs: 0, top: [], error: message } };
  }

  private heapFailed(message: string, atMs = 0): HeapResult {
    return { profile: null, summary: { intervalKb: this.heapKb ?? COMMON_LIMITS.heapIntervalKb.default, sampledBytes: 0, atMs, top: [], error: message } };
  }

  private queued<T>(work: () => Promise<T>): Promise<T> {
    const next = this.busy.then(work, work);
    this.busy = next.catch(() => undefined);
    return next;
  }

  private async ready(): Promise<InspectorSession> {
    await this.attached;
    if (!this.session) throw new Error(this.error ?? 'the run’s process never opened its inspector');
    if (this.stopped) throw new Error('the run has ended');
    return this.session;
  }
}
