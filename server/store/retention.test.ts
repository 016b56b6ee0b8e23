import { describe, expect, it } from 'vitest';
import { chooseForDeletion, type RetentionCandidate } from './retention';

const run = (id: string, endedAt: number, diskBytes = 10, final = true): RetentionCandidate => ({ id, endedAt, diskBytes, final });

describe('chooseForDeletion', () => {
  it('deletes the oldest ended runs until the count and the bytes hold', () => {
    const runs = [run('c', 3), run('a', 1), run('b', 2), run('d', 4)];
    expect(chooseForDeletion(runs, { keepRuns: 2, keepBytes: 1e9 }, Infinity)).toEqual(['a', 'b']);
    expect(chooseForDeletion(runs, { keepRuns: 10, keepBytes: 25 }, Infinity)).toEqual(['a', 'b']);
    expect(chooseForDeletion(runs, { keepRuns: 10, keepBytes: 1e9 }, Infinity)).toEqual([]);
  });

  it('never deletes a run still going, nor one younger than the minimum age', () => {
    const runs = [run('going', 1, 10, false), run('old', 2), run('young', 100)];
    expect(chooseForDeletion(runs, { keepRuns: 0, keepBytes: 0 }, 50)).toEqual(['old']);
  });
});
