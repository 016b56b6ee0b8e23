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
  /**
   * monitorEventLoopDelay() records the whole timer interval, so an idle loop reads as its
   * resolution (10 ms reads ~10.1 ms); this offset is subtracted to report the delay itself.
   */
  loopResolutionMs: number;
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
    const mean = Number.isFinite(s.loopDelay.mean) ? loopDelayMs(s.loopDelay.mean, s.loopResolutionMs) : 0;
    const max = s.loopDelay.max > 0 ? loopDelayMs(s.loopDelay.max, s.loopResolutionMs) : 0;
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

/** A histogram value (ns) as delay beyond the timer's own interval, in ms, never negative. */
export function loopDelayMs(ns: number, resolutionMs: number): number {
  if (!Number.isFinite(ns) || ns > 1e15) return 0; // empty histograms report huge or NaN values
  return Math.max(0, ns / NS_PER_MS - resolutionMs);
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
