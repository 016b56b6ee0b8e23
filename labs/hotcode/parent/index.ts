/**
 * The hot-code lab, parent side: nothing to prepare (the child makes its rows); the load's report
 * folds into its figures. The child side is scenario.ts, serve.ts and load.ts.
 */
import { fileURLToPath } from 'node:url';
import { loadStrategies } from '../../load-strategies';
import type { Lab } from '../../types';
import { HotcodeFigures } from './figures';
import { hotcodeParamsSchema, type HotcodeParams } from '../shared/params';
import { hotcodeSchema } from '../shared/schema';
import type { Strategy } from '../child/strategy';
import { sweepSteps } from '../child/sweep-steps';
import { benchTable } from './bench-table';
import type { HotcodeSummary } from '../shared/schema';
import { LAB_ID } from '../shared/id';
import { estimateMs } from '../shared/form';

const found = await loadStrategies<Strategy>(fileURLToPath(new URL('../child/strategies', import.meta.url)), { roles: hotcodeSchema.roles });

const planned = (p: HotcodeParams) => (p.sweep ? sweepSteps(p.rows).length : p.requests);

export const hotcodeLab: Lab<Strategy> = {
  schema: hotcodeSchema,
  benchTable: (summaries) => benchTable(summaries as readonly HotcodeSummary[]),
  dir: LAB_ID,
  // The run's child forks the load, starts the sweep's step watchdog (a thread) and imports its harness's packages.
  // A sweep's watchdog stops an overlong step through the inspector (step-watchdog.ts).
  userFence: { childProcess: true, worker: true, packages: true, inspector: (p) => (p.sweep === true ? 'sweep' : null) },
  strategies: found.map((f) => f.strategy),
  strategyFiles: new Map(found.map((f) => [f.strategy.id, f.file])),
  childEntries: ['load'],
  runsAlone: 'the hot-code lab times synchronous work: two runs at once would share the cores',

  checkLimits(params) {
    hotcodeParamsSchema.parse(params);
  },

  async prepare(raw) {
    const p = hotcodeParamsSchema.parse(raw);
    return { scenario: { rows: p.rows, requests: p.requests, probeMs: p.probeMs, sweep: p.sweep, timeoutS: p.timeoutS }, total: planned(p) };
  },

  expectedTotal(raw) {
    return planned(hotcodeParamsSchema.parse(raw));
  },

  estimateMs,

  newRecorder(prepared) {
    return new HotcodeFigures(prepared.total ?? 0);
  },
};

/** What the lab registry picks up from this folder (scripts/lab-index.mjs). */
export { hotcodeLab as lab };
