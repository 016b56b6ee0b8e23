import * as Effect from 'effect/Effect';
import * as Stream from 'effect/Stream';
import type { RunContext, Strategy } from '../strategy';

// #region run
async function run({ stream, consume, concurrency }: RunContext): Promise<void> {
  // The core `effect` package has no Node-stream constructor (NodeStream.fromReadable is in
  // @effect/platform-node, one more dependency); a Readable is an async iterable, and
  // fromAsyncIterable calls next() once per element the stream pulls.
  const chunks = Stream.fromAsyncIterable<Buffer | string, unknown>(stream, (cause) => cause);
  const program = chunks.pipe(
    Stream.mapEffect((chunk) => Effect.promise(() => consume(chunk)), { concurrency }),
    Stream.runDrain,
  );
  await Effect.runPromise(program);
}
// #endregion run

export const strategy: Strategy = {
  id: 'effect-stream',
  label: 'Effect Stream.mapEffect(fn, { concurrency })',
  library: 'effect',
  mode: 'pull',
  concurrency: 'bounded',
  order: 13,
  expects: { outcome: 'completed', concurrentConsumers: false, flatMemory: true },
  keepsResults: false,
  explanation:
    'Effect’s Stream pulls the file through its async iterator: mapEffect starts up to `concurrency` consumer calls (the Concurrency knob) ' +
    'and asks the source for the next chunk only when a call finishes, so a slow consumer slows the reading and arrayBuffers stay flat. ' +
    'Results keep their order: at 1 it is concatMap, above 1 a bounded, ordered parallel map.',
  article: null,
  run,
};
