/**
 * The deadlines lab, parent side: nothing to prepare (the store makes its objects); the run's
 * samples and the load's report fold into its figures. The child side is scenario.ts (the service),
 * store.ts, load.ts and the pool's task (work-thread.ts).
 */
import { fileURLToPath } from 'node:url';
import { loadStrategies } from '../../load-strategies';
import type { Lab } from '../../types';
import { DeadlineFigures } from './figures';
import { arrivalTimesMs, checkSpikeFits, deadlineParamsSchema } from '../shared/params';
import { deadlineSchema } from '../shared/schema';
import type { Strategy } from '../child/strategy';
import { benchTable } from './bench-table';
import type { DeadlineSummary } from '../shared/schema';
import { LAB_ID } from '../shared/id';
import { estimateMs } from '../shared/form';

const found = await loadStrategies<Strategy>(fileURLToPath(new URL('../child/strategies', import.meta.url)), { roles: deadlineSchema.roles });

export const deadlineLab: Lab<Strategy> = {
  schema: deadlineSchema,
  benchTable: (summaries) => benchTable(summaries as readonly DeadlineSummary[]),
  dir: LAB_ID,
  // The run's child forks the object store and the load, the offloading strategies start threads, and the harness imports its packages.
  userFence: { childProcess: true, worker: true, packages: true },
  strategies: found.map((f) => f.strategy),
  strategyFiles: new Map(found.map((f) => [f.strategy.id, f.file])),
  childEntries: ['store', 'load', 'work-thread'],
  runsAlone: 'the deadlines lab measures what a spike of CPU work does to one service: two runs at once would share the cores',

  checkLimits(params) {
    checkSpikeFits(deadlineParamsSchema.parse(params));
  },

  async prepare(raw) {
    const p = deadlineParamsSchema.parse(raw);
    checkSpikeFits(p);
    const { baselineRps, spikeRps, spikeStartS, spikeS, durationS, objects, cpuMs, deadlineMs, storeMedianMs, concurrency, shedLagMs } = p;
    return {
      scenario: {
        baselineRps,
        spikeRps,
        spikeStartS,
        spikeS,
        durationS,
        objects,
        cpuMs,
        deadlineMs,
        storeMedianMs,
        concurrency,
        workers: p.workers ?? 0,
        shedLagMs,
      },
      total: arrivalTimesMs(p).length,
    };
  },

  expectedTotal(raw) {
    return arrivalTimesMs(deadlineParamsSchema.parse(raw)).length;
  },

  estimateMs,

  newRecorder(prepared) {
    return new DeadlineFigures(prepared.total ?? 0);
  },
};

/** What the lab registry picks up from this folder (scripts/lab-index.mjs). */
export { deadlineLab as lab };
