/**
 * A process that computes fib(n) for its parent over IPC: `{ id, n }` in, `{ id, value, pid,
 * computeMs }` out. Used once per request (fork-per-request) and long-lived by the cluster pools.
 * Child build entry.
 */
import { fib } from './fib';

process.on('message', (m: { id: number; n: number }) => {
  const t = performance.now();
  const value = fib(m.n);
  process.send!({ id: m.id, value, pid: process.pid, computeMs: performance.now() - t });
});
// Never outlive the primary.
process.on('disconnect', () => process.exit(0));
