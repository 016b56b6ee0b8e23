/**
 * The streams lab inside the run's process: opens the data file as a stream with the chosen
 * highWaterMark and hands it, with the slow consumer, to the strategy. Its readings are the
 * stream's progress and the consumer's counters.
 */
import { createReadStream } from 'node:fs';
import { limitAt, numberAt, stringAt } from '../../../server/child/check-config';
import { STREAMS_LIMITS } from '../shared/limits';
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
    highWaterMark: numberAt(c, 'highWaterMark', STREAMS_LIMITS.chunkKb.min * 1024, STREAMS_LIMITS.chunkKb.max * 1024, { int: true }),
    delayMs: limitAt(c, 'delayMs', STREAMS_LIMITS.delayMs),
    cpuUs: limitAt(c, 'cpuUs', STREAMS_LIMITS.cpuUs, { int: true }),
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
