/**
 * Workers on one machine must not pin their runs to the same core while another core idles: each
 * worker claims cores of its host in Redis (SET NX with an expiry it keeps renewing), as many as
 * its concurrency, from those it was given. A worker killed without releasing them loses its
 * claims when they expire. When every core given is taken, the worker shares them and says so.
 */
import type { Redis } from 'ioredis';

const CLAIM_MS = 30_000;
const key = (host: string, core: number) => `stream-lab:core:${host}:${core}`;

export interface CoreClaims {
  /** The cores this worker's runs go on. */
  cores: number[];
  /** False when none could be claimed and runs share the cores given with other workers. */
  own: boolean;
  release(): Promise<void>;
}

export async function claimCores(redis: Redis, host: string, workerId: string, given: readonly number[], want: number): Promise<CoreClaims> {
  const mine: number[] = [];
  for (const core of given) {
    if (mine.length >= want) break;
    if ((await redis.set(key(host, core), workerId, 'PX', CLAIM_MS, 'NX')) === 'OK') mine.push(core);
  }
  const renew = setInterval(() => {
    for (const core of mine) redis.set(key(host, core), workerId, 'PX', CLAIM_MS).catch(() => {});
  }, CLAIM_MS / 3).unref();
  return {
    cores: mine.length > 0 ? mine : [...given],
    own: mine.length > 0,
    async release() {
      clearInterval(renew);
      for (const core of mine) if ((await redis.get(key(host, core)).catch(() => null)) === workerId) await redis.del(key(host, core)).catch(() => 0);
    },
  };
}
