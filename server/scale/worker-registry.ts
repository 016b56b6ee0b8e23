/**
 * Which workers are up, for the web servers: each worker keeps a key with its run slots (its
 * concurrency) and an expiry it renews, so a worker that is killed drops out when the key
 * expires. Web servers read the keys to estimate waits with every slot and to say on the page
 * when no worker is there to take runs at all.
 */
import type { Redis } from 'ioredis';

const PREFIX = 'stream-lab:worker:';
/** How long a worker stays listed without renewing (it renews every third of that). */
export const WORKER_TTL_MS = 30_000;

export interface WorkerPresence {
  id: string;
  host: string;
  /** Runs (BullMQ jobs) it takes at once. */
  slots: number;
}

/** Lists this worker until release() (or until it stops renewing). */
export async function registerWorker(redis: Redis, presence: WorkerPresence): Promise<{ release(): Promise<void> }> {
  const key = PREFIX + presence.id;
  const value = JSON.stringify(presence);
  await redis.set(key, value, 'PX', WORKER_TTL_MS);
  const renew = setInterval(() => void redis.set(key, value, 'PX', WORKER_TTL_MS).catch(() => undefined), WORKER_TTL_MS / 3).unref();
  return {
    async release() {
      clearInterval(renew);
      await redis.del(key).catch(() => 0);
    },
  };
}

/** The workers listed now; keys that don't parse are skipped (not ours to trust). */
export async function readWorkers(redis: Redis): Promise<WorkerPresence[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', `${PREFIX}*`, 'COUNT', 200);
    cursor = next;
    keys.push(...found);
  } while (cursor !== '0' && keys.length < 10_000);
  if (keys.length === 0) return [];
  const values = await redis.mget(...keys);
  return values.flatMap((v) => {
    try {
      const p = JSON.parse(v ?? '') as Partial<WorkerPresence>;
      return typeof p.id === 'string' && typeof p.host === 'string' && Number.isInteger(p.slots) && p.slots! > 0 && p.slots! <= 1024
        ? [p as WorkerPresence]
        : [];
    } catch {
      return [];
    }
  });
}
