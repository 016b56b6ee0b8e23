/**
 * The CPU lab inside the run's process, which is the server's primary: it starts the strategy's
 * server (and whatever processes or threads the strategy keeps), forks the load (load.ts) against
 * it, and reads the server's process tree from /proc. Done when the load has every answer.
 */
import type { ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { booleanAt, limitAt, numberAt } from '../../../server/child/check-config';
import { CPU_LIMITS } from '../shared/limits';
import { COMMON_LIMITS } from '../../../lib/protocol/limits';
import type { Scenario } from '../../../server/child/scenario';
import { freePort } from '../../../server/child/free-port';
import { endProcess, startLoad } from '../../../server/child/load-process';
import type { LiveUpdate } from '../../../lib/protocol/common';
import type { Bar, CpuLoadConfig, CpuLoadDone, CpuLoadLive, CpuLoadReadings } from './load';
import { readSelf, type TaskCpu, type ThreadCpu, type TreeStats } from './proc-tree';
import { treeCpuMeter } from './tree-cpu';
import type { ServerUnderTest, Strategy } from './strategy';

interface CpuConfig {
  n: number;
  concurrency: number;
  requests: number;
  /** 0 = the server's cores. */
  workers: number;
  keepAlive: boolean;
  pingMs: number;
  timeoutS: number;
}

const NO_LOAD: CpuLoadReadings = {
  requestsOk: 0,
  badRequests: 0,
  requestsInFlight: 0,
  pingMs: 0,
  loadCpuPct: 0,
  treeRss: 0,
  processes: 0,
  threads: 0,
  treeReadAt: 0,
};
const entry = (name: string) => fileURLToPath(new URL(`./${name}.mjs`, import.meta.url));

export const scenario: Scenario<CpuConfig> = {
  parseConfig: (c) => ({
    n: limitAt(c, 'n', CPU_LIMITS.n, { int: true }),
    concurrency: limitAt(c, 'concurrency', CPU_LIMITS.concurrency, { int: true }),
    requests: limitAt(c, 'requests', CPU_LIMITS.requests, { int: true }),
    // 0: one per core (the form's empty workers).
    workers: numberAt(c, 'workers', 0, CPU_LIMITS.workers.max, { int: true }),
    keepAlive: booleanAt(c, 'keepAlive'),
    pingMs: limitAt(c, 'pingMs', CPU_LIMITS.pingMs, { int: true }),
    timeoutS: limitAt(c, 'timeoutS', COMMON_LIMITS.timeoutS, { int: true }),
  }),

  start(raw, config) {
    const strategy = raw as Strategy;
    const cores = availableParallelism();
    let load = NO_LOAD;
    // Until the load reports the tree (it reads /proc from its own process, which the server's
    // computations never block), the tree is this process alone.
    const self = readSelf();
    let tree: Pick<TreeStats, 'processes' | 'threads' | 'rssBytes'> = { processes: 1, threads: self.threads, rssBytes: self.rssBytes };
    const treeCpu = treeCpuMeter(cores * 100);
    let server: ServerUnderTest | null = null;
    let loadChild: ChildProcess | null = null;
    let final: Record<string, number> = {};
    let timeline: Bar[] = [];
    let threadCpu: TaskCpu[] = [];
    let problem: string | null = null;
    // What the page has not seen yet: bars ended since the last live update, the busiest threads.
    let unsentBars: Bar[] = [];
    let busiest: ThreadCpu[] | null = null;
    const peaks = { listeners: 0 };

    // If this process ends abruptly, take the load along (the strategy's own children are cluster
    // workers and forks that exit when their IPC channel to us closes).
    const killOnExit = () => loadChild?.kill('SIGKILL');
    process.once('exit', killOnExit);

    const done = (async () => {
      try {
        const port = await freePort();
        server = await strategy.run({
          port,
          workers: config.workers || cores,
          entries: { fibProcess: entry('fib-process'), fibThread: entry('fib-thread'), clusterWorker: entry('cluster-worker') },
        });
        const loadConfig: CpuLoadConfig = {
          port: server.port,
          n: config.n,
          concurrency: config.concurrency,
          requests: config.requests,
          keepAlive: config.keepAlive,
          pingMs: config.pingMs,
          timeoutS: config.timeoutS,
        };
        const started = startLoad<CpuLoadConfig, CpuLoadReadings & CpuLoadLive, CpuLoadDone>(
          entry('load'),
          loadConfig,
          ({ newBars, busiest: threads, ...r }) => {
            load = r;
            unsentBars.push(...newBars);
            busiest = threads;
            tree = { processes: r.processes, threads: r.threads, rssBytes: r.treeRss };
          },
        );
        loadChild = started.child;
        const report = await started.done;
        [final, problem, timeline, threadCpu] = [report.figures, report.problem, report.timeline, report.threadCpu];
        peaks.listeners = Math.max(peaks.listeners, server.messageListeners());
      } finally {
        await endProcess(loadChild);
        await server?.close();
        process.off('exit', killOnExit);
      }
    })();

    return {
      readings: () => {
        const listeners = server?.messageListeners() ?? 0;
        peaks.listeners = Math.max(peaks.listeners, listeners);
        // Until the load has reported, /ping, its CPU and the tree's CPU were not measured: absent, not 0.
        const { pingMs, loadCpuPct, othersCpuPct, treeReadAt, ...counts } = load;
        const treeCpuPct = treeCpu(load === NO_LOAD ? null : { processes: load.processes, cpuPct: othersCpuPct, readAt: treeReadAt });
        return {
          ...counts,
          ...(load !== NO_LOAD && { pingMs, loadCpuPct }),
          ...(treeCpuPct !== undefined && { treeCpuPct }),
          treeRss: tree.rssBytes,
          processes: tree.processes,
          threads: tree.threads,
          messageListeners: listeners,
        };
      },
      done,
      extras: () => ({ ...final, cores, peakMessageListeners: peaks.listeners }),
      note: () => problem,
      details: () => ({ timeline, threadCpu }),
      live: (): LiveUpdate | null => {
        if (unsentBars.length === 0 && busiest === null) return null;
        const update: LiveUpdate = { append: unsentBars.length ? { timeline: unsentBars } : {}, set: busiest ? { threads: busiest } : {} };
        [unsentBars, busiest] = [[], null];
        return update;
      },
      dispose: () => undefined,
    };
  },
};
