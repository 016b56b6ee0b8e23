/**
 * Entry point of one run's child process (compiled to .build/ and forked by runner.ts). Owns the
 * process plumbing — timers, IPC, exit — around the pure Sampler and the strategy's run().
 */
import { createReadStream, type ReadStream } from 'node:fs';
import { PerformanceObserver, monitorEventLoopDelay } from 'node:perf_hooks';
import type { Strategy } from '../strategies/types';
import type { ChildConfig, ChildMessage } from './child-protocol';
import { makeConsumer } from './consumer';
import { loopDelayMs, Sampler, type Progress } from './sampler';

const LOOP_RESOLUTION_MS = 10;
const config = JSON.parse(process.argv[2] ?? '{}') as ChildConfig;

function send(message: ChildMessage, then?: () => void): void {
  // The parent may already be gone (it killed us or died); nothing left to tell then.
  if (process.connected) process.send!(message, undefined, undefined, () => then?.());
  else then?.();
}

/** Sends the last message, waits until IPC has handed it over, then exits. */
function sendAndExit(message: ChildMessage, code: number): void {
  exiting = true;
  send(message, () => process.exit(code));
}

let exiting = false;
// A strategy that forgets an 'error' listener throws outside any promise: report it like any other failure.
process.on('uncaughtException', (err) => {
  if (!exiting) sendAndExit({ type: 'error', message: err.message }, 1);
});
// If the parent dies, the IPC channel closes: never outlive it.
process.on('disconnect', () => {
  if (!exiting) process.exit(2);
});

async function main(): Promise<ChildMessage> {
  const mod = (await import(new URL(`./strategies/${config.strategyModule}.mjs`, import.meta.url).href)) as { strategy: Strategy };
  const collect = config.retained ? (globalThis.gc as (() => void) | undefined) : undefined;
  if (config.retained && !collect) throw new Error('retained mode needs --expose-gc');

  const gcStats = { count: 0, totalMs: 0 };
  const gcObserver = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gcStats.count += 1;
      gcStats.totalMs += entry.duration;
    }
  });
  gcObserver.observe({ entryTypes: ['gc'] });
  const intervalDelay = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  const totalDelay = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  intervalDelay.enable();
  totalDelay.enable();

  // The idle baseline: strategy module and its library loaded, no stream yet.
  collect?.();
  send({ type: 'ready', idle: process.memoryUsage(), at: Date.now() });

  const stream: ReadStream = createReadStream(config.filePath, { highWaterMark: config.highWaterMark });
  const progress: Progress & { peakInFlight: number } = {
    bytesRead: 0,
    bytesProcessed: 0,
    chunks: 0,
    inFlight: 0,
    peakInFlight: 0,
    readableLength: 0,
  };
  const sampler = new Sampler({
    memoryUsage: () => process.memoryUsage(),
    progress: () => {
      progress.bytesRead = stream.bytesRead;
      progress.readableLength = stream.readableLength;
      return progress;
    },
    loopDelay: intervalDelay,
    loopResolutionMs: LOOP_RESOLUTION_MS,
    gc: () => gcStats,
    now: () => performance.now(),
    wallClock: () => Date.now(),
    collect,
  });
  let timer: NodeJS.Timeout | undefined;
  if (config.sampleMs !== null) {
    send({ type: 'sample', sample: sampler.take() });
    // unref: the sampler must not keep a finished (or stuck) run alive.
    timer = setInterval(() => send({ type: 'sample', sample: sampler.take() }), config.sampleMs).unref();
  }

  let settled = false;
  // The IPC channel does not keep the loop alive, so a strategy whose promise can never settle
  // (nothing left to wait on) ends up here instead of hanging until the watchdog.
  process.once('beforeExit', () => {
    if (!settled) {
      const message = "the strategy's promise never settled: the event loop ran empty while it was still waiting";
      sendAndExit({ type: 'error', message }, 3);
    }
  });

  await mod.strategy.run({ stream, consume: makeConsumer(progress, config) });
  settled = true;
  clearInterval(timer);
  const final = sampler.take();
  gcObserver.disconnect();
  stream.destroy();
  const toMs = (ns: number) => loopDelayMs(ns, LOOP_RESOLUTION_MS);
  return {
    type: 'done',
    final,
    elP50Ms: toMs(totalDelay.percentile(50)),
    elP99Ms: toMs(totalDelay.percentile(99)),
    elMaxMs: toMs(totalDelay.max),
    peakInFlight: progress.peakInFlight,
  };
}

main().then(
  (done) => sendAndExit(done, 0),
  (err: unknown) => sendAndExit({ type: 'error', message: err instanceof Error ? err.message : String(err) }, 1),
);
