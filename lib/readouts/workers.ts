/**
 * Words for where runs ran (the Redis back end's workers, docs/scale-out.md): a run's worker line,
 * and the warning when one experiment's runs ran on different kinds of machine, whose figures
 * then measure the machines as much as the strategies.
 */
import type { RunState, WorkerInfo } from '../protocol';

/**
 * "ran on vm-a · pinned to core 1 · worker of 2 cores · Node 20.20.2"; without a core the run had
 * all the worker's cores (a lab that runs alone, or no taskset there). Null for the in-process queue's runs.
 */
export function workerText(worker: WorkerInfo | null | undefined): string | null {
  if (!worker) return null;
  const pinned = worker.core === null ? '' : ` · pinned to core ${worker.core}`;
  return `ran on ${worker.host}${pinned} · worker of ${worker.cores} core${worker.cores === 1 ? '' : 's'} · Node ${worker.node}`;
}

/** How a worker's machine shows in comparisons: its host, cores and Node. */
const machineOf = (w: WorkerInfo) => `${w.host} (${w.cores} core${w.cores === 1 ? '' : 's'}, Node ${w.node})`;

/** A warning when the runs ran on more than one kind of machine; null when all on one (or unknown). */
export function mixedMachinesWarning(runs: readonly RunState[]): string | null {
  const machines = [...new Set(runs.flatMap((r) => (r.worker ? [machineOf(r.worker)] : [])))];
  if (machines.length < 2) return null;
  return `These runs ran on different machines: ${machines.join(', ')}. Their figures measure the machines too: compare only runs from the same kind of worker.`;
}
