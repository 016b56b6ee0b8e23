/**
 * The CPU walkthrough: four steps, each running a small preset experiment of the CPU lab and
 * concluding from its runs. Every figure a text quotes is read from the presets. Client-safe, pure.
 */
import { DEFAULT_CPU_PARAMS, type CpuParams } from '../shared/params';
import { concludeLeakyPool, concludeOneThread, concludeProcesses, concludeSpawn } from './conclusions';
import type { LessonStep } from '../../../lib/lessons/lesson';
import { LAB_ID } from '../shared/id';

export type CpuLessonStep = LessonStep<typeof LAB_ID>;

/** fib(37): a few hundred ms a request here, so four of them queue visibly and a step takes seconds. Short watchdog: the queue is shared. */
export const WORK_PARAMS: CpuParams = { ...DEFAULT_CPU_PARAMS, n: 37, requests: 4, concurrency: 4, timeoutS: 120 };
/** fib(25) takes about a millisecond: starting a process (tens of ms) is then the whole cost. */
export const SMALL_PARAMS: CpuParams = { ...WORK_PARAMS, n: 25, requests: 16 };
/** More requests than workers, at once: a leaky pool's process gets two at a time. */
export const POOL_PARAMS: CpuParams = { ...WORK_PARAMS, n: 30, requests: 8 };

/** "fib(37), 4 requests, 4 at once": a preset's figures. */
export function describeCpuParams(p: CpuParams): string {
  return `fib(${p.n}), ${p.requests} requests, ${p.concurrency} at once`;
}

export function buildCpuLessonSteps(work: CpuParams, small: CpuParams, pool: CpuParams): readonly CpuLessonStep[] {
  return [
    {
      lab: LAB_ID,
      n: 1,
      title: 'One thread queues CPU-bound requests',
      paragraphs: [
        `single-thread computes fib(${work.n}) in the request handler. ${work.concurrency} requests arrive at once, but one event loop runs ` +
          'one computation at a time: each request waits for all those before it, and so does every /ping.',
      ],
      watch: 'On the timeline the bars end one after another, like stairs. The primary’s CPU stays at one core (100%).',
      presets: [{ strategies: ['single-thread'], params: work }],
      conclude: ([one]) => concludeOneThread(one),
    },
    {
      lab: LAB_ID,
      n: 2,
      title: 'More processes, up to the cores',
      paragraphs: [
        'cluster starts one process per core sharing the port; each computes its own requests. The speed-up stops at the cores: ' +
          'a third process on two cores only takes turns.',
      ],
      watch: 'The timeline’s bars now end in pairs, in two colours (two processes). The tree’s CPU climbs to 200% and its RSS grows by a process.',
      presets: [{ strategies: ['single-thread', 'cluster'], params: work }],
      conclude: ([one, cluster]) => concludeProcesses(one, cluster),
    },
    {
      lab: LAB_ID,
      n: 3,
      title: 'Spawning per request costs; a pool pays once',
      paragraphs: [
        `Now the work is small (fib(${small.n})) and there are ${small.requests} requests. fork-per-request starts a Node process for each; ` +
          'worker-pool (piscina) keeps threads started once.',
      ],
      watch: 'The fork run’s processes chart jumps with every request; its bars are long for tiny work.',
      presets: [{ strategies: ['fork-per-request', 'worker-pool'], params: small }],
      conclude: ([fork, workers]) => concludeSpawn(fork, workers),
    },
    {
      lab: LAB_ID,
      n: 4,
      title: 'The leaky pool',
      paragraphs: [
        'cluster-pool-leaky is a write-up’s pool as written: each request adds a message listener to a worker process and never removes it, ' +
          'and a reply carries no request id. cluster-pool keeps one listener per process and an id in every message.',
      ],
      watch: 'The listeners figure (flagged on the card) and the timeline’s outlined bars: answers that went to the wrong request.',
      presets: [{ strategies: ['cluster-pool-leaky', 'cluster-pool'], params: pool }],
      conclude: ([leaky, fixed]) => concludeLeakyPool(leaky, fixed),
    },
  ];
}

export const CPU_LESSON_STEPS: readonly CpuLessonStep[] = buildCpuLessonSteps(WORK_PARAMS, SMALL_PARAMS, POOL_PARAMS);
