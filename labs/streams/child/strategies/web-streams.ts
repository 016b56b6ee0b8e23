import { Readable } from 'node:stream';
import { WritableStream } from 'node:stream/web';
import type { RunContext, Strategy } from '../strategy';

// #region run
async function run({ stream, consume }: RunContext): Promise<void> {
  await Readable.toWeb(stream).pipeTo(
    new WritableStream<Buffer>({
      async write(chunk) {
        await consume(chunk);
      },
    }),
  );
}
// #endregion run

export const strategy: Strategy = {
  id: 'web-streams',
  label: 'Web Streams: Readable.toWeb + pipeTo',
  library: 'node',
  mode: 'pull',
  concurrency: 'sequential',
  order: 9,
  expects: { outcome: 'completed', concurrentConsumers: false, flatMemory: false },
  keepsResults: false,
  explanation:
    'Converts the Node stream to a WHATWG ReadableStream and pipes it to a WritableStream whose write() waits for ' +
    'the consumer; pipeTo() reads only while the writable has room.',
  article: null,
  run,
};
