/**
 * Node runtimes as every side names them: a version spec ("22", "22.23", "22.23.3": digits and dots
 * only, so it can never name a path or a command), how versions compare, and what the server says
 * about the runtimes it can run. Client-safe: nothing from `node:`.
 */
import { z } from 'zod';

/** "22", "22.23" or "22.23.3": at most three groups of at most four digits. */
export const NODE_SPEC_PATTERN = /^\d{1,4}(\.\d{1,4}){0,2}$/;
export const NODE_SPEC_RULE = 'node must be a Node version such as 22 or 22.23.3 (digits and dots)';

/** A run's runtime as its params carry it; null (and absent, in records made before runtimes) is the server's own Node. */
export const nodeSpecSchema = z.string({ error: NODE_SPEC_RULE }).regex(NODE_SPEC_PATTERN, { error: NODE_SPEC_RULE }).nullable().default(null);

/** What the server can run: its own Node and each installed one. */
export const runtimeInfoSchema = z.object({
  /** Full version without the "v", e.g. "22.23.3". */
  version: z.string(),
  /** The Node that runs the server (always there; its runs may use the spare child). */
  own: z.boolean(),
});
export type RuntimeInfo = z.infer<typeof runtimeInfoSchema>;

/** The numbers of a version or spec ("v22.23.3" → [22, 23, 3]). */
export function versionParts(version: string): number[] {
  return version.replace(/^v/, '').split('.').map(Number);
}

/** Orders versions oldest first (a shorter spec sorts before the versions it covers). */
export function compareVersions(a: string, b: string): number {
  const pa = versionParts(a);
  const pb = versionParts(b);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? -1) - (pb[i] ?? -1);
    if (d !== 0) return d;
  }
  return 0;
}

/** Does the spec ("22", "22.23") cover the full version ("22.23.3")? */
export function specMatches(spec: string, version: string): boolean {
  const s = versionParts(spec);
  const v = versionParts(version);
  return s.every((n, i) => n === v[i]);
}

/** The newest of `versions` the spec covers, or null. */
export function newestMatching(spec: string, versions: readonly string[]): string | null {
  const hits = versions.filter((v) => specMatches(spec, v)).sort(compareVersions);
  return hits.at(-1) ?? null;
}

/** The major number of a version ("22.23.3" → 22). */
export function majorOf(version: string): number {
  return versionParts(version)[0];
}
