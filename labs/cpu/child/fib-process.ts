/**
 * A process that computes fib(n) for its parent over IPC: `{ id, n }` in, `{ id, value, pid,
 * computeMs }` out. Used once per request (fork-per-request) and long-lived by the cluster pools.
 * It says `{ ready: true }` first: a cluster worker that is an ES module loses the messages sent
 * before its module has loaded, even after 'online' (measured, docs/results.md §9). Child build entry.
 */
import { timedFib } from './fib';

process.on('message', (m: { id: number; n: number }) => {
  process.send!({ id: m.id, pid: process.pid, ...timedFib(m.n) });
});
process.send!({ ready: true });
// Never outlive the primary.
process.on('disconnect', () => process.exit(0));
