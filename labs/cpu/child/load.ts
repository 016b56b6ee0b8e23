/**
 * The CPU lab's load, in its own process: measures fib(n) alone first (one computation's cost on
 * this machine), then sends `requests` GET /fib?n=N, `concurrency` at a time, and a /ping every
 * `pingMs`. Records each request's start, first byte, end and who served it; checks every value.
 * Child build entry (no zod).
 */
import { Agent } from 'node:http';
import { availableParallelism } from 'node:os';
import { get, percentile } from '../../../server/child/http-get';
import { send as sendToRun, serveLoad, type LoadMessage } from '../../../server/child/load-process';
import { fib, fibFast, type FibAnswer } from './fib';
import { watchTree, type TaskCpu, type ThreadCpu } from './proc-tree';
import { otherCpuMs, readMachineCpu } from './machine-cpu';

export interface CpuLoadConfig {
  port: number;
  n: number;
  concurrency: number;
  requests: number;
  keepAlive: boolean;
  pingMs: number;
  timeoutS: number;
}

export interface CpuLoadReadings {
  requestsOk: number;
  badRequests: number;
  requestsInFlight: number;
  pingMs: number;
  loadCpuPct: number;
  /** The server's process tree (its primary is our parent), read here: a busy server can't delay the reading, only its delivery. */
  treeRss: number;
  processes: number;
  threads: number;
  /** The tree's processes but the primary, % of one core between the last two reads (absent before two); the primary adds its own (tree-cpu.ts). */
  othersCpuPct?: number;
  /** Wall clock (epoch ms) of the tree's read these figures come from. */
  treeReadAt: number;
}

/** What each report carries besides the numbers: the bars ended since the last one, the busiest threads now. */
export interface CpuLoadLive {
  newBars: Bar[];
  busiest: ThreadCpu[];
}

export interface Bar {
  startMs: number;
  firstByteMs: number;
  endMs: number;
  servedBy: string;
  ok: boolean;
  spawnMs: number;
  computeMs: number;
}

/** The load's final report. */
export interface CpuLoadDone {
  figures: Record<string, number>;
  timeline: Bar[];
  /** Each thread of the server's tree that used CPU, busiest first. */
  threadCpu: TaskCpu[];
  problem: string | null;
}
export type CpuLoadMessage = LoadMessage<CpuLoadReadings & CpuLoadLive, CpuLoadDone>;

/** Threads listed in the run's figures. */
const THREADS_IN_FIGURES = 32;

const REPORT_MS = 250;

const send: (m: CpuLoadMessage, then?: () => void) => void = sendToRun;

/** Why an answer is not the right one for request `id`. */
function wrongAnswer(a: FibAnswer | null, id: number, status: number): string {
  if (a === null) return `request ${id}: status ${status}`;
  if (a.id !== id) return `request ${id} got the answer computed for request ${a.id}`;
  return `request ${id}: fib(${a.n}) answered ${a.value}`;
}

