/** The write-up's slow consumer: `await sleep(delayMs)` per item, plus optional CPU work. Nothing to check at the end. */
import { setTimeout as sleep } from 'node:timers/promises';
import { burnCpu } from '../consumer';
import { NO_CONSUMER_READINGS, type ConsumerModule } from './types';

export const sleepConsumer: ConsumerModule<null> = {
  parse: () => null,
  async start({ delayMs, cpuUs }) {
    return {
      async work() {
        // delay 0 means no wait at all (not even a timer turn), so throughput runs measure the reader.
        if (delayMs > 0) await sleep(delayMs);
        if (cpuUs > 0) burnCpu(cpuUs);
      },
      readings: () => NO_CONSUMER_READINGS,
      finish: async () => ({ extras: {}, lost: null, note: null }),
      close: async () => undefined,
      killNow: () => undefined,
    };
  },
};
