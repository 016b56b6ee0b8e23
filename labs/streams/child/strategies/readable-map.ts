import type { RunContext, Strategy } from '../strategy';

// #region run
async function run({ stream, consume }: RunContext): Promise<void> {
  const mapped = stream.map(async (chunk: Buffer) => consume(chunk), { concurrency: 1 });
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
  order: 8,
  expects: { outcome: 'completed', concurrentConsumers: false, flatMemory: false },
  keepsResults: false,
  explanation:
    "Node's own stream helper (experimental in Node 20): map() with concurrency 1 returns a new Readable that " +
    'pulls from the source only as its output is read.',
  article: null,
  run,
};
