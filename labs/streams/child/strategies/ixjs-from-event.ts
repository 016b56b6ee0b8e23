import { once } from 'node:events';
import { fromEvent } from 'ix/asynciterable';
import { concatMap, takeUntil } from 'ix/asynciterable/operators';
import type { RunContext, Strategy } from '../strategy';

// #region run
async function run({ stream, consume }: RunContext): Promise<void> {
  const obs = fromEvent<Buffer>(stream, 'data').pipe(
    concatMap(async (data) => consume(data)),
    takeUntil(() => once(stream, 'end')),
  );
  for await (const _ of obs) {
    // the consumer already did the work
  }
}
// #endregion run

export const strategy: Strategy = {
  id: 'ixjs-fromEvent',
  label: 'IxJS fromEvent + concatMap',
  library: 'ix',
  mode: 'push',
  concurrency: 'sequential',
  order: 4,
  expects: { outcome: 'data-lost', concurrentConsumers: false, flatMemory: false },
  keepsResults: false,
  explanation:
    "IxJS's fromEvent attaches a 'data' listener as soon as it is created: the stream flows and every chunk " +
    'waits in an unbounded queue until it is pulled. A pull-based library cannot undo a push-based source. ' +
    "Like the RxJS version it needs takeUntil('end') to finish, which drops what is still queued.",
  article: { peakMb: '213', note: 'footnote: fromEvent in IxJS behaves like RxJS' },
  run,
};
