import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { RunContext, Strategy } from '../strategy';

// #region run
async function run({ stream, consume }: RunContext): Promise<void> {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      consume(chunk).then(() => callback(), callback);
    },
  });
  stream.on('error', (err) => sink.destroy(err));
  stream.pipe(sink);
  await finished(sink);
}
// #endregion run

export const strategy: Strategy = {
  id: 'pipe-writable',
  label: 'classic .pipe() into a slow Writable',
  library: 'node',
  mode: 'pull',
  concurrency: 'sequential',
  order: 10,
  expects: { outcome: 'completed', concurrentConsumers: false, flatMemory: false },
  keepsResults: false,
  explanation:
    "pipe() starts the stream flowing but pauses it whenever write() returns false (the writable's buffer is " +
    'past its highWaterMark) and resumes on drain: flowing mode with backpressure.',
  article: null,
  run,
};
