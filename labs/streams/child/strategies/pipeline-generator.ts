import { pipeline } from 'node:stream/promises';
import type { RunContext, Strategy } from '../strategy';

// #region run
async function run({ stream, consume }: RunContext): Promise<void> {
  await pipeline(
    stream,
    async function* (source: AsyncIterable<Buffer>) {
      for await (const chunk of source) {
        yield await consume(chunk);
      }
    },
    async function (source: AsyncIterable<string>) {
      for await (const _ of source) {
        // noop sink
      }
    },
  );
}
// #endregion run

export const strategy: Strategy = {
  id: 'pipeline-generator',
  label: 'stream.pipeline + async generators',
  library: 'node',
  mode: 'pull',
  concurrency: 'sequential',
  order: 5,
  expects: { outcome: 'completed', concurrentConsumers: false, flatMemory: true },
  keepsResults: false,
  explanation:
    'pipeline() wires the stream into async generator stages; each stage pulls the next chunk only after ' +
    'yielding the previous one, so the file is read at the consumer’s pace. No library needed.',
  article: { peakMb: '56', note: 'pipeline + async generator' },
  run,
};
