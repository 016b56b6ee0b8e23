/** The CPU-bound work every strategy serves: the write-up's recursive Fibonacci. Child-side, no imports. */

/** Exponential on purpose: fib(40) is ~330 million calls. */
export function fib(n: number): number {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

/** The same number in linear time: what the load checks each answer against. */
export function fibFast(n: number): number {
  let [a, b] = [0, 1];
  for (let i = 0; i < n; i++) [a, b] = [b, a + b];
  return a;
}

/** What every strategy answers: the value, and who computed it. */
export interface FibAnswer {
  n: number;
  value: number;
  /** "pid" or "pid/thread". */
  servedBy: string;
  /** Request arrival → the process or thread that computes it is ready (ms; 0 if it was ready). */
  spawnMs: number;
}

/** Parses `/fib?n=40`, or null for any other URL. */
export function fibParam(url: string | undefined): number | null {
  const m = /^\/fib\?n=(\d{1,2})$/.exec(url ?? '');
  return m ? Number(m[1]) : null;
}
