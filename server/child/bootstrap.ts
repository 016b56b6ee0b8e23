/**
 * Entry point of one run's child process (compiled to .build/ and forked by runner.ts), the same
 * for every lab. Owns the process plumbing — config check, timers, IPC, exit — around the pure
 * Sampler and the lab's scenario, which runs the strategy.
 */
import { PerformanceObserver, monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { parseChildConfig } from './config';
import { send as sendToParent } from './load-process';
import type { ChildConfig, ChildMessage } from './protocol';
import { loopDelayMs, Sampler } from './sampler';
import type { Scenario } from './scenario';
import { openForProfiler, releaseProfiler } from './inspect';
import { awaitStart, releaseChannel } from './parent-channel';
import { watchLongTasks } from './long-tasks';
import { deniedText } from './denied';
import { guardRun } from './fence-guard';
import { startHeapWatch } from './block-heap';

const LOOP_RESOLUTION_MS = 10;
/** How often a scenario's live extras are asked for: a human rate, whatever the sample rate. */
const LIVE_MS = 250;

// The parent may already be gone (it killed us or died); send() then has nothing left to tell.
const send: (message: ChildMessage, then?: () => void) => void = sendToParent;

/** Sends the last message, waits until IPC has handed it over, then exits. */
function sendAndExit(message: ChildMessage, code: number): void {
  exiting = true;
  send(message, () => process.exit(code));
}

/** A profiled run's parent stops the profiler when it has the done message: exit only once it has. */
function sendAndAwaitProfile(message: ChildMessage): void {
  exiting = true;
  send(message);
  void releaseProfiler().then(() => process.exit(0));
}

let exiting = false;

/** Ends the run as refused with this reason (fence-guard.ts: what the strategy tried beyond its run). */
function refuse(reason: string): void {
  if (!exiting) sendAndExit({ type: 'error', message: reason, denied: true }, 1);
}
// A strategy that forgets an 'error' listener throws outside any promise: report it like any other failure.
process.on('uncaughtException', (err) => {
  if (!exiting) sendAndExit(errorMessage(err), 1);
});
// If the parent dies, the IPC channel closes: never outlive it.
process.on('disconnect', () => {
  if (!exiting) process.exit(2);
});

function moduleUrl(modulePath: string): URL {
  return modulePath.startsWith('user/') ? new URL(`../../${modulePath}.mjs`, import.meta.url) : new URL(`../${modulePath}.mjs`, import.meta.url);
}

/**
 * Loads a module of the child build (a lab's scenario or strategy) by its checked path; "user/<hash>"
 * is a strategy of yours, bundled beside the builds (.build/user/, server/user-strategies/).
 */
async function load<T>(modulePath: string, exportName: string): Promise<T> {
  const url = moduleUrl(modulePath);
  const mod = (await import(url.href)) as Record<string, unknown>;
  if (!mod[exportName]) throw new Error(`${modulePath} exports no \`${exportName}\``);
  return mod[exportName] as T;
}

/**
 * The error message for a failure; the permission model's own (a fenced strategy of yours tried
 * what its fence forbids) says what was tried, and is marked so the run ends as refused.
 */
function errorMessage(err: unknown): ChildMessage {
  const e = err as { code?: unknown; permission?: unknown; resource?: unknown; message?: unknown } | null;
  if (e?.code === 'ERR_ACCESS_DENIED') {
    return { type: 'error', message: deniedText(String(e.permission ?? ''), typeof e.resource === 'string' ? e.resource : null), denied: true };
  }
  return { type: 'error', message: err instanceof Error ? err.message : String(err) };
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return { userMs: u.user / 1000, systemMs: u.system / 1000 };
};
const loopTime = () => {
  const e = performance.eventLoopUtilization();
  return { activeMs: e.active, idleMs: e.idle };
};

/** What the run's process is waiting for, for the beforeExit guard (null: nothing, it may end). */
let waiting: 'setup' | 'strategy' | 'check' | null = null;
/** How often the loop may run empty while waiting, and how long each grace keeps it alive. */
const GRACE_TURNS = 5;
const GRACE_MS = 200;
let emptyTurns = 0;

// The loop ran empty while the run was still waiting: a promise that can never settle (nothing
// left to settle it), or one that awaits only unref'd work whose end is on its way (a thread pool's
// destroy: piscina unrefs its threads, and their 'exit' events still come). A grace of a second
// lets the latter land, then the run ends saying what never settled, instead of waiting for the watchdog.
process.on('beforeExit', () => {
  if (!waiting || exiting) return;
  if (++emptyTurns <= GRACE_TURNS) {
    setTimeout(() => undefined, GRACE_MS);
    return;
  }
  const whose = {
    setup: "the run's setup (the strategy's module or the scenario's prepare)",
    strategy: "the strategy's promise",
    check: "the scenario's check after the strategy",
  }[waiting];
  sendAndExit({ type: 'error', message: `${whose} never settled: the event loop ran empty while it was still waiting` }, 3);
});

async function main(config: ChildConfig): Promise<ChildMessage> {
  waiting = 'setup';
  // The run keeps this process alive by its own work, not by the parent's channel: else the
  // beforeExit guard could never fire.
  releaseChannel();
  // Started first, so its boot (~25 ms) overlaps the lab's loading.
  const heapWatch = config.heapWatch ? startHeapWatch() : null;
  const scenario = await load<Scenario<unknown, unknown>>(config.scenarioModule, 'scenario');
  const scenarioConfig = scenario.parseConfig(config.scenario);
  // Before the strategy's module runs: the runner takes the first inspector URL only, so a strategy
  // (of yours) can't point it at another inspector by sending one of its own.
  if (config.profile) await openForProfiler(send, config.guard === true);
  // Before the strategy's module runs (its top level is its code too): names what it tries beyond its run.
  if (config.guard) guardRun({ strategyUrl: moduleUrl(config.strategyModule).href, report: refuse });
  const strategy = await load<unknown>(config.strategyModule, 'strategy');
  const collect = config.retained ? (globalThis.gc as (() => void) | undefined) : undefined;
  if (config.retained && !collect) throw new Error('retained mode needs --expose-gc');
  // Before the GC and loop-delay counters start: the setup's stalls and idle ticks are not the strategy's.
  const prepared = await scenario.prepare?.(scenarioConfig);

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

  // The idle baseline: scenario, strategy and its library loaded, what it runs against set up,
  // the harness's heap-watch thread running, nothing started yet.
  await heapWatch?.online;
  collect?.();
  send({ type: 'ready', idle: process.memoryUsage(), at: Date.now(), node: process.versions.node });

  // STREAM_LAB_LONG_TASKS=0 turns the detector off (to measure what it costs).
  const longTasks = process.env.STREAM_LAB_LONG_TASKS === '0' ? null : watchLongTasks();
  const run = scenario.start(strategy, scenarioConfig, prepared);
  const sampler = new Sampler(
    {
      memoryUsage: () => process.memoryUsage(),
      // The longest synchronous stretch since the last sample (0: none over the threshold).
      readings: () => (longTasks ? { ...run.readings(), longTaskMs: longTasks.takeMaxMs() } : run.readings()),
      cpu: cpuMs,
      loopTime,
      loopDelay: intervalDelay,
      loopResolutionMs: LOOP_RESOLUTION_MS,
      gc: () => gcStats,
      now: () => performance.now(),
      wallClock: () => Date.now(),
      collect,
    },
    config.sampleMs,
  );
  let timer: NodeJS.Timeout | undefined;
  // The heap goes on being read while a synchronous stretch holds this thread (block-heap.ts).
  const blockHeap = config.sampleMs === null ? null : heapWatch;
  if (config.sampleMs !== null) blockHeap?.arm(config.sampleMs);
  const sample = () => {
    blockHeap?.beat();
    send({ type: 'sample', sample: sampler.take() });
  };
  if (config.sampleMs !== null) {
    // The first sample goes the moment the strategy starts: it is what the page waits for.
    sample();
    // unref: the sampler must not keep a finished (or stuck) run alive.
    timer = setInterval(sample, config.sampleMs).unref();
  }

  const sendLive = () => {
    const update = run.live?.();
    if (update) send({ type: 'live', update });
  };
  const liveTimer = run.live && config.sampleMs !== null ? setInterval(sendLive, LIVE_MS).unref() : undefined;

  waiting = 'strategy';

  await run.done;
  waiting = 'check';
  clearInterval(timer);
  clearInterval(liveTimer);
  // Not awaited: the worker's exit is not the strategy's time (it is unref'd, and gone by the process's exit).
  void blockHeap?.stop();
  if (liveTimer) sendLive(); // what changed since the last one, before the run ends
  longTasks?.stop();
  const final = sampler.take();
  gcObserver.disconnect();
  // The strategy's figures end here; the scenario's check after it is timed apart.
  totalDelay.disable();
  const toMs = (ns: number) => loopDelayMs(ns, LOOP_RESOLUTION_MS);
  const loop = { elP50Ms: toMs(totalDelay.percentile(50)), elP99Ms: toMs(totalDelay.percentile(99)), elMaxMs: toMs(totalDelay.max) };
  const cpu = sampler.cpuSinceStart();
  // Only the check itself is taken off the run's time: the final sample above is the run's, as in
  // every lab.
  const checkFrom = performance.now();
  await run.finish?.();
  const checkMs = run.finish ? performance.now() - checkFrom : undefined;
  waiting = null;
  run.dispose();
  return {
    type: 'done',
    final,
    ...loop,
    cpu,
    extras: run.extras(),
    note: run.note?.() ?? null,
    details: run.details?.() ?? {},
    longTasks: longTasks?.all() ?? [],
    checkMs,
  };
}

function start(raw: string | undefined): void {
  let config: ChildConfig;
  try {
    config = parseChildConfig(raw);
  } catch (err) {
    // A config the parent should never send: end as crashed, naming the field.
    sendAndExit({ type: 'error', message: `bad child config: ${err instanceof Error ? err.message : String(err)}` }, 1);
    return;
  }
  main(config).then(
    (done) => (config.profile ? sendAndAwaitProfile(done) : sendAndExit(done, 0)),
    (err: unknown) => sendAndExit(errorMessage(err), 1),
  );
}

// A fresh child gets its config as its argument; a spare (booted ahead, see
// server/runner/spare-child.ts) waits for it as its first IPC message.
if (process.argv[2] !== undefined) start(process.argv[2]);
else {
  awaitStart().then(
    (config) => start(JSON.stringify(config)),
    (err: Error) => sendAndExit({ type: 'error', message: `bad child config: ${err.message}` }, 1),
  );
}
