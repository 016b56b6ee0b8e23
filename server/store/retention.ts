/**
 * Which ended runs to delete so the store keeps its limits: the oldest first, until both the run
 * count and the byte budget hold, sparing runs younger than the minimum age (so a flood of short
 * runs can pass the limits for a while, but never flush the history). Pure.
 */
export interface RetentionCandidate {
  id: string;
  final: boolean;
  /** When it ended (or was queued, for a record without an end). */
  endedAt: number;
  diskBytes: number;
}

export interface RetentionLimits {
  keepRuns: number;
  keepBytes: number;
}

/** Ids to delete, oldest first. `youngestAllowed`: runs that ended after this are spared. */
export function chooseForDeletion(entries: readonly RetentionCandidate[], limits: RetentionLimits, youngestAllowed: number): string[] {
  let runs = entries.length;
  let bytes = entries.reduce((n, e) => n + e.diskBytes, 0);
  const doomed: string[] = [];
  const oldestFirst = entries.filter((e) => e.final && e.endedAt <= youngestAllowed).sort((a, b) => a.endedAt - b.endedAt);
  for (const e of oldestFirst) {
    if (runs <= limits.keepRuns && bytes <= limits.keepBytes) break;
    doomed.push(e.id);
    runs -= 1;
    bytes -= e.diskBytes;
  }
  return doomed;
}
