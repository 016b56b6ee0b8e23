import { describe, expect, it } from 'vitest';
import { verdictFor } from './verdict';
import { DEFAULT_PARAMS, MIB } from './params';
import type { RunSummary } from './protocol';

const FILE = 32 * MIB;

function summary(over: Omit<Partial<RunSummary>, 'peak'> & { peak?: Partial<RunSummary['peak']> } = {}): RunSummary {
  const { peak, ...rest } = over;
  return {
    lab: 'streams',
    cpu: null,
    runId: 'r1',
    strategy: 'rxjs-from',
    outcome: 'completed',
    reason: null,
    fileBytes: FILE,
    bytesRead: FILE,
    bytesProcessed: FILE,
    chunks: 512,
    durationMs: 6000,
    mbPerSec: 32 / 6,
    peak: { rss: 90 * MIB, heapTotal: 10 * MIB, heapUsed: 8 * MIB, external: 33 * MIB, arrayBuffers: 2 * MIB, ...peak },
    idle: null,
    aboveIdle: null,
    procPeakRss: 91 * MIB,
    peakBufferedBytes: 128 * 1024,
    peakInFlight: 1,
    eventLoopDelayMs: { p50: 1, p99: 2, max: 3 },
    gc: { count: 3, totalMs: 4 },
    sampleCount: 120,
    nodeVersion: '20.20.2',
    library: { name: 'rxjs', version: '7.8.2' },
    params: { ...DEFAULT_PARAMS, sizeMb: 32 },
    startedAt: 1_700_000_000_000,
    ...rest,
  };
}

