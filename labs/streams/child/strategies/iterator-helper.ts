import { aiter } from 'iterator-helper';
import type { RunContext, Strategy } from '../strategy';

// #region run
async function run({ stream, consume }: RunContext): Promise<void> {
  const obs = aiter<Buffer>(stream).map(async (data) => consume(data));
  for await (const _ of obs) {
    // the consumer already did the work
  }
}
// #endregion run

export const strategy: Strategy = {
  id: 'iterator-helper',
  label: 'iterator-helper aiter().map',
  library: 'iterator-helper',
  mode: 'pull',
  concurrency: 'sequential',
  order: 6,
  expects: { outcome: 'completed', concurrentConsumers: false, flatMemory: true },
  keepsResults: false,
  explanation:
    'A polyfill of the TC39 async iterator helpers: map() wraps the stream’s async iterator and pulls one chunk ' +
    'per call, so the stream stays paused between chunks.',
  article: { peakMb: '58', note: 'TC39 async iterator helper (polyfill)' },
  run,
};
