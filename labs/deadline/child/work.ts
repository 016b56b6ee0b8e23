/**
 * The CPU work per object: parse the object's JSON, transform its records (score, sort, reshape)
 * and serialize the result, repeated `rounds` times. Real work of the kind a fan-out service does,
 * not a sleep, calibrated so that `rounds` costs the chosen milliseconds on this machine. Child
 * side, no imports: the piscina thread (work-thread.ts) runs the same function.
 */

interface StoredRecord {
  id: number;
  name: string;
  tags: string[];
  price: number;
  stock: number;
}

/** One object as the store serves it: ~4 KB of JSON, the same bytes for the same id. */
export function objectBody(id: number): string {
  const records: StoredRecord[] = [];
  for (let i = 0; i < 32; i++) {
    const n = (id * 31 + i * 17) % 997;
    records.push({
      id: id * 100 + i,
      name: `item-${n}-${(n * 7919).toString(36)}`,
      tags: [`t${n % 13}`, `t${n % 7}`, `t${n % 3}`],
      price: ((n * 13) % 1000) / 10,
      stock: n % 50,
    });
  }
  return JSON.stringify({ id, kind: 'catalog-page', records });
}

/** One round: parse, transform, serialize. Returns a number so the engine cannot drop the work. */
function round(body: string): number {
  const page = JSON.parse(body) as { id: number; records: StoredRecord[] };
  const shaped = page.records
    .map((r) => ({ key: `${page.id}:${r.id}`, label: r.name.toUpperCase(), score: r.price * (r.stock + 1) + r.tags.length, tags: r.tags.join(',') }))
    .sort((a, b) => b.score - a.score);
  return JSON.stringify(shaped).length;
}

/** The work for one object: `rounds` rounds (at least one parse, even at 0 ms of extra work). */
export function work(body: string, rounds: number): number {
  let out = 0;
  for (let i = 0; i < Math.max(1, rounds); i++) out += round(body);
  return out;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** ms per call of `fn`, the median of `batches` batches of `n` (a shared machine's hiccups aside). */
function timePerCall(fn: () => void, n: number, batches: number): number {
  const times: number[] = [];
  for (let b = 0; b < batches; b++) {
    const t = performance.now();
    for (let i = 0; i < n; i++) fn();
    times.push((performance.now() - t) / n);
  }
  return median(times);
}

/** Rounds that take `cpuMs` on this thread, and what one object's work then costs (ms), measured. */
export function calibrate(cpuMs: number): { rounds: number; workMs: number } {
  const body = objectBody(1);
  work(body, 1000); // warm up: the timed rounds run optimised code, as a busy service's would
  const perRound = timePerCall(() => work(body, 1), 100, 7);
  const rounds = cpuMs === 0 ? 0 : Math.max(1, Math.round(cpuMs / perRound));
  return { rounds, workMs: timePerCall(() => work(body, rounds), Math.max(1, Math.round(30 / Math.max(cpuMs, 0.1))), 5) };
}
