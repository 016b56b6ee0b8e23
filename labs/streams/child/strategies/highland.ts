import _ from 'highland';
import type { RunContext, Strategy } from '../strategy';

// #region run
async function run({ stream, consume, concurrency }: RunContext): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    _<Buffer | string>(stream)
      // map is lazy: consume() starts only when parallel() pulls the next chunk, which it does
      // while fewer than `concurrency` of its streams are unfinished.
      .map((chunk) => _(consume(chunk)))
      .parallel(concurrency)
      .stopOnError(reject)
      .done(resolve);
  });
}
// #endregion run

export const strategy: Strategy = {
  id: 'highland',
  label: 'Highland map + parallel(n)',
  library: 'highland',
  mode: 'pull',
  concurrency: 'bounded',
  order: 18,
  expects: { outcome: 'completed', concurrentConsumers: false, flatMemory: true },
  keepsResults: false,
  explanation:
    'Highland wraps the file in a lazy stream with backpressure: map() turns each chunk into a one-value stream of the consumer’s promise, ' +
    'and parallel(n) (the Concurrency knob) pulls the next chunk only while fewer than n of those are unfinished, so a slow consumer slows the reading. ' +
    'Results come out in order, so one slow call holds up the slots behind it.',
  article: null,
  run,
};
