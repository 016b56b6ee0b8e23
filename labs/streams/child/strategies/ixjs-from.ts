import { from } from 'ix/asynciterable';
import { concatMap } from 'ix/asynciterable/operators';
import type { RunContext, Strategy } from '../strategy';

// #region run
async function run({ stream, consume }: RunContext): Promise<void> {
  const obs = from<Buffer>(stream).pipe(concatMap(async (data) => consume(data)));
  for await (const _ of obs) {
    // the consumer already did the work
  }
}
// #endregion run

export const strategy: Strategy = {
  id: 'ixjs-from',
  label: 'IxJS from + concatMap',
  library: 'ix',
  mode: 'pull',
  concurrency: 'sequential',
  order: 3,
  expects: { outcome: 'completed', concurrentConsumers: false, flatMemory: true },
  keepsResults: false,
  explanation:
    'IxJS is pull-based: for await asks concatMap for a value, concatMap asks from(), from() asks the stream. ' +
    'Nothing is read until the consumer is ready, so the stream stays paused and backpressure holds.',
  article: { peakMb: '62–63', note: 'arrayBuffers at most ~2.5 MB' },
  run,
};
