/**
 * What the CPU lab adds to the common protocol: readings of the server's process tree and of the
 * load, figures of the requests, and each request's bar on the timeline. Client-safe.
 */
import { z } from 'zod';
import { cpuParamsSchema, DEFAULT_CPU_PARAMS } from './params';
import { describeParams } from './describe';
import type { ParamsStyle } from '../../schemas';
import type { CpuParams } from './params';
import { form } from './form';
import { markdownTable } from './markdown';
import { csv } from './csv';
import type { LabSummary } from '../../../lib/protocol';
import { LAB_ID } from './id';
import { ROLES } from './roles';

export const CPU_READINGS = [
  /** Requests answered right so far (the run's progress), and answered wrong or failed. */
  'requestsOk',
  'badRequests',
  /** Requests sent and not yet answered. */
  'requestsInFlight',
  /** The latest /ping's round trip (ms; 0 before the first). */
  'pingMs',
  /** RSS of the server's whole process tree (the primary and every process it started), bytes. */
  'treeRss',
  /** Processes in that tree, and threads in all of them. */
  'processes',
  'threads',
  /**
   * CPU of the whole tree, % of one core (200 = both cores of this machine): the primary's own over
   * the sample's interval plus the other processes as the load last read them (child/tree-cpu.ts);
   * absent where either was not measured.
   */
  'treeCpuPct',
  /** 'message' listeners on the pool's workers (the leaky pool's leak). */
  'messageListeners',
  /** CPU of the load process, % of one core. */
  'loadCpuPct',
] as const;

/** One request, as the load saw it: times in ms from the load's start, and who answered it. */
export const requestBarSchema = z.object({
  startMs: z.number(),
  firstByteMs: z.number(),
  endMs: z.number(),
  /**
   * "pid" or "pid/thread": the process (and thread) that computed the answer; the thread is the
   * kernel's thread id on Linux (as in threadCpu's tid), worker_threads' threadId elsewhere.
   */
  servedBy: z.string(),
  ok: z.boolean(),
});
export type RequestBar = z.infer<typeof requestBarSchema>;

/** One thread of the server's process tree (`tid === pid`: the process's main thread), read from /proc. */
export const threadCpuSchema = z.object({
  pid: z.number(),
  tid: z.number(),
  /** CPU time of the thread (user + system) when last read, ms. */
  cpuMs: z.number(),
  /** Live only: its CPU between the last two reads, % of one core. */
  cpuPct: z.number().optional(),
});
export type ThreadCpuRow = z.infer<typeof threadCpuSchema>;

export const cpuFigures = {
  requestsPlanned: z.number(),
  requestsOk: z.number(),
  badRequests: z.number(),
  /**
   * First request sent to last answer, and the requests' latencies; null when no request ended (a
   * run that never started, or ended before the load's report). So are the figures below that say
   * null: not measured, never 0 (records from before hold 0 there).
   */
  makespanMs: z.number().nullable(),
  latencyP50Ms: z.number().nullable(),
  latencyMaxMs: z.number().nullable(),
  /** fib(n) measured alone in the load process before the run: one computation's cost here; null when the load never reported. */
  computeMsAlone: z.number().nullable(),
  /** Median time from a request's arrival to its process/thread being ready; null when no worker start was timed (strategies that keep theirs; 0 in older records). */
  spawnP50Ms: z.number().nullable(),
  /** /ping's round trips while the requests ran; null when no ping was answered (pinging off, or a run shorter than pingMs). */
  pingP50Ms: z.number().nullable(),
  pingMaxMs: z.number().nullable(),
  peakTreeRss: z.number(),
  peakProcesses: z.number(),
  peakThreads: z.number(),
  peakMessageListeners: z.number(),
  /** The shortest computation seen, in the load alone or in any answer: the yardstick of the speed-up. */
  computeMsMin: z.number().nullable(),
  /**
   * requestsOk × computeMsMin ÷ makespan: how many computations' worth of work ran at once, at most
   * `cores`; null when no request was timed (no makespan: a run that never started, or that ended
   * before the load's report).
   */
  speedup: z.number().nullable(),
  /** The same before the cap: above `cores` only when the machine's speed changed during the run (a VM's neighbours). */
  speedupMeasured: z.number().nullable(),
  /** Distinct processes/threads that answered requests; null when the load never reported. */
  servers: z.number().nullable(),
  /** The server's cores (os.availableParallelism), the ceiling for any speed-up; null when the scenario never reported. */
  cores: z.number().nullable(),
  timeline: z.array(requestBarSchema),
  /**
   * CPU other processes on the machine used while the requests ran (ms, all cores together: the
   * machine's busy time from /proc/stat less the run's tree and load), over `cpuWindowMs`; null when
   * not measured, absent in runs recorded before issue 38. Tells a busy machine from a strategy that does not scale.
   */
  otherCpuMs: z.number().nullable().optional(),
  cpuWindowMs: z.number().nullable().optional(),
  /** Each thread of the tree that used CPU, busiest first (at most 32); empty in runs recorded before it. */
  threadCpu: z.array(threadCpuSchema).default([]),
};

export const cpuSchema = {
  id: LAB_ID,
  /** Place in the lab switch and lists (lower first). */
  order: 30,
  name: 'CPU scaling',
  title: 'CPU: one thread vs cluster vs fork vs worker_threads vs a pool',
  params: cpuParamsSchema,
  defaults: DEFAULT_CPU_PARAMS,
  readings: CPU_READINGS,
  figures: cpuFigures,
  form,
  markdownTable,
  // Its work holds the loop (the lab's point): the heap is read during the block too.
  watchesBlockedHeap: true,
  csv,
  // The whole process tree first: the primary alone misses every worker process.
  historyColumns: [
    { key: 'makespanMs', header: 'All requests', unit: 'ms' },
    { key: 'speedup', header: 'Speed-up', unit: 'times' },
    { key: 'peakTreeRss', header: 'Tree RSS', unit: 'bytes' },
  ],
  metrics: ['treeRss', 'treeCpuPct', 'pingMs', 'rss', 'heapUsed', 'cpuPct', 'loadCpuPct', 'elu'] as const,
  roles: ROLES,
  describe: (params: Record<string, unknown>, style: ParamsStyle) => describeParams(params as CpuParams, style),
  progress: { done: 'requestsOk', total: 'requestsPlanned' },
} as const;

/** A cpu run's summary: the common part, its params and its figures. */
export type CpuSummary = LabSummary<typeof LAB_ID>;

/** What the lab registry picks up from this folder (scripts/lab-index.mjs). */
export { cpuSchema as schema };
