/**
 * The CPU lab, parent side: nothing to prepare (fib needs no data); the run's samples and the
 * load's report fold into its figures. The child side is scenario.ts, load.ts and the worker modules.
 */
import { fileURLToPath } from 'node:url';
import { loadStrategies } from '../../load-strategies';
import type { Lab } from '../../types';
import { CpuFigures } from './figures';
import { cpuParamsSchema } from '../shared/params';
import { cpuSchema } from '../shared/schema';
import type { Strategy } from '../child/strategy';
import { benchTable } from './bench-table';
import type { CpuSummary } from '../shared/schema';
import { LAB_ID } from '../shared/id';
import { estimateMs } from '../shared/form';

const found = await loadStrategies<Strategy>(fileURLToPath(new URL('../child/strategies', import.meta.url)), { roles: cpuSchema.roles });

export const cpuLab: Lab<Strategy> = {
  schema: cpuSchema,
  benchTable: (summaries) => benchTable(summaries as readonly CpuSummary[]),
  dir: LAB_ID,
  // Its strategies start processes (cluster, fork) and threads (worker_threads, piscina) from the
  // child build's entries, and the harness forks the load and imports its packages.
  userFence: { childProcess: true, worker: true, packages: true },
  strategies: found.map((f) => f.strategy),
  strategyFiles: new Map(found.map((f) => [f.strategy.id, f.file])),
  childEntries: ['load', 'fib-process', 'fib-thread', 'cluster-worker'],
  runsAlone: 'the CPU lab measures how a server uses the cores: two runs at once would share them',

  checkLimits(params) {
    cpuParamsSchema.parse(params);
  },

  async prepare(raw) {
    const p = cpuParamsSchema.parse(raw);
    return {
      scenario: {
        n: p.n,
        concurrency: p.concurrency,
        requests: p.requests,
        workers: p.workers ?? 0,
        keepAlive: p.keepAlive,
        pingMs: p.pingMs,
        timeoutS: p.timeoutS,
      },
      total: p.requests,
    };
  },

  expectedTotal(raw) {
    return cpuParamsSchema.parse(raw).requests;
  },

  estimateMs,

  newRecorder(prepared) {
    return new CpuFigures(prepared.total ?? 0);
  },
};

/** What the lab registry picks up from this folder (scripts/lab-index.mjs). */
export { cpuLab as lab };
