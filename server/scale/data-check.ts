/**
 * A worker's data file must hold the same bytes as every other worker's, or their runs are not
 * comparable. Each worker makes missing files from the generator (server/data/, by size and seed),
 * then hashes the file it will read once per process; the first worker to make a file records its
 * sha256 in Redis, and every other worker's must match it, and its own manifest.
 */
import { createHash } from 'node:crypto';
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { Redis } from 'ioredis';
import type { Prepared } from '../../labs/types';
import { KEYS } from './redis-config';

const checked = new Map<string, string>();

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

/** Throws (naming both hashes) when the run's data file differs from its manifest or from the room's. */
export async function checkDataFile(redis: Redis, prepared: Prepared, seed: number): Promise<void> {
  const path = prepared.scenario.filePath;
  if (typeof path !== 'string') return; // labs without a data file
  const stat = statSync(path);
  const key = `${path}:${stat.size}:${stat.mtimeMs}`;
  if (!checked.has(key)) {
    const manifest = JSON.parse(readFileSync(path.replace(/\.csv$/, '.json'), 'utf8')) as { sha256?: string };
    const actual = await sha256Of(path);
    if (manifest.sha256 !== actual)
      throw new Error(`data file ${path} does not match its manifest (sha256 ${actual.slice(0, 12)}…, manifest ${String(manifest.sha256).slice(0, 12)}…)`);
    checked.set(key, actual);
  }
  const mine = checked.get(key)!;
  const field = `${stat.size}:${seed}`;
  await redis.hsetnx(KEYS.dataSha, field, mine);
  const room = await redis.hget(KEYS.dataSha, field);
  if (room !== mine)
    throw new Error(
      `data file of ${stat.size} bytes (seed ${seed}) differs from the other workers' (sha256 ${mine.slice(0, 12)}… here, ${String(room).slice(0, 12)}… recorded)`,
    );
}
