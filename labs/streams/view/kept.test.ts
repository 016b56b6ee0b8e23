import { describe, expect, it } from 'vitest';
import { MIB } from '../../../lib/protocol/params';
import { DEFAULT_STREAMS_PARAMS } from '../shared/params';
import type { Measured } from '../../../lib/protocol';
import type { StreamsSummary } from '../shared/schema';
import { verdictOf } from '../../verdict-of';
import { summary } from './verdict.fixtures';
import { keptEvidence } from './kept';

const MB16 = 16 * MIB;
const PULL = { mode: 'pull', keepsResults: false } as const;
const TO_ARRAY = { mode: 'pull', keepsResults: true } as const;

type Recorded = Pick<
  Measured<StreamsSummary>,
  | 'strategy'
  | 'peak'
  | 'idle'
  | 'aboveIdle'
  | 'peakBufferedBytes'
  | 'sampleCount'
  | 'gcLeftArrayBuffers'
  | 'gcLeftHeapUsed'
  | 'gcLeftBytesRead'
  | 'endGcArrayBuffers'
  | 'endGcHeapUsed'
>;
const mem = (rss: number, heapTotal: number, heapUsed: number, external: number, arrayBuffers: number) => ({
  rss,
  heapTotal,
  heapUsed,
  external,
  arrayBuffers,
});
const run = (f: Recorded, retained = false): Measured<StreamsSummary> =>
  summary({
    ...f,
    peakInFlight: 1,
    fileBytes: MB16,
    bytesRead: MB16,
    bytesProcessed: MB16,
    params: { ...DEFAULT_STREAMS_PARAMS, sizeMb: 16, delayMs: 2, retained },
  });

// Recorded on Node 20.20.2 (2026-12-03, docs/results.md §21) with
//   npm run bench -- --strategies ixjs-from --strategy-file keep-all.ts --size-mb 16 --delay-ms 2 --json
// (keep-all: a pull reader that pushes every chunk into a module-level array), and --retained.
const KEEP_ALL = run({
  strategy: 'keep-all',
  peak: mem(70868992, 9674752, 7017616, 19012873, 16859603),
  idle: mem(45809664, 6529024, 5142984, 2170673, 17847),
  aboveIdle: mem(25059328, 3145728, 1874632, 16842200, 16841756),
  peakBufferedBytes: 131072,
  sampleCount: 15,
  gcLeftArrayBuffers: null,
  gcLeftHeapUsed: null,
  gcLeftBytesRead: null,
  endGcArrayBuffers: 16794031,
  endGcHeapUsed: 4528648,
});
const KEEP_ALL_RETAINED = run(
  {
    strategy: 'keep-all',
    peak: mem(70275072, 9674752, 4373256, 19009508, 16794031),
    idle: mem(46346240, 7053312, 4069784, 2167266, 16799),
    aboveIdle: mem(23928832, 2621440, 303472, 16842242, 16777232),
    peakBufferedBytes: 131072,
    sampleCount: 15,
    gcLeftArrayBuffers: 15942063,
    gcLeftHeapUsed: 4683792,
    gcLeftBytesRead: 15925248,
    endGcArrayBuffers: 16794031,
    endGcHeapUsed: 4378336,
  },
  true,
);
const IXJS_FROM = run({
  strategy: 'ixjs-from',
  peak: mem(89051136, 43753472, 19079336, 13811026, 10895791),
  idle: mem(61689856, 15966208, 8850336, 2522707, 325377),
  aboveIdle: mem(27361280, 27787264, 10229000, 11288319, 10570414),
  peakBufferedBytes: 131072,
  sampleCount: 19,
  gcLeftArrayBuffers: 213423,
  gcLeftHeapUsed: 6459736,
  gcLeftBytesRead: 13959168,
  endGcArrayBuffers: 16815,
  endGcHeapUsed: 6327064,
});

