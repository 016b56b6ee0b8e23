/**
 * Which Node a run's child gets, and whether its strategy can run there: checked by the queue when
 * an experiment asks (nothing starts if not) and again by the runner, which also runs the binary
 * once (--version) before forking it.
 */
import { compareVersions } from '../../lib/runtimes';
import { findStrategy } from '../../labs/registry';
import { resolveRuntime, verifyRuntime, type Runtime } from './store';

/** Why the strategy can't run on that Node version, or null when it can. */
export function refusalOn(strategy: { id: string; minNode?: string }, version: string): string | null {
  if (!strategy.minNode || compareVersions(version, strategy.minNode) >= 0) return null;
  return `node: ${strategy.id} needs Node ${strategy.minNode} or later (it uses APIs Node ${version} lacks)`;
}

/** The runtime every one of the strategies will run on; throws a RangeError naming `node` when any can't. */
export function runtimeForRun(lab: string, strategies: readonly string[], spec: string | null | undefined): Runtime {
  const runtime = resolveRuntime(spec);
  for (const id of strategies) {
    const strategy = findStrategy(lab, id);
    const refusal = strategy && refusalOn(strategy, runtime.version);
    if (refusal) throw new RangeError(refusal);
  }
  return runtime;
}

/** Like runtimeForRun for one strategy, then runs the binary once to be sure it is the Node it claims. */
export async function checkedRuntime(lab: string, strategy: string, spec: string | null | undefined): Promise<Runtime> {
  const runtime = runtimeForRun(lab, [strategy], spec);
  await verifyRuntime(runtime);
  return runtime;
}
