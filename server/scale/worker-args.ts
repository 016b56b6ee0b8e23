/** `npm run worker` flags: --concurrency N (1–64, default 1), --redis-url URL (default STREAM_LAB_REDIS_URL). */
import { UsageError } from '../cli/args';
import { readRedisUrl } from './redis-config';

export const CONCURRENCY = { min: 1, max: 64, default: 1 } as const;

export interface WorkerArgs {
  concurrency: number;
  redisUrl: string;
}

export const WORKER_USAGE = `usage: npm run worker -- [--concurrency N] [--redis-url redis://host:port]
  --concurrency N   runs at once, one per core given (${CONCURRENCY.min}–${CONCURRENCY.max}, default ${CONCURRENCY.default})
  --redis-url URL   the Redis the web servers use (default: STREAM_LAB_REDIS_URL)
Start it as \`taskset -c 1 npm run worker\` to give it core 1 only.`;

/** Parses the flags; a bad one throws a UsageError naming it and its allowed values. */
export function parseWorkerArgs(argv: string[], env: Record<string, string | undefined> = process.env): WorkerArgs {
  let concurrency: number = CONCURRENCY.default;
  let url: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].includes('=') ? argv[i].split(/=(.*)/s, 2) : [argv[i], undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined || v.startsWith('--')) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    if (flag === '--concurrency') {
      const raw = value();
      concurrency = Number(raw);
      if (!Number.isInteger(concurrency) || concurrency < CONCURRENCY.min || concurrency > CONCURRENCY.max) {
        throw new UsageError(`--concurrency must be a whole number between ${CONCURRENCY.min} and ${CONCURRENCY.max} (got "${raw}")`);
      }
    } else if (flag === '--redis-url') url = value();
    else throw new UsageError(`unknown flag ${flag}\n${WORKER_USAGE}`);
  }
  let redisUrl: string | null;
  try {
    redisUrl = readRedisUrl({ STREAM_LAB_REDIS_URL: url ?? env.STREAM_LAB_REDIS_URL });
  } catch (err) {
    throw new UsageError(url === undefined ? (err as Error).message : (err as Error).message.replace('STREAM_LAB_REDIS_URL', '--redis-url'));
  }
  if (!redisUrl) throw new UsageError(`--redis-url or STREAM_LAB_REDIS_URL is needed: the Redis the web servers use\n${WORKER_USAGE}`);
  return { concurrency, redisUrl };
}
