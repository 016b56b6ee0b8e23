import { describe, expect, it } from 'vitest';
import { loopDelayMs, Sampler, type DelayHistogram, type SamplerSources } from './sampler';

/**
 * Injected sources with scripted readings; `calls` records the order they were used in. The loop
 * resolution defaults to 0 so delays convert one to one; one test sets it.
 */
function fakeSources(opts: { collect?: boolean; loopResolutionMs?: number } = {}) {
  const calls: string[] = [];
  const clock = { now: 1000, wall: 1_700_000_000_000 };
  const memory: NodeJS.MemoryUsage = { rss: 50_000_000, heapTotal: 8_000_000, heapUsed: 6_000_000, external: 3_000_000, arrayBuffers: 1_500_000 };
  const progress: Record<string, number> = { bytesRead: 131_072, bytesProcessed: 65_536, chunks: 1, inFlight: 1, readableLength: 65_536 };
  const cpu = { userMs: 100, systemMs: 20 };
  const loop = { activeMs: 50, idleMs: 950 };
  const gc = { count: 3, totalMs: 1.23456 };
  const loopDelay: DelayHistogram & { resets: number } = {
    mean: 1_500_000,
    max: 3_250_000,
    resets: 0,
    reset() {
      calls.push('reset');
      this.resets += 1;
    },
  };
  const sources: SamplerSources = {
    memoryUsage: () => {
      calls.push('memoryUsage');
      return { ...memory };
    },
    readings: () => {
      calls.push('progress');
      return progress;
    },
    cpu: () => ({ ...cpu }),
    loopTime: () => ({ ...loop }),
    loopDelay,
    loopResolutionMs: opts.loopResolutionMs ?? 0,
    gc: () => {
      calls.push('gc');
      return gc;
    },
    now: () => clock.now,
    wallClock: () => clock.wall,
    collect: opts.collect ? () => calls.push('collect') : undefined,
  };
  return { sources, calls, clock, memory, progress, gc, loopDelay, cpu, loop };
}

