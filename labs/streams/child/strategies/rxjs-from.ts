import { concatMap, from } from 'rxjs';
import type { RunContext, Strategy } from '../strategy';

// #region run
async function run({ stream, consume }: RunContext): Promise<void> {
  const obs = from(stream).pipe(concatMap(async (data) => consume(data as Buffer)));
  await new Promise<void>((resolve, reject) => obs.subscribe({ complete: resolve, error: reject }));
}
// #endregion run

export const strategy: Strategy = {
  id: 'rxjs-from',
  label: 'RxJS from + concatMap',
  library: 'rxjs',
  mode: 'push',
  concurrency: 'sequential',
  order: 2,
  expects: { outcome: 'completed', concurrentConsumers: false, flatMemory: false },
  keepsResults: false,
  explanation:
    'from() reads the stream with an async iterator (paused mode) but calls subscriber.next() without waiting, ' +
    'so it pulls the next chunk at once and concatMap buffers the whole file while the consumer falls behind.',
  article: { peakMb: '202', note: 'arrayBuffers held ~150 MB (the whole file)' },
  run,
};
