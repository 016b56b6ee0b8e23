import type { Sample } from '../../lib/protocol';

/** CPU time used so far (process.cpuUsage(), in ms) and event-loop time so far (busy and idle, ms). */
export interface CpuReading {
  userMs: number;
  systemMs: number;
}
export interface LoopTime {
  activeMs: number;
  idleMs: number;
}

/** A histogram like the one monitorEventLoopDelay() returns (values in ns). */
export interface DelayHistogram {
  mean: number;
  max: number;
  reset(): void;
}

export interface SamplerSources {
  memoryUsage(): NodeJS.MemoryUsage;
  /** The lab's own readings (e.g. bytes read and processed). */
  readings(): Record<string, number>;
  /** Cumulative CPU time of the process. */
  cpu(): CpuReading;
  /** Cumulative event-loop busy and idle time (performance.eventLoopUtilization()). */
  loopTime(): LoopTime;
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
  /** CPU used before the sampler started (Node's boot, loading the strategy): not the run's. */
  private readonly firstCpu: CpuReading;
  private prev: { at: number; cpu: CpuReading; loop: LoopTime };

  /**
   * `intervalMs`: how often the bootstrap takes a sample (null: only the first and the final). The
   * sampler's own timer then measures the loop too: it fired as late as the loop was held.
   */
  constructor(
    private readonly sources: SamplerSources,
    private readonly intervalMs: number | null = null,
  ) {
    this.startedAt = sources.now();
    this.firstCpu = sources.cpu();
    this.prev = { at: this.startedAt, cpu: this.firstCpu, loop: sources.loopTime() };
  }

  /** CPU used since the sampler started (the strategy's start). */
  cpuSinceStart(): CpuReading {
    const now = this.sources.cpu();
    return { userMs: round(now.userMs - this.firstCpu.userMs), systemMs: round(now.systemMs - this.firstCpu.systemMs) };
  }

  take(): Sample {
    const s = this.sources;
    s.collect?.();
    const m = s.memoryUsage();
    const readings = s.readings();
    const gc = s.gc();
    const now = s.now();
    const cpu = s.cpu();
    const loop = s.loopTime();
    const elapsedMs = now - this.prev.at;
    const cpuMs = cpu.userMs - this.prev.cpu.userMs + (cpu.systemMs - this.prev.cpu.systemMs);
    const activeMs = loop.activeMs - this.prev.loop.activeMs;
    const loopMs = activeMs + (loop.idleMs - this.prev.loop.idleMs);
    this.prev = { at: now, cpu, loop };
    // The histogram can miss a held loop entirely: its reset() also forgets its last tick, so when
    // this timer runs before the histogram's in every turn of a busy loop, the histogram never
    // records (the deadlines lab read 0 ms for 9 s of 500 ms stalls). How late this sample came is
    // a delay measured all the same.
    const lateMs = this.intervalMs !== null && elapsedMs > this.intervalMs ? elapsedMs - this.intervalMs : 0;
    const recorded = s.loopDelay.max > 0 && Number.isFinite(s.loopDelay.mean);
    const mean = recorded ? loopDelayMs(s.loopDelay.mean, s.loopResolutionMs) : lateMs;
    const max = Math.max(recorded ? loopDelayMs(s.loopDelay.max, s.loopResolutionMs) : 0, lateMs);
    s.loopDelay.reset();
    // Keep this shape (memory first, then the lab's readings): building the object with the
    // readings spread first measurably slowed this process's garbage collection (for-await on
    // 150 MiB: 83 collections instead of 118, default-mode peak RSS +7 MB; docs/results.md §1).
    return {
      t: now - this.startedAt,
      at: s.wallClock(),
      rss: m.rss,
      heapTotal: m.heapTotal,
      heapUsed: m.heapUsed,
      external: m.external,
      arrayBuffers: m.arrayBuffers,
      ...readings,
      elMeanMs: round(mean),
      elMaxMs: round(max),
      gcCount: gc.count,
      gcMs: round(gc.totalMs),
      // The first sample comes at once: an empty interval has no rate yet, so none is given (not 0).
      ...(elapsedMs > 0 && { cpuPct: round((100 * cpuMs) / elapsedMs) }),
      ...(loopMs > 0 && { elu: round(activeMs / loopMs) }),
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
