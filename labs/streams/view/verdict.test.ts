import { describe, expect, it } from 'vitest';
import { verdictOf } from '../../verdict-of';
import { MIB } from '../../../lib/protocol/params';
import { DEFAULT_STREAMS_PARAMS } from '../shared/params';
import { DEFAULT_MODE, FILE, OTHERS, RECORDED_LOSSES, RETAINED_MODE, summary } from './verdict.fixtures';
import { traitsOf } from '../../test-traits';
import type { StreamsSummary } from '../shared/schema';

/** The sentence of a run's verdict, as the card shows it. */
const verdictFor = (...args: Parameters<typeof verdictOf>) => verdictOf(...args).text;

const PULL = { mode: 'pull', keepsResults: false } as const;
const PUSH = { mode: 'push', keepsResults: false } as const;
const TO_ARRAY = { mode: 'pull', keepsResults: true } as const;

describe('verdictFor on recorded runs (16 MiB file, 2 ms per chunk)', () => {
  it('calls the default-mode heap growth of a strategy that discards its results garbage, not results kept', () => {
    const text = verdictFor(DEFAULT_MODE.ixjsFrom, PULL);
    expect(text).toBe(
      'The reader stayed within 0.1 MB of the consumer. heapUsed grew by 10.2 MB (64% of the file) and arrayBuffers peaked at 10.6 MB, ' +
        'but this strategy discards every result, so that was garbage not yet collected: backpressure held. ' +
        'Retained mode (a GC before every sample) counts only memory still referenced.',
    );
    expect(text).not.toContain('kept on the V8 heap');
    expect(verdictFor(DEFAULT_MODE.webStreams, PULL)).toContain(
      'heapUsed grew by 20.1 MB (125% of the file) and arrayBuffers peaked at 1.6 MB, but this strategy discards every result',
    );
  });

  it('says the results were kept when the strategy keeps them by design (toArray), even in default mode', () => {
    expect(verdictFor(DEFAULT_MODE.toArray, TO_ARRAY)).toBe(
      'The reader stayed within 0.1 MB of the consumer, yet heapUsed grew by 14.3 MB (90% of the file): this strategy keeps every result until the end, so they stayed on the V8 heap.',
    );
  });

  it('says the results were kept when retained-mode figures show the heap growth', () => {
    // Retained mode collects before each sample, so the growth is referenced memory whatever the flag says.
    expect(verdictFor(RETAINED_MODE.toArray, PULL)).toBe(
      'The reader stayed within 0.1 MB of the consumer, yet with a GC before every sample heapUsed grew by 16.1 MB (101% of the file): the results were kept on the V8 heap.',
    );
  });

  it('finds backpressure held for ixjs-from once retained mode leaves only referenced memory', () => {
    expect(verdictFor(RETAINED_MODE.ixjsFrom, PULL)).toBe('arrayBuffers stayed under 1.4 MB (8% of the file): backpressure held.');
  });

  it('does not guess when the strategy is unknown to the catalog', () => {
    expect(verdictFor(DEFAULT_MODE.webStreams)).toBe(
      'The reader stayed within 0.2 MB of the consumer, yet heapUsed grew by 20.1 MB (125% of the file); this could be kept results or garbage not yet collected. ' +
        'Retained mode (a GC before every sample) counts only memory still referenced.',
    );
  });

  it('says the reader ignored backpressure when it ran most of the file ahead (rxjs-from)', () => {
    expect(verdictFor(OTHERS.rxjsFrom, PUSH)).toBe(
      'arrayBuffers grew to 87% of the file (13.9 MB) while the consumer fell behind by up to 13.3 MB: the reader ignored backpressure.',
    );
  });

  it('names the concurrency of an operator that starts a consumer call per chunk (ixjs-flatMap before its knob)', () => {
    expect(verdictFor(OTHERS.flatMap, PUSH)).toBe(
      'arrayBuffers reached 54% of the file (8.6 MB) with up to 26 consumer calls running at once: the operator ignored backpressure.',
    );
  });

  it('tells bounded concurrency (N calls, flat memory) from calls bounded over a reader that ran ahead, from the figures', () => {
    // pipeline-generator's memory with 8 calls in flight under a knob of 8: what readable-map or p-map show.
    const bounded = { ...OTHERS.pipeline, peakInFlight: 8, concurrency: 8 };
    expect(verdictFor(bounded, PULL)).toBe(
      'Bounded concurrency: up to 8 consumer calls running at once (the knob: 8), and arrayBuffers stayed under 1.0 MB (6% of the file): ' +
        'the reader waited for a free call, so backpressure held.',
    );
    expect(verdictOf(bounded, PULL).expected).toBe(true);
    // rxjs-from's memory with 8 calls in flight: what mergeMap(fn, 8) shows over a push reader.
    const piled = { ...OTHERS.rxjsFrom, peakInFlight: 8, concurrency: 8 };
    expect(verdictFor(piled, PUSH)).toBe(
      'The calls were bounded (up to 8 consumer calls running at once, the knob: 8), but arrayBuffers grew to 87% of the file (13.9 MB) ' +
        'while the reader ran up to 13.3 MB ahead: the reader did not wait for a free call, so the backlog piled up in memory.',
    );
    expect(verdictOf(piled, PUSH).expected).toBe(true);
    // The same figures claimed pull are a contradiction, and calls past the knob are unbounded whatever the claim.
    expect(verdictOf(piled, PULL).expected).toBe(false);
    expect(verdictFor({ ...OTHERS.pipeline, peakInFlight: 12, concurrency: 4 }, PULL)).toContain('That is more than its concurrency knob (4).');
  });

  it('says backpressure held for a pull reader that stayed small (pipeline-generator)', () => {
    expect(verdictFor(OTHERS.pipeline, PULL)).toBe('arrayBuffers stayed under 1.0 MB (6% of the file): backpressure held.');
  });

  it('puts a large arrayBuffers peak of a reader that never ran ahead down to garbage, not ignored backpressure', () => {
    // ixjs-from's default-mode arrayBuffers (66% of the file) with its heap growth below the heap rule's threshold.
    const s = { ...DEFAULT_MODE.ixjsFrom, aboveIdle: { ...DEFAULT_MODE.ixjsFrom.aboveIdle!, heapUsed: 4 * MIB } };
    expect(verdictFor(s, PULL)).toBe(
      'arrayBuffers peaked at 10.6 MB (66% of the file), yet the reader was never more than 0.1 MB ahead of the consumer, so most of it was garbage not yet collected: backpressure held.',
    );
  });

  it('reports the recorded data loss of rxjs-fromEvent + takeUntil(end)', () => {
    expect(verdictFor(RECORDED_LOSSES.fromEventLost, PUSH)).toBe(
      'Data lost: the run finished with only 1.2 of 16 MB (7%) processed, so 14.8 MB never reached the consumer (arrayBuffers peaked at 15.1 MB).',
    );
  });

  it('reports the recorded budget kill of rxjs-from with the RSS seen from outside', () => {
    expect(verdictFor(RECORDED_LOSSES.fromOverBudget, PUSH)).toBe(
      'Out of memory: RSS reached 69.2 MB and passed the 64 MB memory budget after 0.0 of 16 MB (0%) was processed, with arrayBuffers at 0.01 MB.',
    );
  });
});

