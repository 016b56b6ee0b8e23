import { concatMap, fromEvent, takeUntil } from 'rxjs';
import type { RunContext, Strategy } from '../strategy';

// #region run
async function run({ stream, consume }: RunContext): Promise<void> {
  const obs = fromEvent(stream, 'data').pipe(
    concatMap(async (data) => consume(data as Buffer)),
    takeUntil(fromEvent(stream, 'end')),
  );
  await new Promise<void>((resolve, reject) => obs.subscribe({ complete: resolve, error: reject }));
}
// #endregion run

export const strategy: Strategy = {
  id: 'rxjs-fromEvent',
  label: 'RxJS fromEvent + concatMap',
  library: 'rxjs',
  mode: 'push',
  concurrency: 'sequential',
  order: 1,
  expects: { outcome: 'data-lost', concurrentConsumers: false, flatMemory: false },
  keepsResults: false,
  explanation:
    "A 'data' listener switches the stream to flowing mode, so the file is read as fast as the disk allows; " +
    "concatMap queues every chunk it cannot process yet, and takeUntil('end') completes the moment the file " +
    'is read, discarding the chunks still queued.',
  article: { peakMb: '202', note: 'arrayBuffers held ~150 MB (the whole file)' },
  run,
};
