/**
 * What full garbage collections left, inside the run's process: the figures that tell "garbage not
 * yet collected" from "kept by the strategy" in default mode, where no sample collects first.
 * A scavenge is no evidence: a chunk that lived through two of them (ixjs-from's promise chains)
 * is promoted and only a mark-compact frees it, so after scavenges garbage and kept chunks look
 * alike (measured: docs/results.md §21). A mark-compact frees every unreferenced buffer.
 */
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { PerformanceObserver, constants } from 'node:perf_hooks';

/** What the latest full GC of a sample's interval left, and how far the reader had got by then. */
export interface GcLeft {
  gcLeftArrayBuffers: number;
  gcLeftHeapUsed: number;
  gcLeftBytesRead: number;
}

/**
 * Watches V8's own full GCs: `take()` gives the latest one's reading since the previous take (for
 * the sample), or nothing when none ran (not measured, so no key at all). The reading is taken when
 * the observer is told, a turn after the GC: at most the chunk in hand allocated since.
 */
export function watchFullGcs(bytesRead: () => number): { take(): Partial<GcLeft>; stop(): void } {
  let latest: GcLeft | null = null;
  const observer = new PerformanceObserver((list) => {
    const full = list.getEntries().some((e) => (e as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR);
    if (!full) return;
    const m = process.memoryUsage();
    latest = { gcLeftArrayBuffers: m.arrayBuffers, gcLeftHeapUsed: m.heapUsed, gcLeftBytesRead: bytesRead() };
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    take() {
      const left = latest ?? {};
      latest = null;
      return left;
    },
    stop: () => observer.disconnect(),
  };
}

/** The global gc(), exposed for this call if the run was started without --expose-gc. */
function gcFunction(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * What a full GC leaves once the strategy has finished (after the run's final sample, so no sample
 * of default mode is changed by it): a strategy that keeps what it read in a module-level array
 * still holds it. A gc() in the task that dropped the last reference may still see the buffers on
 * the stack, so it runs a turn later, twice (the second frees what the first's finalizers let go).
 */
export async function collectAndRead(): Promise<{ endGcArrayBuffers: number; endGcHeapUsed: number } | null> {
  try {
    const gc = gcFunction();
    await nextTurn();
    gc();
    await nextTurn();
    gc();
    const m = process.memoryUsage();
    return { endGcArrayBuffers: m.arrayBuffers, endGcHeapUsed: m.heapUsed };
  } catch {
    // A runtime that refuses the flag: not measured, and the verdict says it cannot tell.
    return null;
  }
}
