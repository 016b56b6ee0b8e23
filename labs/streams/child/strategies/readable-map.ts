import type { RunContext, Strategy } from '../strategy';

// #region run
async function run({ stream, consume, concurrency }: RunContext): Promise<void> {
  const mapped = stream.map(async (chunk: Buffer) => consume(chunk), { concurrency });
  for await (const _ of mapped) {
    // the consumer already did the work
  }
}
// #endregion run

export const strategy: Strategy = {
  id: 'readable-map',
  label: 'Readable.prototype.map',
  library: 'node',
  mode: 'pull',
  concurrency: 'bounded',
  order: 8,
  expects: { outcome: 'completed', concurrentConsumers: false, flatMemory: false },
  keepsResults: false,
  explanation:
    "Node's own stream helper (experimental in Node 20): map() returns a new Readable that pulls from the source only " +
    'as its output is read, with up to `concurrency` calls in flight (the Concurrency knob): more calls at once, still a bounded buffer.',
  article: null,
  run,
};
