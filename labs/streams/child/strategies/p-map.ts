import pMap from 'p-map';
import type { RunContext, Strategy } from '../strategy';

// #region run
async function run({ stream, consume, concurrency }: RunContext): Promise<void> {
  // pMap collects what the mapper returns into an array it resolves with at the end: returning
  // nothing keeps that array to one empty slot a chunk instead of a copy of the file.
  await pMap(
    stream as AsyncIterable<Buffer | string>,
    async (chunk) => {
      await consume(chunk);
    },
    { concurrency },
  );
}
// #endregion run

export const strategy: Strategy = {
  id: 'p-map',
  label: 'p-map(stream, fn, { concurrency })',
  library: 'p-map',
  mode: 'pull',
  concurrency: 'bounded',
  order: 14,
  expects: { outcome: 'completed', concurrentConsumers: false, flatMemory: true },
  keepsResults: false,
  explanation:
    'p-map runs up to `concurrency` mapper calls (the Concurrency knob), each pulling its own next chunk from the async iterable ' +
    'when its call finishes, so it never reads more than `concurrency` chunks ahead of a slow consumer. ' +
    'It resolves with an array of what the mapper returned: return nothing, or it keeps every result.',
  article: null,
  run,
};
