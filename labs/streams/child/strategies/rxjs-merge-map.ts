import { from, mergeMap } from 'rxjs';
import type { RunContext, Strategy } from '../strategy';

// #region run
async function run({ stream, consume, concurrency }: RunContext): Promise<void> {
  const obs = from(stream).pipe(mergeMap(async (data) => consume(data as Buffer | string), concurrency));
  await new Promise<void>((resolve, reject) => obs.subscribe({ complete: resolve, error: reject }));
}
// #endregion run

export const strategy: Strategy = {
  id: 'rxjs-merge-map',
  label: 'RxJS from + mergeMap(fn, concurrency)',
  library: 'rxjs',
  mode: 'push',
  concurrency: 'bounded',
  order: 16,
  expects: { outcome: 'completed', concurrentConsumers: false, flatMemory: false },
  keepsResults: false,
  explanation:
    'mergeMap caps the consumer calls in flight at `concurrency` (the Concurrency knob), but from() keeps reading the file at disk speed ' +
    'and mergeMap buffers every chunk it cannot start yet: with a slow consumer arrayBuffers grow towards the file’s size. ' +
    'More concurrency drains that buffer faster; it bounds the calls, not the memory.',
  article: null,
  run,
};
