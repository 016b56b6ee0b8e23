/**
 * The streams lab inside the run's process: opens the data file as a stream with the chosen
 * highWaterMark (split into CSV records with the records option) and hands it, with the chosen
 * consumer and the concurrency knob, to the strategy. Its readings are the stream's progress and
 * the consumer's counters.
 */
import { createReadStream } from 'node:fs';
import { pipeline, type Readable } from 'node:stream';
import { booleanAt, limitAt, numberAt, objectAt, stringAt } from '../../../server/child/check-config';
import { CONSUMERS, STREAMS_LIMITS, type ConsumerKind } from '../shared/limits';
import type { Scenario } from '../../../server/child/scenario';
import { countedConsume, newProgress } from './consumer';
import { CONSUMER_MODULES } from './consumers';
import type { Consumer, ConsumerReport } from './consumers/types';
import { lineSplitter } from './records';
import { collectAndRead, watchFullGcs } from './gc-left';
import type { Strategy } from './strategy';

interface StreamsConfig {
  filePath: string;
  fileBytes: number;
  highWaterMark: number;
  delayMs: number;
  cpuUs: number;
  concurrency: number;
  records: boolean;
  consumer: { kind: ConsumerKind; config: unknown };
}

/** How long the consumer's check waits for calls a finished strategy left running. */
const SETTLE_MS = 10_000;

async function settled(progress: { inFlight: number }): Promise<void> {
  const until = Date.now() + SETTLE_MS;
  while (progress.inFlight > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
}

function parseConsumer(value: unknown): StreamsConfig['consumer'] {
  const c = objectAt(value, 'consumer');
  const kind = stringAt(c, 'kind', new RegExp(`^(${CONSUMERS.join('|')})$`)) as ConsumerKind;
  return { kind, config: CONSUMER_MODULES[kind].parse(objectAt(c.config ?? {}, 'consumer.config')) };
}

/** The consumer `prepare` started, and the exit hook that kills its processes if the run's process dies. */
interface Prepared {
  consumer: Consumer;
  killOnExit: () => void;
  /** How long the consumer took to start (ms). */
  startMs: number;
}

export const scenario: Scenario<StreamsConfig, Prepared> = {
  parseConfig: (c) => ({
    filePath: stringAt(c, 'filePath', /^\/.+/),
    fileBytes: numberAt(c, 'fileBytes', 0, Number.MAX_SAFE_INTEGER, { int: true }),
    highWaterMark: numberAt(c, 'highWaterMark', STREAMS_LIMITS.chunkKb.min * 1024, STREAMS_LIMITS.chunkKb.max * 1024, { int: true }),
    delayMs: limitAt(c, 'delayMs', STREAMS_LIMITS.delayMs),
    cpuUs: limitAt(c, 'cpuUs', STREAMS_LIMITS.cpuUs, { int: true }),
    concurrency: limitAt(c, 'concurrency', STREAMS_LIMITS.concurrency, { int: true }),
    records: booleanAt(c, 'records'),
    consumer: parseConsumer(c.consumer),
  }),

  // Forking the mock API or booting PostgreSQL takes from milliseconds to seconds: before the
  // run's clock, so records/s and inserts/s count the strategy's work only.
  async prepare(config) {
    const t0 = performance.now();
    const consumer = await CONSUMER_MODULES[config.consumer.kind].start(
      { delayMs: config.delayMs, cpuUs: config.cpuUs, concurrency: config.concurrency },
      config.consumer.config,
    );
    // An abrupt exit of the run's process (its parent died) takes the consumer's API or database along.
    const killOnExit = () => consumer.killNow();
    process.once('exit', killOnExit);
    return { consumer, killOnExit, startMs: performance.now() - t0 };
  },

  start(raw, config, { consumer, killOnExit, startMs }) {
    const strategy = raw as Strategy;
    const file = createReadStream(config.filePath, { highWaterMark: config.highWaterMark });
    // pipeline: a strategy that destroys its records stream (an error, a stop) closes the file too.
    const stream: Readable = config.records ? pipeline(file, lineSplitter(), () => undefined) : file;
    const progress = newProgress();
    let report: ConsumerReport = { extras: {}, lost: null, note: null };
    let checkMs = 0;
    // V8's own full GCs during the run, and the harness's once the strategy is done: what they left.
    const fullGcs = watchFullGcs(() => file.bytesRead);
    let endGc: Awaited<ReturnType<typeof collectAndRead>> = null;
    const close = async () => {
      await consumer.close();
      process.off('exit', killOnExit);
    };

    const done = (async () => {
      try {
        await strategy.run({ stream, consume: countedConsume(progress, consumer), concurrency: config.concurrency });
        // A strategy may resolve with calls still out (the fromEvent ones end on the file's 'end'):
        // they are still its work, and the consumer's check counts what they deliver, so it waits
        // for them, a while. The sleep consumer checks nothing: its runs end as they always did.
        if (config.consumer.kind !== 'sleep') await settled(progress);
      } catch (err) {
        await close();
        throw err;
      }
    })();

    return {
      readings: () => ({
        bytesRead: file.bytesRead,
        bytesProcessed: progress.bytesProcessed,
        chunks: progress.chunks,
        records: progress.records,
        inFlight: progress.inFlight,
        readableLength: file.readableLength,
        ...consumer.readings(),
        ...fullGcs.take(),
      }),
      done,
      // The check (every item arrived once) is the consumer's, not the strategy's: timed apart.
      async finish() {
        fullGcs.stop();
        // Before the consumer's check, whose own garbage is not the strategy's.
        endGc = await collectAndRead();
        const t0 = performance.now();
        try {
          report = await consumer.finish({ calls: progress.chunks, bytes: progress.bytesProcessed, records: progress.records });
        } finally {
          await close();
          checkMs = performance.now() - t0;
        }
      },
      extras: () => ({
        peakInFlight: progress.peakInFlight,
        records: progress.records,
        // -1: no bound (the figure then says null); a sequential strategy ignores the knob.
        concurrency: { sequential: 1, bounded: config.concurrency, unbounded: -1 }[strategy.concurrency ?? 'sequential'],
        consumerLost: report.lost ? 1 : 0,
        // What the run's time leaves out (the sleep consumer has nothing to start or check).
        ...(config.consumer.kind !== 'sleep' && { consumerStartMs: startMs, consumerCheckMs: checkMs }),
        ...report.extras,
        ...endGc,
      }),
      note: () => report.lost ?? report.note,
      dispose: () => {
        fullGcs.stop();
        stream.destroy();
      },
    };
  },
};
