import { from } from 'ix/asynciterable';
import { flatMap } from 'ix/asynciterable/operators';
import type { RunContext, Strategy } from '../strategy';

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
  order: 11,
  expects: { outcome: 'completed', concurrentConsumers: true, flatMemory: false },
  keepsResults: false,
  explanation:
    'Same pull-based source as ixjs-from, but flatMap runs its inner work concurrently with no limit by default: ' +
    'it starts a consumer call for every chunk as soon as it is read, without waiting for the previous one. ' +
    'The file does not pile up only because the calls overlap; the consumer (an API, a database) gets them all at once. ' +
    'Watch peak in-flight calls: concatMap keeps it at 1.',
  article: null,
  run,
};
