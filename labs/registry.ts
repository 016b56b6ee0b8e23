/**
 * The labs, and each lab's strategies as found in its folder. Everything that needs "which labs,
 * which strategies" asks here: the hub, the queue, the runner, the CLI, the history filter.
 */
import type { CodeProblem } from '../lib/protocol';
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

/**
 * A strategy of yours (server/user-strategies/ scans them and hands them here): what its file
 * declares, or why it can't run. It runs like a built-in, from its own bundle, fenced.
 */
export interface UserStrategyEntry {
  lab: string;
  id: string;
  /** The file as shown: strategies/<lab>/<name>.ts, or the path given to --strategy-file. */
  file: string;
  /** The file's source, shown on the page. */
  source: string;
  /** sha256 of its bundle (.build/user/<hash>.mjs); null when it did not compile. */
  bundle: string | null;
  /** Its declared fields (functions left out); null when it did not compile or load. */
  strategy: StrategyBase | null;
  problem: CodeProblem | null;
}

/** The strategies of yours per lab, as last scanned. */
const yours = new Map<string, readonly UserStrategyEntry[]>();

/** Replaces a lab's strategies of yours (the scanner's result). */
export function setUserStrategies(labId: string, entries: readonly UserStrategyEntry[]): void {
  yours.set(labId, entries);
}

/** The strategies of yours of one lab (or of all), in list order. */
export function userStrategyEntries(labId?: string): UserStrategyEntry[] {
  return labId === undefined ? [...yours.values()].flat() : [...(yours.get(labId) ?? [])];
}

/** A strategy of yours by id, usable or not, or undefined. */
export function findUserEntry(labId: string, id: string): UserStrategyEntry | undefined {
  return yours.get(labId)?.find((e) => e.id === id);
}

/** A lab's strategy by id (built-in, or one of yours that compiled and loaded), or undefined. */
export function findStrategy(labId: string, id: string): StrategyBase | undefined {
  const builtIn = findLab(labId)?.strategies.find((s) => s.id === id);
  if (builtIn) return builtIn;
  const entry = findUserEntry(labId, id);
  return entry && !entry.problem ? (entry.strategy ?? undefined) : undefined;
}

/** Is this a strategy of yours (run from its bundle, fenced)? */
export function isUserStrategy(labId: string, id: string): boolean {
  return !findLab(labId)?.strategies.some((s) => s.id === id) && findUserEntry(labId, id) !== undefined;
}

/** Every strategy id of every lab, yours included (the history filter accepts each of them). */
export function allStrategyIds(): string[] {
  return [...LABS.flatMap((l) => l.strategies.map((s) => s.id)), ...userStrategyEntries().map((e) => e.id)];
}

/** Path (from the child build's root, no extension) of the module the child loads for a strategy; "user/<hash>" for one of yours. */
export function strategyModule(labId: string, id: string): string {
  const lab = requireLab(labId);
  const file = lab.strategyFiles.get(id);
  if (file) return `labs/${lab.dir}/child/strategies/${file}`;
  const entry = findUserEntry(labId, id);
  if (entry?.bundle && !entry.problem) return `user/${entry.bundle}`;
  throw new RangeError(`strategies: unknown strategy "${id}" in lab ${labId}; known: ${lab.strategies.map((s) => s.id).join(', ')}`);
}

/** Path (from the child build's root, no extension) of a lab's child-side scenario. */
export function scenarioModule(labId: string): string {
  return `labs/${requireLab(labId).dir}/child/scenario`;
}
