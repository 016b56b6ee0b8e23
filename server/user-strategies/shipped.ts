/**
 * Strategies of yours on Redis workers: a job carries each one's declared fields and its bundle
 * (the self-contained module compile.ts made, named by its sha256); the worker checks the bundle
 * against its name, keeps it in its own .build/user/ and runs it like the web server would,
 * fenced. A worker reads no strategies folder of its own.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { findLab, findUserEntry, setUserStrategies, userStrategyEntries } from '../../labs/registry';
import type { StrategyBase } from '../../labs/types';
import { keepBundle, USER_BUNDLE_DIR } from './compile';

/** A bundle bigger than this is not sent through Redis (rxjs bundled in is ~0.3 MB). */
export const MAX_SHIPPED_BYTES = 8 * 1024 * 1024;

export const shippedStrategySchema = z.object({
  lab: z.string(),
  id: z.string(),
  file: z.string(),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  code: z.string().max(MAX_SHIPPED_BYTES),
  strategy: z
    .object({
      id: z.string(),
      label: z.string(),
      library: z.string(),
      order: z.number(),
      mode: z.enum(['push', 'pull']).nullable(),
      keepsResults: z.boolean(),
      explanation: z.string(),
    })
    .passthrough(),
});
export type ShippedStrategy = z.infer<typeof shippedStrategySchema>;

/** What a job carries for these strategies of yours; throws a RangeError naming one that can't go. */
export function shipStrategies(lab: string, ids: readonly string[]): ShippedStrategy[] {
  return ids.map((id) => {
    const entry = findUserEntry(lab, id);
    if (!entry?.strategy || !entry.bundle || entry.problem) throw new RangeError(`strategies: ${id} is not a strategy of yours that can run`);
    const code = readFileSync(join(USER_BUNDLE_DIR, `${entry.bundle}.mjs`), 'utf8');
    if (Buffer.byteLength(code) > MAX_SHIPPED_BYTES) {
      throw new RangeError(`strategies: ${id}'s bundle is ${Buffer.byteLength(code)} bytes; at most ${MAX_SHIPPED_BYTES} go to a worker`);
    }
    return { lab, id, file: entry.file, hash: entry.bundle, code, strategy: { ...entry.strategy } as ShippedStrategy['strategy'] };
  });
}

/**
 * Takes a job's strategies of yours in: each bundle is checked against its sha256 (a mismatch
 * throws, naming the strategy: the job then fails and its runs end crashed saying so), kept under
 * .build/user/, and its strategy registered for the runner.
 */
export function receiveStrategies(shipped: readonly ShippedStrategy[], env: Record<string, string | undefined> = process.env): void {
  if (shipped.length && env.STREAM_LAB_WORKER_RUNS_YOURS !== '1') {
    // The hash proves the bundle arrived whole, not who sent it: whoever can write to Redis could send code.
    throw new Error(
      `this worker runs no strategies of yours (${shipped.map((s) => s.id).join(', ')}): start it with STREAM_LAB_WORKER_RUNS_YOURS=1 if everyone who can write to its Redis may run code on it`,
    );
  }
  for (const s of shipped) {
    const refused = findLab(s.lab)?.refusesUserStrategies ?? (findLab(s.lab) ? undefined : `no lab ${s.lab} here`);
    if (refused) throw new Error(`${s.id} can't run here: ${refused}`);
    const actual = createHash('sha256').update(s.code).digest('hex');
    if (actual !== s.hash)
      throw new Error(`the bundle of ${s.id} sent with the job does not match its hash (${actual.slice(0, 12)}… ≠ ${s.hash.slice(0, 12)}…)`);
    keepBundle(s.code);
    const entry = { lab: s.lab, id: s.id, file: s.file, source: '', bundle: s.hash, strategy: s.strategy as unknown as StrategyBase, problem: null };
    setUserStrategies(s.lab, [...userStrategyEntries(s.lab).filter((e) => e.id !== s.id), entry]);
  }
}
