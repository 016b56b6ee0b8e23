/**
 * How a run ended, decided from what the runner saw once the child has closed. Pure, with one
 * exhaustive switch, so every way out of a run has exactly one outcome and nobody waits forever.
 */
import type { Outcome } from '../../lib/protocol';
import type { FigureRecorder } from '../../labs/types';

export type ExitFacts =
  /** The runner decided first (stop, shutdown, budget, watchdog, malformed message). */
  | { kind: 'decided'; outcome: Outcome; reason: string | null }
  /** The child reported its strategy done; the lab judges whether all the work got done. */
  | { kind: 'done'; figures: Pick<FigureRecorder, 'judge'> }
  /** The child went away without reporting done. */
  | {
      kind: 'died';
      code: number | null;
      signal: NodeJS.Signals | null;
      childError: string | null;
      /** The child's error came from the permission model (a fenced strategy): the run was refused, not crashed. */
      childDenied?: boolean;
      stderr: string;
      maxOldSpaceMb: number | null;
    };

export function classifyExit(facts: ExitFacts): { outcome: Outcome; reason: string | null } {
  switch (facts.kind) {
    case 'decided':
      return { outcome: facts.outcome, reason: facts.reason };
    case 'done':
      return facts.figures.judge();
    case 'died': {
      if (/heap out of memory|Reached heap limit/i.test(facts.stderr)) {
        return { outcome: 'out-of-memory', reason: `V8 heap limit reached (--max-old-space-size=${facts.maxOldSpaceMb ?? 'default'})` };
      }
      if (facts.childDenied && facts.childError) return { outcome: 'refused', reason: facts.childError };
      const how = facts.signal ? `killed by ${facts.signal}` : `exited with code ${facts.code}`;
      const line = stderrErrorLine(facts.stderr);
      return { outcome: 'crashed', reason: facts.childError ?? (line ? `${how}: ${line}` : how) };
    }
    default: {
      const never: never = facts;
      throw new Error(`unhandled exit ${JSON.stringify(never)}`);
    }
  }
}

/** The most telling line of a dead child's stderr: the last one that names an error. */
export function stderrErrorLine(stderr: string): string | null {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.filter((l) => /error|fatal|abort/i.test(l)).at(-1) ?? lines.filter((l) => !/^Node\.js v\d/.test(l)).at(-1) ?? null;
}
