import type { Worker } from 'node:cluster';

/**
 * Counts the 'message' listeners a strategy added to its cluster workers. Node's cluster primary
 * adds one of its own to every worker (it re-emits the worker's messages on `cluster`), so a raw
 * count makes a correct pool of two processes read 4 and look leaky beside its 2 processes. Call it
 * right after forking, before adding any: what is there then is Node's and is left out.
 */
export function addedListenerCount(procs: readonly Worker[]): () => number {
  const nodeOwn = procs.map((w) => w.listenerCount('message'));
  return () => procs.reduce((sum, w, i) => sum + w.listenerCount('message') - nodeOwn[i], 0);
}
