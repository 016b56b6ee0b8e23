/**
 * The harness is not the suspect: a heap-profiled pull run's top allocators list the strategy's
 * frames first, and the harness's (the consumer's `item.toString()` in Buffer's toString, the
 * sampler) after them, labelled, with a real child process.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_STREAMS_PARAMS } from './shared/params';
import type { DataFile } from '../../server/data/data-files';
import { withDataFiles } from '../../server/test-support';
import { liveChildCount } from '../../server/runner/runner';
import { startStreamsRun } from './parent/run';

describe('top allocators of a streams run', () => {
  const data = withDataFiles('heap-harness', [16]);
  let file: DataFile;
  beforeAll(() => ([file] = data.files));
  afterEach(() => expect(liveChildCount()).toBe(0));

  it("labels the harness's allocations (Buffer's toString called by the consumer) and lists the strategy's first", async () => {
    const params = { ...DEFAULT_STREAMS_PARAMS, sizeMb: 16, delayMs: 2, budgetMb: null, timeoutS: 60, heapProfile: true };
    const s = await startStreamsRun({ runId: 'heap-harness-1', strategy: 'for-await', params, file }).done;
    expect([s.outcome, s.reason]).toEqual(['completed', null]);
    const top = s.heapProfile!.top;
    const said = JSON.stringify(top.slice(0, 8).map((f) => [f.name, f.url.replace(/.*\/\.build\/[^/]+\//, ''), f.selfShare.toFixed(2), f.harness ?? false]));
    // The consumer turns every chunk into a string: most sampled bytes, and the harness's.
    const toString = top.find((f) => f.name === 'toString' && f.url === 'node:buffer');
    expect(toString?.harness, said).toBe(true);
    expect(toString!.selfShare, said).toBeGreaterThan(0.3);
    // Not the top allocator any more: whatever the strategy allocated (at a 512 KB interval, often
    // nothing sampled) comes first; the harness's rows after it, every one labelled.
    const allocating = top.filter((f) => f.selfBytes > 0);
    const firstHarness = allocating.findIndex((f) => f.harness);
    expect(
      allocating.slice(firstHarness).every((f) => f.harness),
      said,
    ).toBe(true);
    // The consumer's own frame (in the lab's scenario) is the harness's too.
    expect(
      top.filter((f) => /labs\/streams\/child\/scenario\.mjs$/.test(f.url)).every((f) => f.harness),
      said,
    ).toBe(true);
  }, 120_000);
});
