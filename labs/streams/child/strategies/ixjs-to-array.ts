import { from, toArray } from 'ix/asynciterable';
import { concatMap } from 'ix/asynciterable/operators';
import type { RunContext, Strategy } from '../strategy';

// #region run
async function run({ stream, consume }: RunContext): Promise<void> {
  const obs = from<Buffer>(stream).pipe(concatMap(async (data) => consume(data)));
  // toArray keeps every result until the end: that is the point of this variant.
  await toArray(obs);
}
// #endregion run

export const strategy: Strategy = {
  id: 'ixjs-toArray',
  label: 'IxJS from + concatMap + toArray',
  library: 'ix',
  mode: 'pull',
  concurrency: 'sequential',
  order: 12,
  expects: { outcome: 'completed', concurrentConsumers: false, flatMemory: false },
  keepsResults: true,
  explanation:
    'The reader is pull-based and the file never piles up as Buffers, but toArray() keeps every result string: ' +
    'memory grows anyway, this time on the V8 heap (heapUsed), where --max-old-space-size can catch it. ' +
    'Backpressure protects the reader, not a sink that keeps everything.',
  article: null,
  run,
};