describe('verdictFor', () => {
  it('says the reader ignored backpressure when arrayBuffers held most of the file', () => {
    const s = summary({ peak: { arrayBuffers: 0.98 * FILE }, peakBufferedBytes: 30 * MIB });
    expect(verdictFor(s, 'push')).toBe(
      'arrayBuffers grew to 98% of the file (31.4 MB) while the consumer fell behind by up to 30 MB: the reader ignored backpressure.',
    );
  });

  it('names the concurrency when an operator started a consumer call per chunk', () => {
    const s = summary({ peak: { arrayBuffers: 0.75 * FILE }, peakBufferedBytes: 24 * MIB, peakInFlight: 380 });
    expect(verdictFor(s, 'push')).toBe(
      'arrayBuffers reached 75% of the file (24 MB) with up to 380 consumer calls running at once: the operator ignored backpressure.',
    );
  });

  it('points at the heap when the reader kept pace but the results were kept (toArray)', () => {
    const s = summary({
      peak: { arrayBuffers: 2 * MIB, heapUsed: 40 * MIB },
      aboveIdle: { rss: 60 * MIB, heapTotal: 40 * MIB, heapUsed: 36 * MIB, external: 1 * MIB, arrayBuffers: 1 * MIB },
      peakBufferedBytes: 128 * 1024,
    });
    expect(verdictFor(s, 'pull')).toBe(
      'The reader stayed within 0.1 MB of the consumer, yet heapUsed grew by 36 MB (113% of the file): the results were kept on the V8 heap.',
    );
  });

  it('says backpressure held when arrayBuffers stayed small, rounding the bound up', () => {
    const s = summary({ peak: { arrayBuffers: 1.33 * MIB }, peakBufferedBytes: 192 * 1024 });
    expect(verdictFor(s, 'pull')).toBe('arrayBuffers stayed under 1.4 MB (4% of the file): backpressure held.');
  });

  it('puts a large arrayBuffers peak down to garbage when the reader never ran ahead', () => {
    const s = summary({ peak: { arrayBuffers: 11.6 * MIB }, peakBufferedBytes: 192 * 1024 });
    expect(verdictFor(s, 'pull')).toBe(
      'arrayBuffers peaked at 11.6 MB (36% of the file), yet the reader was never more than 0.2 MB ahead of the consumer, so most of it was garbage not yet collected: backpressure held.',
    );
  });

  it('does not explain a small file’s few chunks of garbage away', () => {
    const s = summary({ fileBytes: 8 * MIB, bytesProcessed: 8 * MIB, peak: { arrayBuffers: 0.9 * MIB }, peakBufferedBytes: 128 * 1024 });
    expect(verdictFor(s, 'pull')).toBe('arrayBuffers stayed under 0.9 MB (11% of the file): backpressure held.');
  });

  it('does not credit a push reader with backpressure when its consumer simply kept up', () => {
    const s = summary({ peak: { arrayBuffers: 0.5 * MIB }, peakBufferedBytes: 64 * 1024 });
    expect(verdictFor(s, 'push')).toBe(
      'arrayBuffers stayed under 0.5 MB (2% of the file): the consumer kept up, so the missing backpressure did not show.',
    );
  });

  it('calls a reader that ran well ahead but not over half the file loose', () => {
    const s = summary({ peak: { arrayBuffers: 9 * MIB }, peakBufferedBytes: 8 * MIB });
    expect(verdictFor(s)).toBe(
      'The reader ran up to 8.0 MB (25% of the file) ahead of the consumer and arrayBuffers peaked at 9.0 MB: backpressure was loose but the file never piled up whole.',
    );
  });

  it('reports data-lost with how much never reached the consumer', () => {
    const s = summary({ outcome: 'data-lost', bytesProcessed: 8 * MIB, peak: { arrayBuffers: 31 * MIB } });
    expect(verdictFor(s)).toBe(
      'Data lost: the run finished with only 8.0 of 32 MB (25%) processed, so 24 MB never reached the consumer (arrayBuffers peaked at 31 MB).',
    );
  });

  it('reports a crossed RSS budget as out-of-memory with the budget and the RSS seen', () => {
    const s = summary({
      outcome: 'out-of-memory',
      bytesProcessed: 16 * MIB,
      peak: { rss: 200 * MIB, arrayBuffers: 150 * MIB },
      procPeakRss: 260 * MIB,
      params: { ...DEFAULT_PARAMS, budgetMb: 256 },
    });
    expect(verdictFor(s)).toBe(
      'Out of memory: RSS reached 260 MB and passed the 256 MB memory budget after 16 of 32 MB (50%) was processed, with arrayBuffers at 150 MB.',
    );
  });

  it('blames the V8 heap limit when no budget was crossed', () => {
    const s = summary({ outcome: 'out-of-memory', bytesProcessed: 0, procPeakRss: 120 * MIB, params: { ...DEFAULT_PARAMS, budgetMb: null } });
    expect(verdictFor(s)).toBe(
      'Out of memory: RSS reached 120 MB and hit the V8 heap limit after 0.0 of 32 MB (0%) was processed, with arrayBuffers at 2.0 MB.',
    );
  });

  it('quotes the reason of a crash', () => {
    const s = summary({ outcome: 'crashed', bytesProcessed: 4 * MIB, reason: 'killed by SIGSEGV.' });
    expect(verdictFor(s)).toBe('Crashed after 4.0 of 32 MB (13%) was processed: killed by SIGSEGV.');
  });

  it('tells a run stopped in the queue from one stopped mid-way', () => {
    expect(verdictFor(summary({ outcome: 'stopped', bytesProcessed: 0, sampleCount: 0, durationMs: 0 }))).toBe(
      'Stopped before it started: nothing was measured.',
    );
    expect(verdictFor(summary({ outcome: 'stopped', bytesProcessed: 16 * MIB, durationMs: 2500 }))).toBe(
      'Stopped after 2.5 s with 16 of 32 MB (50%) processed; arrayBuffers peaked at 2.0 MB.',
    );
  });

  it('reports a timeout with the configured limit', () => {
    const s = summary({ outcome: 'timed-out', bytesProcessed: 3.2 * MIB, params: { ...DEFAULT_PARAMS, timeoutS: 30 } });
    expect(verdictFor(s)).toBe('Timed out after 30 s with 3.2 of 32 MB (10%) processed; arrayBuffers peaked at 2.0 MB.');
  });
});
