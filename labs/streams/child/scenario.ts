/**
 * The streams lab inside the run's process: opens the data file as a stream with the chosen
 * highWaterMark and hands it, with the slow consumer, to the strategy. Its readings are the
 * stream's progress and the consumer's counters.
 */
import { createReadStream } from 'node:fs';
import { numberAt, stringAt } from '../../../server/child/check-config';
import type { Scenario } from '../../../server/child/scenario';
import { makeConsumer, type Progress } from './consumer';
import type { Strategy } from './strategy';

interface StreamsConfig {
  filePath: string;
  fileBytes: number;
  highWaterMark: number;
  delayMs: number;
  cpuUs: number;
}

export const scenario: Scenario<StreamsConfig> = {
  parseConfig: (c) => ({
    filePath: stringAt(c, 'filePath', /^\/.+/),
    fileBytes: numberAt(c, 'fileBytes', 0, Number.MAX_SAFE_INTEGER, { int: true }),
    highWaterMark: numberAt(c, 'highWaterMark', 1024, 4096 * 1024, { int: true }),
    delayMs: numberAt(c, 'delayMs', 0, 1000),
    cpuUs: numberAt(c, 'cpuUs', 0, 100_000, { int: true }),
  }),

  start(strategy, config) {
    const stream = createReadStream(config.filePath, { highWaterMark: config.highWaterMark });
    const progress: Progress = { bytesProcessed: 0, chunks: 0, inFlight: 0, peakInFlight: 0 };
    const done = (strategy as Strategy).run({ stream, consume: makeConsumer(progress, config) });
    return {
      readings: () => ({
        bytesRead: stream.bytesRead,
        bytesProcessed: progress.bytesProcessed,
        chunks: progress.chunks,
        inFlight: progress.inFlight,
        readableLength: stream.readableLength,
      }),
      done,
      extras: () => ({ peakInFlight: progress.peakInFlight }),
      dispose: () => stream.destroy(),
    };
  },
};