async function main(cfg: CpuLoadConfig): Promise<void> {
  // One computation alone, in this process, before any load: the yardstick for every speed-up.
  // A smaller one first, so the timed call runs optimised code as a busy server's would.
  fib(Math.max(0, cfg.n - 5));
  const t = performance.now();
  fib(cfg.n);
  const computeMsAlone = performance.now() - t;
  const expected = fibFast(cfg.n);

  const tree = watchTree(process.ppid, new Set([process.pid]), 200, availableParallelism() * 100);
  await tree.read();
  const treeReadings = () => ({
    treeRss: tree.state.now.rssBytes,
    processes: tree.state.now.processes,
    threads: tree.state.now.threads,
    ...(tree.state.othersCpuPct !== null && { othersCpuPct: tree.state.othersCpuPct }),
    treeReadAt: tree.state.readAt,
  });
  const agent = new Agent({ keepAlive: cfg.keepAlive, maxSockets: cfg.concurrency });
  const pingAgent = new Agent({ keepAlive: true, maxSockets: 1 });
  const bars: Bar[] = [];
  let reported = 0; // bars already sent with a report
  const newBars = () => {
    const fresh = bars.slice(reported);
    reported = bars.length;
    return fresh;
  };
  const pings: number[] = [];
  let ok = 0;
  let bad = 0;
  let inFlight = 0;
  let problem: string | null = null;
  let pingSentAt: number | null = null;
  let pendingPing: Promise<unknown> | null = null;
  let lastPing = 0;
  const t0 = performance.now();
  // The machine's CPU and the run's own (the tree, this load) from here to the last answer.
  const window0 = { machine: readMachineCpu(), treeMs: tree.state.cpuMs, load: process.cpuUsage(), at: t0 };

  const pinger =
    cfg.pingMs > 0
      ? setInterval(() => {
          if (pingSentAt !== null) return; // the last one is still waiting: that wait is the reading
          pingSentAt = performance.now();
          pendingPing = get(cfg.port, '/ping', pingAgent, cfg.timeoutS * 1000).then(
            () => {
              lastPing = performance.now() - pingSentAt!;
              pings.push(lastPing);
              pingSentAt = null;
            },
            () => (pingSentAt = null),
          );
        }, cfg.pingMs)
      : null;

  let lastCpu = process.cpuUsage();
  let lastAt = performance.now();
  const reporter = setInterval(() => {
    const cpu = process.cpuUsage(lastCpu);
    const now = performance.now();
    const loadCpuPct = ((cpu.user + cpu.system) / 1000 / (now - lastAt)) * 100;
    [lastCpu, lastAt] = [process.cpuUsage(), now];
    // A ping still waiting shows its age: a blocked event loop is visible before the ping returns.
    const pingMs = pingSentAt !== null ? Math.max(lastPing, now - pingSentAt) : lastPing;
    send({
      type: 'readings',
      readings: {
        requestsOk: ok,
        badRequests: bad,
        requestsInFlight: inFlight,
        pingMs,
        loadCpuPct,
        ...treeReadings(),
        newBars: newBars(),
        busiest: tree.state.busiest,
      },
    });
  }, REPORT_MS);

  let next = 0;
  async function client(): Promise<void> {
    while (next < cfg.requests) {
      const id = next++;
      const start = performance.now();
      inFlight += 1;
      try {
        const r = await get(cfg.port, `/fib?n=${cfg.n}&id=${id}`, agent, cfg.timeoutS * 1000);
        const end = performance.now();
        const a = r.status === 200 ? (JSON.parse(r.body) as FibAnswer) : null;
        const right = a !== null && a.value === expected && a.n === cfg.n && a.id === id;
        if (!right) problem ??= wrongAnswer(a, id, r.status);
        bars.push({
          startMs: start - t0,
          firstByteMs: r.firstByteAt - t0,
          endMs: end - t0,
          servedBy: a?.servedBy ?? '?',
          ok: right,
          spawnMs: a?.spawnMs ?? 0,
          computeMs: a?.computeMs ?? 0,
        });
        if (right) ok += 1;
        else bad += 1;
      } catch (err) {
        bad += 1;
        problem ??= (err as Error).message;
        bars.push({
          startMs: start - t0,
          firstByteMs: performance.now() - t0,
          endMs: performance.now() - t0,
          servedBy: '?',
          ok: false,
          spawnMs: 0,
          computeMs: 0,
        });
      } finally {
        inFlight -= 1;
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(cfg.concurrency, cfg.requests) }, client));
  if (pinger) clearInterval(pinger);
  // A ping still waiting is the one that waited longest (behind every computation): let it finish.
  if (pingSentAt !== null) await pendingPing;
  clearInterval(reporter);
  agent.destroy();
  pingAgent.destroy();
  await tree.read();
  tree.stop();
  const loadCpu = process.cpuUsage(window0.load);
  const ownMs = tree.state.cpuMs - window0.treeMs + (loadCpu.user + loadCpu.system) / 1000;
  const others = otherCpuMs(window0.machine, readMachineCpu(), ownMs);
  const cpuWindowMs = performance.now() - window0.at;
  send({
    type: 'readings',
    readings: { requestsOk: ok, badRequests: bad, requestsInFlight: 0, pingMs: lastPing, loadCpuPct: 0, ...treeReadings(), newBars: newBars(), busiest: [] },
  });

  const latencies = bars.map((b) => b.endMs - b.startMs);
  const computed = bars.filter((b) => b.ok).map((b) => b.computeMs);
  const spawns = bars.map((b) => b.spawnMs).filter((ms) => ms > 0);
  await new Promise<void>((resolve) =>
    send(
      {
        type: 'done',
        problem,
        timeline: bars.sort((a, b) => a.startMs - b.startMs),
        threadCpu: tree.totals(THREADS_IN_FIGURES),
        figures: {
          requestsOk: ok,
          badRequests: bad,
          // What nobody timed is left out, so the figure is null (not 0 ms): no request ended (no
          // makespan, no latency), no worker was started per request, no /ping was answered (a run
          // shorter than pingMs, or every ping waited past the last answer and failed).
          ...(bars.length > 0 && {
            makespanMs: Math.max(...bars.map((b) => b.endMs)) - Math.min(...bars.map((b) => b.startMs)),
            latencyP50Ms: percentile(latencies, 50),
            latencyMaxMs: Math.max(...latencies),
          }),
          computeMsAlone,
          // Sharing a core only stretches a computation: the shortest one seen is the closest to its cost alone.
          computeMsMin: Math.min(computeMsAlone, ...computed),
          ...(spawns.length > 0 && { spawnP50Ms: percentile(spawns, 50) }),
          ...(pings.length > 0 && { pingP50Ms: percentile(pings, 50), pingMaxMs: Math.max(...pings) }),
          servers: new Set(bars.map((b) => b.servedBy)).size,
          peakTreeRss: tree.state.peaks.rssBytes,
          peakProcesses: tree.state.peaks.processes,
          peakThreads: tree.state.peaks.threads,
          // Not measured (no /proc/stat): left out, so the figure is null.
          ...(others !== null && { otherCpuMs: others, cpuWindowMs }),
        },
      },
      resolve,
    ),
  );
}

serveLoad(main);