describe('verdictFor', () => {
  it('says the reader ignored backpressure when arrayBuffers held most of the file', () => {
    const s = summary({ peak: { arrayBuffers: 0.98 * FILE }, peakBufferedBytes: 30 * MIB });
    expect(verdictFor(s, PUSH)).toBe(
      'arrayBuffers grew to 98% of the file (31.4 MB) while the consumer fell behind by up to 30 MB: the reader ignored backpressure.',
    );
  });

  it('says a strategy declared pull is contradicted when its reader ran most of the file ahead', () => {
    // The same figures as the push reader above: the claim changes the verdict's ending, not its finding.
    const s = summary({ peak: { arrayBuffers: 0.98 * FILE }, peakBufferedBytes: 30 * MIB });
    expect(verdictFor(s, PULL)).toBe(
      'arrayBuffers grew to 98% of the file (31.4 MB) while the consumer fell behind by up to 30 MB: the reader ignored backpressure. ' +
        'It is declared pull, but these figures contradict that: this reader does not hold backpressure.',
    );
    const flat = summary({ peak: { arrayBuffers: 0.75 * FILE }, peakBufferedBytes: 24 * MIB, peakInFlight: 380 });
    expect(verdictFor(flat, PULL)).toContain('It is declared pull, but these figures contradict that');
    // A pull reader that held is not accused.
    expect(verdictFor(summary({ peak: { arrayBuffers: 1 * MIB }, peakBufferedBytes: 256 * 1024 }), PULL)).not.toContain('declared');
  });

  it('names the concurrency when an operator started a consumer call per chunk', () => {
    const s = summary({ peak: { arrayBuffers: 0.75 * FILE }, peakBufferedBytes: 24 * MIB, peakInFlight: 380 });
    expect(verdictFor(s, PUSH)).toBe(
      'arrayBuffers reached 75% of the file (24 MB) with up to 380 consumer calls running at once: the operator ignored backpressure.',
    );
  });

  it('says backpressure held when arrayBuffers stayed small, rounding the bound up', () => {
    const s = summary({ peak: { arrayBuffers: 1.33 * MIB }, peakBufferedBytes: 192 * 1024 });
    expect(verdictFor(s, PULL)).toBe('arrayBuffers stayed under 1.4 MB (4% of the file): backpressure held.');
  });

  it('puts a large arrayBuffers peak down to garbage when the reader never ran ahead', () => {
    const s = summary({ peak: { arrayBuffers: 11.6 * MIB }, peakBufferedBytes: 192 * 1024 });
    expect(verdictFor(s, PULL)).toBe(
      'arrayBuffers peaked at 11.6 MB (36% of the file), yet the reader was never more than 0.2 MB ahead of the consumer, so most of it was garbage not yet collected: backpressure held.',
    );
  });

  it('does not explain a small file’s few chunks of garbage away', () => {
    const s = summary({ fileBytes: 8 * MIB, bytesProcessed: 8 * MIB, peak: { arrayBuffers: 0.9 * MIB }, peakBufferedBytes: 128 * 1024 });
    expect(verdictFor(s, PULL)).toBe('arrayBuffers stayed under 0.9 MB (11% of the file): backpressure held.');
  });

  it('does not credit a push reader with backpressure when its consumer simply kept up', () => {
    const s = summary({ peak: { arrayBuffers: 0.5 * MIB }, peakBufferedBytes: 64 * 1024 });
    expect(verdictFor(s, PUSH)).toBe('arrayBuffers stayed under 0.5 MB (2% of the file): the consumer kept up, so the missing backpressure did not show.');
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
      params: { ...DEFAULT_STREAMS_PARAMS, budgetMb: 256 },
    });
    expect(verdictFor(s)).toBe(
      'Out of memory: RSS reached 260 MB and passed the 256 MB memory budget after 16 of 32 MB (50%) was processed, with arrayBuffers at 150 MB.',
    );
  });

  it('blames the V8 heap limit when no budget was crossed', () => {
    const s = summary({ outcome: 'out-of-memory', bytesProcessed: 0, procPeakRss: 120 * MIB, params: { ...DEFAULT_STREAMS_PARAMS, budgetMb: null } });
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
    const s = summary({ outcome: 'timed-out', bytesProcessed: 3.2 * MIB, params: { ...DEFAULT_STREAMS_PARAMS, timeoutS: 30 } });
    expect(verdictFor(s)).toBe('Timed out after 30 s with 3.2 of 32 MB (10%) processed; arrayBuffers peaked at 2.0 MB.');
  });
});

