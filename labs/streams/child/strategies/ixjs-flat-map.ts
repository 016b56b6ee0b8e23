import { from } from 'ix/asynciterable';
import { flatMap } from 'ix/asynciterable/operators';
import type { RunContext, Strategy } from '../strategy';

// #region run
async function run({ stream, consume, concurrency }: RunContext): Promise<void> {
  // flatMap's concurrency defaults to Infinity; the knob bounds it (1 = concatMap).
  const obs = from<Buffer>(stream).pipe(flatMap(async (data) => [await consume(data)], concurrency));
  for await (const _ of obs) {
    // the consumer already did the work
  }
}
// #endregion run

export const strategy: Strategy = {
  id: 'ixjs-flatMap',
  label: 'IxJS from + flatMap(fn, concurrency)',
  library: 'ix',
  mode: 'pull',
  concurrency: 'bounded',
  order: 11,
  expects: { outcome: 'completed', concurrentConsumers: false, flatMemory: false },
  keepsResults: false,
  explanation:
    'Same pull-based source as ixjs-from, with flatMap running up to `concurrency` consumer calls at once (the Concurrency knob). ' +
    'Left to its default, flatMap has no limit: it starts a call for every chunk as soon as it is read, and the consumer ' +
    '(an API, a database) gets them all at once. Bounded, it pulls the next chunk only when a call finishes: watch peak in-flight calls.',
  article: null,
  run,
};
