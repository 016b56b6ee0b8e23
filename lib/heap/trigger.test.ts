import { describe, expect, it } from 'vitest';
import { describeTrigger, parseSnapshotTrigger, triggerMet } from './trigger';

const sample = (t: number, arrayBuffers: number) => ({ t, arrayBuffers, rss: 0 });

describe('heap snapshot triggers', () => {
  it('reads at= in seconds and when= with units, and tells when a sample meets them', () => {
    const at = parseSnapshotTrigger('at=2.5');
    expect(at).toEqual({ kind: 'at', seconds: 2.5 });
    expect([triggerMet(at, sample(2499, 0)), triggerMet(at, sample(2500, 0))]).toEqual([false, true]);
    const when = parseSnapshotTrigger('when=arrayBuffers>32MB');
    expect(when).toEqual({ kind: 'when', figure: 'arrayBuffers', above: 32 * 1024 * 1024 });
    expect([triggerMet(when, sample(0, 32 * 1024 * 1024)), triggerMet(when, sample(0, 32 * 1024 * 1024 + 1))]).toEqual([false, true]);
    // A figure the lab's samples don't have never fires (admission names the allowed ones).
    expect(triggerMet(parseSnapshotTrigger('when=bytesRead>1kb'), sample(0, 0))).toBe(false);
    expect(describeTrigger(when)).toBe('when arrayBuffers > 32 MB');
    expect(describeTrigger(at)).toBe('at 2.5 s');
  });

  it.each(['', 'at=', 'at=-1', 'when=rss<5', 'when=>5', 'when=rss>5TB', 'now'])('refuses %j naming the field and the forms', (spec) => {
    expect(() => parseSnapshotTrigger(spec)).toThrow(/^heapSnapshot must be at=<seconds> \(0–3600\) or when=<figure>><value>/);
  });

  it('refuses an at= past the longest run', () => {
    expect(() => parseSnapshotTrigger('at=4000')).toThrow('heapSnapshot: at= must be between 0 and 3600 seconds, got 4000');
  });
});
