import type { RunContext, Strategy } from '../strategy';

// #region run
async function run({ stream, consume }: RunContext): Promise<void> {
  for await (const chunk of stream) {
    await consume(chunk as Buffer);
  }
}
// #endregion run

export const strategy: Strategy = {
  id: 'for-await',
  label: 'for await (baseline)',
  library: 'node',
  mode: 'pull',
  concurrency: 'sequential',
  order: 7,
  expects: { outcome: 'completed', concurrentConsumers: false, flatMemory: true },
  keepsResults: false,
  explanation:
    'The plainest pull reader: the async iterator keeps the stream paused and reads one chunk per loop turn. ' +
    'Every other pull strategy is this loop with extra layers.',
  article: null,
  run,
};
