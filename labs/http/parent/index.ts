/**
 * The HTTP lab, parent side: before a run, the `author` table of the chosen size is made (or
 * found) in the embedded cluster or DATABASE_URL, with progress in rows; the run's samples and the
 * load's final report fold into its figures. The child side is scenario.ts (+ load.ts).
 */
import { fileURLToPath } from 'node:url';
import { loadStrategies } from '../../load-strategies';
import type { Lab } from '../../types';
import { ensureTable } from '../child/database';
import { dbReadPaths } from '../../../server/db/ready';
import { HttpFigures } from './figures';
import { httpParamsSchema } from '../shared/params';
import { httpSchema } from '../shared/schema';
import type { Strategy } from '../child/strategy';
import { benchTable } from './bench-table';
import type { HttpSummary } from '../shared/schema';
import { LAB_ID } from '../shared/id';
import { estimateMs } from '../shared/form';

const found = await loadStrategies<Strategy>(fileURLToPath(new URL('../child/strategies', import.meta.url)), { roles: httpSchema.roles });

export const httpLab: Lab<Strategy> = {
  schema: httpSchema,
  benchTable: (summaries, strategies) => benchTable(summaries as readonly HttpSummary[], strategies),
  dir: LAB_ID,
  // The run's child starts PostgreSQL and the load (its harness), imports pg, and connects with
  // DATABASE_URL when one is set.
  userFence: { childProcess: true, env: ['DATABASE_URL'], packages: true },
  declaredFields: ['format'],
  checkUserStrategy(_s, fields) {
    if (fields.format !== 'ndjson' && fields.format !== 'json-array')
      return `strategy.format must be 'ndjson' (one JSON object per line) or 'json-array' (one JSON array): the load checks every body in it; got ${JSON.stringify(fields.format)}`;
    return null;
  },
  strategies: found.map((f) => f.strategy),
  strategyFiles: new Map(found.map((f) => [f.strategy.id, f.file])),
  childEntries: ['load'],
  runsAlone: 'the HTTP lab runs one strategy at a time: each run starts its own database and load on the same two cores',

  checkLimits(params) {
    httpParamsSchema.parse(params);
  },

  async prepare(raw, report) {
    const params = httpParamsSchema.parse(raw);
    const status = (writtenBytes: number, state: 'generating' | 'ready' | 'failed', message: string | null = null) =>
      report({ lab: LAB_ID, unit: 'rows', sizeBytes: params.rows, writtenBytes, state, message });
    try {
      const { source, info } = await ensureTable(params.rows, (done) => status(done, 'generating'));
      status(info.rows, 'ready');
      return {
        scenario: {
          db: source,
          table: info.table,
          expected: { rows: info.rows, idSum: info.idSum, yearSum: info.yearSum },
          batchRows: params.batchRows,
          cursorRows: params.cursorRows,
          concurrency: params.concurrency,
          requests: params.requests,
          slowClients: params.slowClients,
          slowKbps: params.slowKbps,
          timeoutS: params.timeoutS,
        },
        total: params.requests + params.slowClients,
        // A fenced child (a strategy of yours) reads the embedded cluster's password and its
        // lock file (postgres itself runs outside the fence, as its own process).
        readPaths: dbReadPaths(source),
      };
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      status(0, 'failed', message);
      throw new Error(`could not make the ${params.rows}-row table: ${message}`);
    }
  },

  expectedTotal(raw) {
    const p = httpParamsSchema.parse(raw);
    return p.requests + p.slowClients;
  },

  estimateMs,

  newRecorder(prepared) {
    const expected = (prepared.scenario.expected as { rows: number } | undefined)?.rows ?? 0;
    return new HttpFigures(expected, prepared.total ?? 0);
  },
};

/** What the lab registry picks up from this folder (scripts/lab-index.mjs). */
export { httpLab as lab };
