/** The fence of one run of a strategy of yours: which paths its child may read, and the inspector when it is profiled. */
import { dirname, join } from 'node:path';
import type { Prepared } from '../../labs/types';
import { isUserStrategy, requireLab } from '../../labs/registry';
import { USER_BUNDLE_DIR } from './compile';
import { ROOT_DIR } from '../runner/child-build';
import { fenceArgs, fencedInspector, unfencedProfilingAllowed } from './fence';

/** Why a profiled run of a strategy of yours can't go on this runtime, or null (checked at Start). */
export function profilingRefusal(id: string, nodeVersion: string): string | null {
  if (fencedInspector(nodeVersion) || unfencedProfilingAllowed()) return null;
  return (
    `profile: ${id} is a strategy of yours and runs fenced, and Node ${nodeVersion}'s permission model turns the inspector off; ` +
    'profile it on Node 24 or later (the Node field), or the operator may set STREAM_LAB_UNFENCED_PROFILING=1 to profile strategies of yours unfenced'
  );
}

/** Why a profiled run of these strategies (any of them yours) can't go on this runtime, or null: the first refusal. */
export function profilingRefusalFor(labId: string, strategies: readonly string[], nodeVersion: string): string | null {
  return strategies.filter((id) => isUserStrategy(labId, id)).map((id) => profilingRefusal(id, nodeVersion))[0] ?? null;
}

/** Node's flags for the run's child: the fence (none when the operator allowed unfenced profiling and this run needs it). */
export function fenceFor(run: { lab: string; entry: string; strategyModule: string; prepared: Prepared; runtime: string; profile: boolean }): string[] {
  if (run.profile && !fencedInspector(run.runtime) && unfencedProfilingAllowed()) return [];
  // entry is <build>/child/bootstrap.mjs: the whole build (scenario, shared chunks) may be read.
  const build = dirname(dirname(run.entry));
  const bundle = join(USER_BUNDLE_DIR, `${run.strategyModule.replace(/^user\//, '')}.mjs`);
  const needs = requireLab(run.lab).userFence;
  const packages = needs?.packages ? [join(ROOT_DIR, 'node_modules')] : [];
  return fenceArgs(run.runtime, [build, bundle, ...packages, ...(run.prepared.readPaths ?? [])], {
    inspector: run.profile,
    childProcess: needs?.childProcess === true,
  });
}