describe('Sampler', () => {
  it('maps memory, progress and gc readings into one sample, loop delay converted from ns to ms', () => {
    const f = fakeSources();
    const sampler = new Sampler(f.sources);
    f.clock.now = 1250;
    expect(sampler.take()).toEqual({
      t: 250,
      at: 1_700_000_000_000,
      rss: 50_000_000,
      heapTotal: 8_000_000,
      heapUsed: 6_000_000,
      external: 3_000_000,
      arrayBuffers: 1_500_000,
      bytesRead: 131_072,
      bytesProcessed: 65_536,
      chunks: 1,
      inFlight: 1,
      readableLength: 65_536,
      elMeanMs: 1.5,
      elMaxMs: 3.25,
      gcCount: 3,
      gcMs: 1.235,
      cpuPct: 0,
    });
  });

  it('gives no CPU share or loop utilization where nothing was measured: the first sample, taken at once, has none (not 0)', () => {
    const f = fakeSources();
    const first = new Sampler(f.sources).take();
    expect(first).not.toHaveProperty('cpuPct');
    expect(first).not.toHaveProperty('elu');
  });

  it("takes the delay from its own timer's lateness when the histogram recorded nothing: a loop held for 600 ms between 50 ms samples", () => {
    const f = fakeSources();
    const sampler = new Sampler(f.sources, 50);
    f.clock.now = 1050;
    f.loopDelay.mean = 1_000_000;
    f.loopDelay.max = 2_000_000;
    // On time: the histogram's own values.
    expect(sampler.take()).toMatchObject({ elMeanMs: 1, elMaxMs: 2 });
    // The histogram's reset forgot its last tick and it never fired in time (mean NaN, max 0): the
    // sample itself came 550 ms late.
    f.clock.now = 1650;
    f.loopDelay.mean = Number.NaN;
    f.loopDelay.max = 0;
    expect(sampler.take()).toMatchObject({ elMeanMs: 550, elMaxMs: 550 });
    // When the histogram saw less than the sample's own lateness, the larger is the max.
    f.clock.now = 2000;
    f.loopDelay.mean = 5_000_000;
    f.loopDelay.max = 20_000_000;
    expect(sampler.take()).toMatchObject({ elMeanMs: 5, elMaxMs: 300 });
  });

  it('reports CPU as % of one core and event-loop utilization over each interval', () => {
    const f = fakeSources();
    const sampler = new Sampler(f.sources);
    f.clock.now = 1200;
    // 150 ms of CPU (user 120 + system 30) in 200 ms: 75 % of a core; the loop busy 60 of 200 ms.
    f.cpu.userMs += 120;
    f.cpu.systemMs += 30;
    f.loop.activeMs += 60;
    f.loop.idleMs += 140;
    expect(sampler.take()).toMatchObject({ cpuPct: 75, elu: 0.3 });
    f.clock.now = 1300;
    f.loop.idleMs += 100;
    expect(sampler.take()).toMatchObject({ cpuPct: 0, elu: 0 });
    expect(sampler.cpuSinceStart()).toEqual({ userMs: 120, systemMs: 30 });
  });

  it('measures t from construction, not from the clock origin or the previous sample', () => {
    const f = fakeSources();
    f.clock.now = 5000;
    const sampler = new Sampler(f.sources);
    f.clock.now = 5100;
    expect(sampler.take().t).toBe(100);
    f.clock.now = 5600;
    f.clock.wall += 600;
    const second = sampler.take();
    expect(second.t).toBe(600);
    expect(second.at).toBe(1_700_000_000_600);
  });

  it('resets the loop-delay histogram after every reading, so each sample covers one interval', () => {
    const f = fakeSources();
    const sampler = new Sampler(f.sources);
    sampler.take();
    expect(f.loopDelay.resets).toBe(1);
    // reset comes after the histogram was read (the fake's values are read as plain properties).
    expect(f.calls.indexOf('reset')).toBe(f.calls.length - 1);
    sampler.take();
    expect(f.loopDelay.resets).toBe(2);
  });

  it('reads progress afresh on every sample', () => {
    const f = fakeSources();
    const sampler = new Sampler(f.sources);
    sampler.take();
    f.progress.bytesProcessed = 131_072;
    f.progress.chunks = 2;
    f.progress.inFlight = 0;
    f.memory.arrayBuffers = 2_000_000;
    const s = sampler.take();
    expect([s.bytesProcessed, s.chunks, s.inFlight, s.arrayBuffers]).toEqual([131_072, 2, 0, 2_000_000]);
  });

  it('collects garbage before reading memory in retained mode', () => {
    const f = fakeSources({ collect: true });
    new Sampler(f.sources).take();
    expect(f.calls.filter((c) => c === 'collect')).toHaveLength(1);
    expect(f.calls.indexOf('collect')).toBeLessThan(f.calls.indexOf('memoryUsage'));
    expect(f.calls.indexOf('collect')).toBe(0);
  });

  it('does not collect when no collector is given', () => {
    const f = fakeSources();
    new Sampler(f.sources).take();
    expect(f.calls).not.toContain('collect');
    expect(f.calls).toEqual(['memoryUsage', 'progress', 'gc', 'reset']);
  });

  it('reports 0 ms for a histogram that recorded nothing (mean NaN, max 0) while its own timer was on time', () => {
    const f = fakeSources();
    f.loopDelay.mean = Number.NaN;
    f.loopDelay.max = 0;
    const s = new Sampler(f.sources).take();
    expect([s.elMeanMs, s.elMaxMs]).toEqual([0, 0]);
  });

  it('reports loop delay beyond the monitor resolution, never below zero', () => {
    // monitorEventLoopDelay({ resolution: 10 }) on an idle loop reads ~10.1 ms: 0.1 ms of real delay.
    const f = fakeSources({ loopResolutionMs: 10 });
    f.loopDelay.mean = 10_100_000;
    f.loopDelay.max = 5_000_000;
    const s = new Sampler(f.sources).take();
    expect([s.elMeanMs, s.elMaxMs]).toEqual([0.1, 0]);
  });

  it('rounds loop delay and gc time to the microsecond', () => {
    const f = fakeSources();
    f.loopDelay.mean = 1_234_567;
    f.loopDelay.max = 9_876_543_210;
    f.gc.totalMs = 0.0004;
    const s = new Sampler(f.sources).take();
    expect([s.elMeanMs, s.elMaxMs, s.gcMs]).toEqual([1.235, 9876.543, 0]);
  });
});

describe('loopDelayMs', () => {
  it('converts ns to ms beyond the resolution, and reads empty-histogram values as 0', () => {
    expect(loopDelayMs(12_500_000, 10)).toBe(2.5);
    expect(loopDelayMs(9_000_000, 10)).toBe(0);
    expect(loopDelayMs(Number.NaN, 10)).toBe(0);
    // An empty histogram's min/percentiles are ~9.2e18 ns.
    expect(loopDelayMs(9_223_372_036_854_776_000, 10)).toBe(0);
  });
});
