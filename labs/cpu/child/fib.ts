/** The CPU-bound work every strategy serves: the write-up's recursive Fibonacci. Child-side, no imports. */

/** Exponential on purpose: fib(40) is ~330 million calls. */
export function fib(n: number): number {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

/** fib(n) and how long it took where it ran (wall time: more than the CPU time when cores are shared). */
export function timedFib(n: number): { value: number; computeMs: number } {
  const t = performance.now();
  const value = fib(n);
  return { value, computeMs: performance.now() - t };
}

/** The same number in linear time: what the load checks each answer against. */
export function fibFast(n: number): number {
  let [a, b] = [0, 1];
  for (let i = 0; i < n; i++) [a, b] = [b, a + b];
  return a;
}

/** What every strategy answers: the value, and who computed it. */
export interface FibAnswer {
  /** The id of the request whose computation this is (the load checks it is its own). */
  id: number;
  n: number;
  value: number;
  /** "pid" or "pid/thread". */
  servedBy: string;
  /** Request arrival → the process or thread that computes it is ready (ms; 0 if it was ready). */
  spawnMs: number;
  /** How long the computation took where it ran. */
  computeMs: number;
}

/** A request for fib(n): `/fib?n=40&id=7` (the id lets the load tell whose answer it got). */
export interface FibRequest {
  n: number;
  id: number;
}

/** Parses `/fib?n=40&id=7`, or null for any other URL. */
export function fibParam(url: string | undefined): FibRequest | null {
  const m = /^\/fib\?n=(\d{1,2})&id=(\d{1,9})$/.exec(url ?? '');
  return m ? { n: Number(m[1]), id: Number(m[2]) } : null;
}
