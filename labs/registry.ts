/**
 * The labs, and each lab's strategies as found in its folder. Everything that needs "which labs,
 * which strategies" asks here: the hub, the queue, the runner, the CLI, the history filter.
 */
import type { Lab, StrategyBase } from './types';
import { FOUND_LABS } from './generated/parents';
import { LAB_IDS } from './schemas';

/** Every lab (the folders in labs/, found by scripts/lab-index.mjs), in the lab switch's order. */
export const LABS: readonly Lab[] = LAB_IDS.map((id) => {
  const found = FOUND_LABS.find((f) => f.folder === id);
  const lab = found?.lab as Lab | undefined;
  // A parent half that says another lab's schema or folder would run one lab's code under another's name.
  if (!lab || lab.schema.id !== id || lab.dir !== id) {
    throw new Error(
      `labs/${id}/parent/index.ts: its lab must have schema.id and dir '${id}' (its folder's name); it has ${lab ? `'${lab.schema.id}' and '${lab.dir}'` : 'none'}`,
    );
  }
  return lab;
});

/** The lab with this id, or undefined. */
export function findLab(id: string): Lab | undefined {
  return LABS.find((l) => l.schema.id === id);
}

/** The lab with this id; throws (naming the known ones) for an unknown id. */
export function requireLab(id: string): Lab {
  const lab = findLab(id);
  if (!lab) throw new RangeError(`lab: unknown lab "${id}"; known: ${LABS.map((l) => l.schema.id).join(', ')}`);
  return lab;
}

/** A lab's strategy by id, or undefined. */
export function findStrategy(labId: string, id: string): StrategyBase | undefined {
  return findLab(labId)?.strategies.find((s) => s.id === id);
}

/** Every strategy id of every lab (the history filter accepts each of them). */
export function allStrategyIds(): string[] {
  return LABS.flatMap((l) => l.strategies.map((s) => s.id));
}

/** Path (from the child build's root, no extension) of the module the child loads for a strategy. */
export function strategyModule(labId: string, id: string): string {
  const lab = requireLab(labId);
  const file = lab.strategyFiles.get(id);
  if (!file) throw new RangeError(`strategies: unknown strategy "${id}" in lab ${labId}; known: ${lab.strategies.map((s) => s.id).join(', ')}`);
  return `labs/${lab.dir}/child/strategies/${file}`;
}

/** Path (from the child build's root, no extension) of a lab's child-side scenario. */
export function scenarioModule(labId: string): string {
  return `labs/${requireLab(labId).dir}/child/scenario`;
}
