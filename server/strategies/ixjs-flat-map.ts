import { from } from 'ix/asynciterable';
import { flatMap } from 'ix/asynciterable/operators';
import type { RunContext, Strategy } from './types';

// #region run
async function run({ stream, consume }: RunContext): Promise<void> {
  // flatMap's concurrency defaults to Infinity.
  const obs = from<Buffer>(stream).pipe(flatMap(async (data) => [await consume(data)]));
  for await (const _ of obs) {
    // the consumer already did the work
  }
}
// #endregion run

export const strategy: Strategy = {
  id: 'ixjs-flatMap',
  label: 'IxJS from + flatMap (unbounded)',
  library: 'ix',
  mode: 'push',
  explanation:
    'Same pull-based source as ixjs-from, but flatMap runs its inner work concurrently with no limit by default: ' +
    'it keeps pulling chunks and starting consumers without waiting, so the file piles up in memory. ' +
    'The operator, not the library, decides whether backpressure survives.',
  article: null,
  run,
};