describe('the verdict’s expected and figures', () => {
  // The catalog's traits of each recorded strategy: its declared mode and outcome, not a copy of them.
  const judged = (s: StreamsSummary) => verdictOf(s, traitsOf(s));

  it('confirms a recorded push reader that ignored backpressure and a pull reader that held it', () => {
    expect(judged(OTHERS.rxjsFrom).expected).toBe(true);
    expect(judged(OTHERS.pipeline).expected).toBe(true);
    // Recorded before ixjs-flatMap took the knob: 26 calls at once, no bound, now contradict its bounded pull claim.
    expect(judged(OTHERS.flatMap).expected).toBe(false);
    expect(judged(RETAINED_MODE.ixjsFrom).expected).toBe(true);
  });

  it('quotes the figures of its sentence in raw units', () => {
    const v = judged(OTHERS.rxjsFrom);
    expect(v.text).toContain('13.9 MB');
    expect(v.figures).toEqual({ 'peak.arrayBuffers': 14625215, fileBytes: OTHERS.rxjsFrom.fileBytes, peakBufferedBytes: 13893632 });
    expect(judged(OTHERS.flatMap).figures.peakInFlight).toBe(26);
  });

  it('contradicts a reader declared pull whose figures show it ran ahead', () => {
    const piled = { ...OTHERS.rxjsFrom, strategy: 'pipeline-generator' };
    const v = judged(piled);
    expect(v.text).toContain('It is declared pull, but these figures contradict that');
    expect(v.expected).toBe(false);
  });

  it('confirms the recorded data loss of rxjs-fromEvent, which is declared to lose data', () => {
    expect(judged(RECORDED_LOSSES.fromEventLost).expected).toBe(true);
    expect(judged(RECORDED_LOSSES.fromEventLost).figures).toMatchObject({ bytesProcessed: 1245184, fileBytes: 16 * MIB });
  });

  it('counts a worse outcome than declared as not expected: rxjs-from over its budget, fromEvent that lost nothing', () => {
    const oom = judged(RECORDED_LOSSES.fromOverBudget);
    expect(oom.expected).toBe(false);
    expect(oom.figures).toMatchObject({ peakRss: 72536064, 'params.budgetMb': 64 });
    const complete = { ...OTHERS.rxjsFrom, strategy: 'rxjs-fromEvent' };
    expect(judged(complete).expected).toBe(false);
  });

  it('cannot tell for a stopped run, a strategy it does not know, a push reader whose consumer kept up or a loose reader', () => {
    expect(judged(summary({ strategy: 'rxjs-from', outcome: 'stopped', bytesProcessed: 16 * MIB, durationMs: 2500 })).expected).toBeNull();
    expect(judged(summary({ strategy: 'rxjs-from', outcome: 'interrupted', bytesProcessed: 16 * MIB })).expected).toBeNull();
    expect(verdictOf(OTHERS.rxjsFrom).expected).toBeNull();
    expect(judged(summary({ strategy: 'rxjs-from', peak: { arrayBuffers: 0.5 * MIB }, peakBufferedBytes: 64 * 1024 })).expected).toBeNull();
    expect(judged(summary({ strategy: 'pipeline-generator', peak: { arrayBuffers: 9 * MIB }, peakBufferedBytes: 8 * MIB })).expected).toBeNull();
  });
});
