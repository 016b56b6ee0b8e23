/** The fence of one run of a strategy of yours: which paths its child may read, and the inspector when the run needs it. */
import { dirname, join } from 'node:path';
import type { Prepared } from '../../labs/types';
import { isUserStrategy, requireLab } from '../../labs/registry';
import { USER_BUNDLE_DIR } from './compile';
import { ROOT_DIR } from '../runner/child-build';
import { fenceArgs, fencedInspector, unfencedProfilingAllowed } from './fence';
import { namespaceSupport } from './namespaces';

/**
 * What in a run's params needs the inspector inside the child: "profile" (a CPU profile),
 * "heapProfile" or "heapSnapshot" (the heap profiler, snapshots), or the
 * lab's own (the hot-code lab's sweep, whose step watchdog stops a step through it); null if nothing.
 */
export function inspectorNeed(labId: string, params: Record<string, unknown>): string | null {
  if (params.profile === true) return 'profile';
  if (params.heapProfile === true) return 'heapProfile';
  if (typeof params.heapSnapshot === 'string') return 'heapSnapshot';
  return requireLab(labId).userFence?.inspector?.(params) ?? null;
}

/** Why this run of a strategy of yours can't go on this runtime (its params need the inspector), or null. */
function inspectorRefusal(id: string, need: string, nodeVersion: string): string | null {
  if (fencedInspector(nodeVersion) || unfencedProfilingAllowed()) return null;
  const what = need === 'profile' ? 'profile it' : `use ${need} with it`;
  return (
    `${need}: ${id} is a strategy of yours and runs fenced, and Node ${nodeVersion}'s permission model turns the inspector off` +
    `${need === 'profile' ? '' : `, which ${need} needs`}; ${what} on Node 24 or later (the Node field), or the operator may set STREAM_LAB_UNFENCED_PROFILING=1 to let strategies of yours use the inspector unfenced`
  );
}

/** Why a run of these strategies (any of them yours) with these params can't go on this runtime, or null: the first refusal (checked at Start). */
export function inspectorRefusalFor(labId: string, strategies: readonly string[], params: Record<string, unknown>, nodeVersion: string): string | null {
  const need = inspectorNeed(labId, params);
  if (need === null) return null;
  return strategies.filter((id) => isUserStrategy(labId, id)).map((id) => inspectorRefusal(id, need, nodeVersion))[0] ?? null;
}

/**
 * Why a run of these strategies can't go with DATABASE_URL set, or null: a strategy of yours runs in
 * a network namespace of its own (namespaces.ts), where a database elsewhere has no route; the
 * lab's embedded cluster (its own server, inside the run) has. Checked at Start.
 */
export function databaseRefusalFor(labId: string, strategies: readonly string[], env: Record<string, string | undefined> = process.env): string | null {
  if (!env.DATABASE_URL || !requireLab(labId).userFence?.env?.includes('DATABASE_URL') || !namespaceSupport(env).ok) return null;
  const yours = strategies.find((id) => isUserStrategy(labId, id));
  if (yours === undefined) return null;
  return `strategies: ${yours} is a strategy of yours and runs in a network namespace of its own, where the server at DATABASE_URL is out of reach: unset DATABASE_URL to run it on the embedded PostgreSQL (its run's own), or run only built-ins against DATABASE_URL`;
}

/** The project's node_modules, for a lab whose harness imports packages (Lab.userFence.packages): its bundles import theirs from there too. */
export function packageReads(labId: string): string[] {
  return requireLab(labId).userFence?.packages ? [join(ROOT_DIR, 'node_modules')] : [];
}

/** Node's flags for the run's child: the fence (none when the operator allowed the inspector unfenced and this run needs it). */
export function fenceFor(run: {
  lab: string;
  entry: string;
  strategyModule: string;
  prepared: Prepared;
  runtime: string;
  params: Record<string, unknown>;
}): string[] {
  const inspector = inspectorNeed(run.lab, run.params) !== null;
  if (inspector && !fencedInspector(run.runtime) && unfencedProfilingAllowed()) return [];
  // entry is <build>/child/bootstrap.mjs: the whole build (scenario, shared chunks) may be read.
  const build = dirname(dirname(run.entry));
  const bundle = join(USER_BUNDLE_DIR, `${run.strategyModule.replace(/^user\//, '')}.mjs`);
  const needs = requireLab(run.lab).userFence;
  const childProcess = typeof needs?.childProcess === 'function' ? needs.childProcess(run.params) : needs?.childProcess === true;
  return fenceArgs(run.runtime, [build, bundle, ...packageReads(run.lab), ...(run.prepared.readPaths ?? [])], {
    inspector,
    childProcess,
    worker: needs?.worker === true,
  });
}
