import type { Sample } from '../../lib/protocol';

/** Counters the child's consumer and stream update as the run goes. */
export interface Progress {
  bytesRead: number;
  bytesProcessed: number;
  chunks: number;
  inFlight: number;
  readableLength: number;
}

/** A histogram like the one monitorEventLoopDelay() returns (values in ns). */
export interface DelayHistogram {
  mean: number;
  max: number;
  reset(): void;
}

export interface SamplerSources {
  memoryUsage(): NodeJS.MemoryUsage;
  progress(): Progress;
  /** Event-loop delay since the previous sample; reset after each reading. */
  loopDelay: DelayHistogram;
  gc(): { count: number; totalMs: number };
  now(): number;
  wallClock(): number;
  /** Called before reading memory in retained mode (global.gc), so garbage is not counted. */
  collect?: () => void;
}

const NS_PER_MS = 1e6;

/** Takes one reading of everything a run reports. Pure apart from its injected sources. */
export class Sampler {
  private readonly startedAt: number;

  constructor(private readonly sources: SamplerSources) {
    this.startedAt = sources.now();
  }

  take(): Sample {
    const s = this.sources;
    s.collect?.();
    const m = s.memoryUsage();
    const p = s.progress();
    const gc = s.gc();
    // A histogram with no recorded delay reports mean NaN and a huge min; report 0 instead.
    const mean = Number.isFinite(s.loopDelay.mean) ? s.loopDelay.mean / NS_PER_MS : 0;
    const max = s.loopDelay.max > 0 ? s.loopDelay.max / NS_PER_MS : 0;
    s.loopDelay.reset();
    return {
      t: s.now() - this.startedAt,
      at: s.wallClock(),
      rss: m.rss,
      heapTotal: m.heapTotal,
      heapUsed: m.heapUsed,
      external: m.external,
      arrayBuffers: m.arrayBuffers,
      bytesRead: p.bytesRead,
      bytesProcessed: p.bytesProcessed,
      chunks: p.chunks,
      inFlight: p.inFlight,
      readableLength: p.readableLength,
      elMeanMs: round(mean),
      elMaxMs: round(max),
      gcCount: gc.count,
      gcMs: round(gc.totalMs),
    };
  }
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
