import { parallelMap } from 'streaming-iterables';
import type { RunContext, Strategy } from '../strategy';

// #region run
async function run({ stream, consume, concurrency }: RunContext): Promise<void> {
  const mapped = parallelMap(concurrency, (chunk: Buffer | string) => consume(chunk), stream as AsyncIterable<Buffer | string>);
  for await (const _ of mapped) {
    // the consumer already did the work
  }
}
// #endregion run

export const strategy: Strategy = {
  id: 'streaming-iterables',
  label: 'streaming-iterables parallelMap',
  library: 'streaming-iterables',
  mode: 'pull',
  concurrency: 'bounded',
  order: 15,
  expects: { outcome: 'completed', concurrentConsumers: false, flatMemory: true },
  keepsResults: false,
  explanation:
    'parallelMap keeps up to `concurrency` consumer calls in flight (the Concurrency knob; 1 is a plain map) and reads one chunk ahead of them, ' +
    'pulling the next only as the for-await loop takes results, so a slow consumer slows the reading.',
  article: null,
  run,
};
