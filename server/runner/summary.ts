import { MEMORY_FIELDS, type Memory, type Outcome, type ProcSample, type RunSummary, type Sample } from '../../lib/protocol';
import type { RunParams } from '../../lib/params';

const zeroMemory = (): Memory => ({ rss: 0, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 });

/** Everything the runner learns about a run, folded into a summary at the end. Pure. */
export class RunRecorder {
  readonly peak: Memory = zeroMemory();
  idle: Memory | null = null;
  last: Sample | null = null;
  procPeakRss = 0;
  peakBufferedBytes = 0;
  peakInFlight = 0;
  sampleCount = 0;
  eventLoop = { p50: 0, p99: 0, max: 0 };

  addSample(s: Sample): void {
    for (const f of MEMORY_FIELDS) this.peak[f] = Math.max(this.peak[f], s[f]);
    this.peakBufferedBytes = Math.max(this.peakBufferedBytes, s.bytesRead - s.bytesProcessed);
    this.peakInFlight = Math.max(this.peakInFlight, s.inFlight);
    this.eventLoop.max = Math.max(this.eventLoop.max, s.elMaxMs);
    this.last = s;
    this.sampleCount += 1;
  }

  addProc(p: ProcSample): void {
    this.procPeakRss = Math.max(this.procPeakRss, p.rss);
  }

  summarize(run: {
    runId: string;
    strategy: string;
    outcome: Outcome;
    reason: string | null;
    fileBytes: number;
    durationMs: number;
    params: RunParams;
    library: { name: string; version: string };
    startedAt: number;
  }): RunSummary {
    const last = this.last;
    const bytesProcessed = last?.bytesProcessed ?? 0;
    const aboveIdle = this.idle ? zeroMemory() : null;
    if (aboveIdle && this.idle) {
      for (const f of MEMORY_FIELDS) aboveIdle[f] = Math.max(0, this.peak[f] - this.idle[f]);
    }
    return {
      ...run,
      bytesRead: last?.bytesRead ?? 0,
      bytesProcessed,
      chunks: last?.chunks ?? 0,
      mbPerSec: run.durationMs > 0 ? bytesProcessed / 1024 / 1024 / (run.durationMs / 1000) : 0,
      peak: { ...this.peak },
      idle: this.idle,
      aboveIdle,
      procPeakRss: this.procPeakRss,
      peakBufferedBytes: this.peakBufferedBytes,
      peakInFlight: this.peakInFlight,
      eventLoopDelayMs: { ...this.eventLoop },
      gc: { count: last?.gcCount ?? 0, totalMs: last?.gcMs ?? 0 },
      sampleCount: this.sampleCount,
      nodeVersion: process.versions.node,
    };
  }
}
