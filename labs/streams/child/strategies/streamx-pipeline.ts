import { Readable, Writable, pipelinePromise } from 'streamx';
import type { RunContext, Strategy } from '../strategy';

// #region run
async function run({ stream, consume }: RunContext): Promise<void> {
  const sink = new Writable({
    write(chunk: Buffer | string, callback) {
      consume(chunk).then(() => callback(null), callback);
    },
  });
  // Readable.from reads the fs stream through its async iterator, a next() whenever the streamx
  // buffer is under its highWaterMark.
  await pipelinePromise(Readable.from(stream), sink);
}
// #endregion run

export const strategy: Strategy = {
  id: 'streamx-pipeline',
  label: 'streamx pipeline into a slow Writable',
  library: 'streamx',
  mode: 'pull',
  concurrency: 'sequential',
  order: 17,
  expects: { outcome: 'completed', concurrentConsumers: false, flatMemory: true },
  keepsResults: false,
  explanation:
    'streamx’s pipeline pipes a streamx Readable (reading the file through its async iterator) into a Writable whose write() waits for the consumer: ' +
    'one call at a time, and the Readable stops reading once it holds its 16 KiB highWaterMark (a single 64 KiB chunk does), so the file is read at the consumer’s pace.',
  article: null,
  run,
};
