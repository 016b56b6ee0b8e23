/**
 * The deadlines lab inside the run's process, which is the service under test: it forks the mock
 * object store (store.ts), calibrates the CPU work per object, starts the strategy's service, runs a
 * steady probe timer, and forks the open-loop load (load.ts) against it. Done when the load has
 * every answer; the store, the load and whatever the strategy started end with it.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { limitAt, numberAt } from '../../../server/child/check-config';
import { DEADLINE_LIMITS } from '../shared/limits';
import type { Scenario } from '../../../server/child/scenario';
import { freePort } from '../../../server/child/free-port';
import { endProcess, startLoad } from '../../../server/child/load-process';
import { LatenessRecorder, percentileOf, startProbe } from './lateness';
import type { DeadlineLoadConfig, DeadlineLoadDone, DeadlineLoadReadings } from './load';
import type { StoreConfig, StoreMessage } from './store';
import type { ServiceCounters, ServiceUnderTest, Strategy } from './strategy';
import { calibrate } from './work';
import { recoveryFigures } from './recovery';

interface DeadlineConfig {
  baselineRps: number;
  spikeRps: number;
  spikeStartS: number;
  spikeS: number;
  durationS: number;
  objects: number;
  cpuMs: number;
  deadlineMs: number;
  storeMedianMs: number;
  concurrency: number;
  /** 0 = the server's cores. */
  workers: number;
  shedLagMs: number;
}

/** The steady probe timer: one every this many ms shows the loop's lateness when no deadline fires. */
const PROBE_MS = 100;
/** After the schedule, answers are waited for this long beyond the deadline (then they count as errors). */
const DRAIN_EXTRA_MS = 10_000;

const NO_LOAD: DeadlineLoadReadings = {
  sent: 0,
  onTime: 0,
  late: 0,
  timedOut: 0,
  refused: 0,
  errors: 0,
  offeredRps: 0,
  completedRps: 0,
  inFlight: 0,
  startedAt: 0,
};
const entry = (name: string) => fileURLToPath(new URL(`./${name}.mjs`, import.meta.url));

/** Forks the store and resolves with it and its port once it listens. */
function startStore(config: StoreConfig): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(entry('store'), [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', (m: StoreMessage) => resolve({ child, port: m.port }));
    child.once('exit', (code, signal) => reject(new Error(`the object store ended before listening (code ${code}, signal ${signal})`)));
    child.send({ type: 'start', config });
  });
}

export const scenario: Scenario<DeadlineConfig> = {
  parseConfig: (c) => ({
    baselineRps: limitAt(c, 'baselineRps', DEADLINE_LIMITS.baselineRps),
    spikeRps: limitAt(c, 'spikeRps', DEADLINE_LIMITS.spikeRps),
    spikeStartS: limitAt(c, 'spikeStartS', DEADLINE_LIMITS.spikeStartS),
    spikeS: limitAt(c, 'spikeS', DEADLINE_LIMITS.spikeS),
    durationS: limitAt(c, 'durationS', DEADLINE_LIMITS.durationS),
    objects: limitAt(c, 'objects', DEADLINE_LIMITS.objects, { int: true }),
    cpuMs: limitAt(c, 'cpuMs', DEADLINE_LIMITS.cpuMs),
    deadlineMs: limitAt(c, 'deadlineMs', DEADLINE_LIMITS.deadlineMs, { int: true }),
    storeMedianMs: limitAt(c, 'storeMedianMs', DEADLINE_LIMITS.storeMedianMs),
    concurrency: limitAt(c, 'concurrency', DEADLINE_LIMITS.concurrency, { int: true }),
    // 0: one per core (the form's empty workers).
    workers: numberAt(c, 'workers', 0, DEADLINE_LIMITS.workers.max, { int: true }),
    shedLagMs: limitAt(c, 'shedLagMs', DEADLINE_LIMITS.shedLagMs, { int: true }),
  }),

  start(raw, config) {
    const strategy = raw as Strategy;
    const cores = availableParallelism();
    const t0 = performance.now();
    const startWall = Date.now();
    const lateness = new LatenessRecorder(t0);
    let probe: { stop(): void } | null = null;
    const counters: ServiceCounters = { objectsFetched: 0, objectsWorked: 0, workTimesMs: [] };
    let load = NO_LOAD;
    let store: ChildProcess | null = null;
    let loadChild: ChildProcess | null = null;
    let service: ServiceUnderTest | null = null;
    let final: Record<string, number> = {};
    let problem: string | null = null;
    let workMs = 0;

    // If this process ends abruptly, take the store and the load along.
    const killOnExit = () => [store, loadChild].forEach((c) => c?.kill('SIGKILL'));
    process.once('exit', killOnExit);
    const scheduleStartMs = () => (load.startedAt > 0 ? load.startedAt - startWall : -1);

    const done = (async () => {
      try {
        const started = await startStore({ medianMs: config.storeMedianMs, seed: 1 });
        store = started.child;
        const cal = calibrate(config.cpuMs);
        workMs = cal.workMs;
        const ctx = {
          port: await freePort(),
          storeOrigin: `http://127.0.0.1:${started.port}`,
          objects: config.objects,
          rounds: cal.rounds,
          deadlineMs: config.deadlineMs,
          concurrency: config.concurrency,
          workers: config.workers || cores,
          shedLagMs: config.shedLagMs,
          entries: { workThread: entry('work-thread') },
          lateness,
          counters,
        };
        service = await strategy.run(ctx);
        // From here on: the calibration above held the loop on purpose, and is not the service's lateness.
        probe = startProbe(PROBE_MS, (due, fired) => lateness.record('probe', due, fired));
        const loadConfig: DeadlineLoadConfig = { ...config, port: service.port, drainMs: config.deadlineMs + DRAIN_EXTRA_MS };
        const run = startLoad<DeadlineLoadConfig, DeadlineLoadReadings, DeadlineLoadDone>(entry('load'), loadConfig, (r) => (load = r));
        loadChild = run.child;
        const report = await run.done;
        [final, problem] = [report.figures, report.problem];
      } finally {
        probe?.stop();
        await endProcess(loadChild);
        await service?.close();
        await endProcess(store);
        process.off('exit', killOnExit);
      }
    })();

    // The cost per object as this run paid it (median of the objects worked), else the calibration's.
    const workMsPerObject = () => (counters.workTimesMs.length > 0 ? percentileOf(counters.workTimesMs, 50) : workMs);
    const demand = (rps: number) => (rps * config.objects * workMsPerObject()) / 1000;
    return {
      readings: () => {
        const w = lateness.window(performance.now());
        const { startedAt: _, ...counts } = load;
        return { ...counts, latenessP99Ms: w.p99, latenessMaxMs: w.max, scheduleStartMs: scheduleStartMs() };
      },
      done,
      extras: () => ({
        ...final,
        ...recoveryFigures(lateness, { ...config, scheduleStartMs: scheduleStartMs(), requestWorkMs: config.objects * workMsPerObject() }),
        deadlineTimersFired: lateness.deadlineFired,
        deadlineLatenessMaxMs: lateness.deadlineMaxMs,
        workMsPerObject: workMsPerObject(),
        baselineDemandCores: demand(config.baselineRps),
        spikeDemandCores: demand(config.spikeRps),
        cores,
        objectsFetched: counters.objectsFetched,
        objectsWorked: counters.objectsWorked,
        scheduleStartMs: scheduleStartMs(),
      }),
      note: () => problem,
      details: () => ({ lateness: lateness.scatter() }),
      dispose: () => undefined,
    };
  },
};