describe('garbage or kept, from what a GC left', () => {
  it('calls a strategy that keeps every chunk kept in default mode (a full GC after it finished left the file), not garbage, and not what a pull reader should show', () => {
    const v = verdictOf(KEEP_ALL, PULL);
    expect(v.text).toBe(
      'The reader stayed within 0.1 MB of the consumer, but the strategy keeps what it read: a full GC once it had finished still left 16 MB (100% of the file), ' +
        'so that was not garbage. A heap snapshot shows what holds it.',
    );
    expect(v.expected).toBe(false);
    expect(v.figures).toMatchObject({ keptBytes: 16794031 - 17847, endGcArrayBuffers: 16794031 });
  });

  it('calls the same strategy kept in retained mode, where every sample follows a GC', () => {
    const v = verdictOf(KEEP_ALL_RETAINED, PULL);
    expect(v.text).toContain('but the strategy keeps what it read: with a GC before every sample, arrayBuffers and the heap still held 16.3 MB');
    expect(v.text).not.toContain('garbage not yet collected');
    expect(v.expected).toBe(false);
  });

  it('says a toArray-like strategy keeps its results by design, which a pull reader may', () => {
    const v = verdictOf(KEEP_ALL, TO_ARRAY);
    expect(v.text).toContain('the strategy keeps what it read (it keeps every result until the end, by design): a full GC');
    expect(v.expected).toBe(true);
  });

  it("still calls ixjs-from's default-mode memory garbage, quoting the full GC that freed it", () => {
    const v = verdictOf(IXJS_FROM, PULL);
    expect(v.text).toBe(
      'The reader stayed within 0.1 MB of the consumer. heapUsed grew by 9.8 MB (61% of the file) and arrayBuffers peaked at 10.4 MB, ' +
        'but a full GC with 13.3 MB read left 0.2 MB of arrayBuffers, so that was garbage not yet collected: backpressure held.',
    );
    expect(v.expected).toBe(true);
    expect(v.figures).toMatchObject({ gcLeftArrayBuffers: 213423, gcLeftBytesRead: 13959168 });
  });

  it("calls arrayBuffers garbage when a full GC freed them, and a high reading of V8's own full GC no proof of keeping", () => {
    const small = { aboveIdle: { ...IXJS_FROM.aboveIdle!, heapUsed: 2 * MIB } };
    expect(verdictOf({ ...IXJS_FROM, ...small }, PULL).text).toBe(
      'arrayBuffers peaked at 10.4 MB (65% of the file), yet the reader was never more than 0.1 MB ahead of the consumer, ' +
        'so most of it was garbage not yet collected (a full GC with 13.3 MB read left 0.2 MB of arrayBuffers): backpressure held.',
    );
    // V8's own full GC can read buffers not yet swept as still there (10.7 MB of ixjs-from's, once):
    // no proof of keeping, so the GC after the run decides.
    const unswept = { ...IXJS_FROM, ...small, gcLeftArrayBuffers: 11 * MIB, gcLeftBytesRead: 12 * MIB, gcLeftHeapUsed: IXJS_FROM.idle!.heapUsed };
    const v = verdictOf(unswept, PULL);
    expect(v.text).toContain('so most of it was garbage not yet collected (a full GC once it had finished left 0.02 MB of arrayBuffers)');
    expect(v.expected).toBe(true);
  });

  it('says neither can be told when no GC was measured in a run that has the figures', () => {
    const unmeasured = { ...KEEP_ALL, endGcArrayBuffers: null, endGcHeapUsed: null };
    expect(keptEvidence(unmeasured)).toEqual({ kind: 'unknown', legacy: false });
    const v = verdictOf(unmeasured, PULL);
    expect(v.text).toMatch(
      /^arrayBuffers peaked at 16\.1 MB \(100% of the file\), while the reader was never more than 0\.1 MB ahead of the consumer: garbage not yet collected or chunks/,
    );
    expect(v.expected).toBeNull();
    // A run recorded before the figures existed is judged as it was.
    expect(keptEvidence({ ...unmeasured, endGcArrayBuffers: undefined, endGcHeapUsed: undefined, gcLeftArrayBuffers: undefined })).toEqual({
      kind: 'unknown',
      legacy: true,
    });
  });
});
