import { describe, expect, it } from 'vitest';
import { parseSnapshotTrigger } from '@/lib/heap/trigger';
import { keptSnapshotTrigger, verdictFoundKept } from './KeptSnapshotButton';

describe('the kept verdict’s Snapshot', () => {
  it('asks for a snapshot at four fifths of the run, at least a second in, as a trigger the server parses', () => {
    expect(keptSnapshotTrigger(10_000)).toBe('at=8');
    expect(keptSnapshotTrigger(300)).toBe('at=1');
    expect(parseSnapshotTrigger(keptSnapshotTrigger(42_000))).toEqual({ kind: 'at', seconds: 34 });
  });

  it('is offered only when the verdict found memory the strategy keeps', () => {
    expect(verdictFoundKept({ text: 'kept', figures: { keptBytes: 16 << 20 }, expected: false })).toBe(true);
    expect(verdictFoundKept({ text: 'garbage', figures: { peakBufferedBytes: 1 }, expected: true })).toBe(false);
    expect(verdictFoundKept({ text: 'none', figures: { keptBytes: 0 }, expected: null })).toBe(false);
    expect(verdictFoundKept(null)).toBe(false);
  });
});
