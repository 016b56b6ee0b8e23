/**
 * `npm run bench:scale`: 8 experiments from 8 simulated browsers (each its own WebSocket and
 * identity) through the Redis back end, once with one worker and once with two (each
 * --concurrency 1, pinned with taskset to cores 0 and 1), timing from the first Start to the last
 * result and folding each strategy's figures per set-up. It starts its own redis-server on a free
 * loopback port (no persistence files) and stops it, and every process it starts, at the end.
 *
 *   npm run bench:scale -- [--size-mb 32] [--delay-ms 2]     (prints JSON)
 */
import { DEFAULT_STREAMS_PARAMS } from '../../labs/streams/shared/params';
import { ensureDataFile } from '../data/data-files';
import { isMeasured, type RunSummary } from '../../lib/protocol';
import { TestClient } from '../test-client';
import { killAndWait } from '../test-support';
import { flushRedis, startProcess, startRedis, startWebServer, tempDir } from './scale-test-support';

const STRATEGIES = ['rxjs-from', 'pipeline-generator'];
const CLIENTS = 8;

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

/** One set-up: a web server and a worker per given core (sharing one data dir); the 8 browsers start at once. */
async function measure(
  redisUrl: string,
  cores: number[],
  params: Record<string, unknown>,
  dataDir: string,
): Promise<{ lastResultMs: number; summaries: RunSummary[]; byWorker: number[]; secondsEarly: number }> {
  await flushRedis(redisUrl);
  const web = await startWebServer(redisUrl);
  const workers = await Promise.all(
    cores.map((core) =>
      startProcess('server/scale/worker.ts', ['--concurrency', '1'], { STREAM_LAB_REDIS_URL: redisUrl, STREAM_LAB_DATA_DIR: dataDir }, /worker (\S+) ready/, [
        'taskset',
        '-c',
        String(core),
      ]),
    ),
  );
  const clients = await Promise.all(
    Array.from({ length: CLIENTS }, async (_, i) => {
      const c = new TestClient(web.url);
      await c.opened;
      c.send({ type: 'hello', browserId: `bench-browser-${String(i).padStart(8, '0')}`, name: `client ${i + 1}`, operatorToken: null });
      await c.next('hello.ok');
      return c;
    }),
  );
  const t0 = performance.now();
  for (const c of clients) c.send({ type: 'experiment.start', strategies: STRATEGIES, params, parallel: false });
  const created = await Promise.all(clients.map((c, i) => c.next('experiment.created', (m) => m.experiment.owner?.name === `client ${i + 1}`)));
  const runIds = created.flatMap((m) => m.experiment.runIds);
  const ends = await Promise.all(runIds.map((id) => clients[0].next('run.ended', (m) => m.run.id === id)));
  const lastResultMs = performance.now() - t0;
  const byWorker = new Map<string, number>();
  for (const e of ends) byWorker.set(e.run.worker?.id ?? '?', (byWorker.get(e.run.worker?.id ?? '?') ?? 0) + 1);
  for (const c of clients) c.close();
  await Promise.all([web, ...workers].map((p) => killAndWait(p.proc, 'SIGTERM')));
  // Fairness: how many browsers' second runs started before the last browser's first (0: strictly fair).
  const startOf = (id: string) => ends.find((e) => e.run.id === id)!.run.startedAt!;
  const lastFirst = Math.max(...created.map((m) => startOf(m.experiment.runIds[0])));
  const secondsEarly = created.filter((m) => startOf(m.experiment.runIds[1]) < lastFirst).length;
  return { lastResultMs, summaries: ends.map((e) => e.summary), byWorker: [...byWorker.values()], secondsEarly };
}

const mb = (b: number) => (b / 1024 / 1024).toFixed(1);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function fold(summaries: RunSummary[], strategy: string) {
  const mine = summaries.filter((s) => s.strategy === strategy);
  const d = mine.map((s) => s.durationMs);
  // A run with no sample has no peaks to fold (null, not 0).
  const measured = mine.filter(isMeasured);
  const ab = measured.map((s) => s.peak.arrayBuffers);
  const rss = measured.map((s) => s.peak.rss);
  return {
    runs: mine.length,
    outcomes: [...new Set(mine.map((s) => s.outcome))].join(','),
    durationMs: { median: median(d), min: Math.min(...d), max: Math.max(...d) },
    arrayBuffersMb: { median: mb(median(ab)), min: mb(Math.min(...ab)), max: mb(Math.max(...ab)) },
    rssMb: { median: mb(median(rss)), min: mb(Math.min(...rss)), max: mb(Math.max(...rss)) },
  };
}

const params = { ...DEFAULT_STREAMS_PARAMS, sizeMb: flag('--size-mb', 32), delayMs: flag('--delay-ms', 2), timeoutS: 300 };
const redis = await startRedis();
// The data file is made once, before any clock starts; both set-ups' workers read it.
const dataDir = tempDir('bench-data');
process.env.STREAM_LAB_DATA_DIR = dataDir;
await ensureDataFile({ sizeMb: params.sizeMb, seed: params.seed });
try {
  const results = [];
  for (const cores of [[0], [0, 1]]) {
    const r = await measure(redis.url, cores, params, dataDir);
    results.push({
      workers: cores.length,
      lastResultS: +(r.lastResultMs / 1000).toFixed(2),
      runsPerWorker: r.byWorker,
      secondRunsStartedBeforeTheLastFirstRun: r.secondsEarly,
      strategies: Object.fromEntries(STRATEGIES.map((s) => [s, fold(r.summaries, s)])),
    });
  }
  console.log(
    JSON.stringify(
      { params: { sizeMb: params.sizeMb, delayMs: params.delayMs, chunkKb: params.chunkKb }, clients: CLIENTS, node: process.versions.node, results },
      null,
      2,
    ),
  );
} finally {
  await killAndWait(redis.proc, 'SIGTERM');
}
process.exit(0);
