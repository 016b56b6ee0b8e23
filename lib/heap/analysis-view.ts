/**
 * What the pages read of a heap snapshot's analysis (a summary's `heapSnapshots[].analysis`): the
 * classes that retain the most and the largest holders with their retainer paths. The stored value
 * is checked against this shape, so a record from before the analyzer (or a different one) reads as
 * "no analysis" instead of breaking the page. Client-safe, pure.
 *
 * MERGE: the analyzer's own schema (lib/heap/analysis.ts) replaces the local one here.
 */
import { z } from 'zod';

const heapFunctionSchema = z.object({ name: z.string(), script: z.string(), line: z.number(), column: z.number() });

const retainerStepSchema = z.object({
  /** How the next step refers to this one (a property or variable name, "[3]", "context"…). */
  edge: z.string(),
  edgeType: z.string(),
  className: z.string(),
  name: z.string(),
  retainedBytes: z.number(),
  /** For a closure Context: the closures sharing it. */
  functions: z.array(heapFunctionSchema).optional(),
});
export type RetainerStep = z.infer<typeof retainerStepSchema>;
export type HeapFunction = z.infer<typeof heapFunctionSchema>;

const snapshotAnalysisSchema = z.object({
  nodeCount: z.number(),
  totalBytes: z.number(),
  arrayBufferBytes: z.number(),
  parseMs: z.number(),
  groups: z.array(z.object({ className: z.string(), count: z.number(), selfBytes: z.number(), retainedBytes: z.number() })),
  largest: z.array(
    z.object({
      id: z.number(),
      className: z.string(),
      name: z.string(),
      selfBytes: z.number(),
      retainedBytes: z.number(),
      /** path[0] is the object; each later step retains the one before it; the last is a root. */
      path: z.array(retainerStepSchema),
    }),
  ),
});
export type SnapshotAnalysis = z.infer<typeof snapshotAnalysisSchema>;

/** The analysis as the page reads it, or null when there is none or it has another shape. */
export function readAnalysis(value: unknown): SnapshotAnalysis | null {
  const parsed = snapshotAnalysisSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/**
 * A script or URL as a person reads it: the part after the last node_modules/
 * ("rxjs/dist/cjs/internal/operators/mergeInternals.js"), Node's own as is ("node:internal/timers"),
 * else its last two path parts.
 */
export function shortScriptName(script: string): string {
  let s = script.startsWith('file://') ? script.slice('file://'.length) : script;
  try {
    s = decodeURIComponent(s);
  } catch {
    // Not URL-encoded after all: shown as it is.
  }
  const nm = s.lastIndexOf('node_modules/');
  if (nm >= 0) return s.slice(nm + 'node_modules/'.length);
  if (/^[a-z]+:/.test(s)) return s;
  const parts = s.split(/[\\/]/).filter(Boolean);
  return parts.length > 2 ? parts.slice(-2).join('/') : parts.join('/');
}

/** "file.js:12", or the file alone when V8 gave no line; null for a function without a script. */
export function whereText(script: string, line: number): string | null {
  if (!script) return null;
  return line > 0 ? `${shortScriptName(script)}:${line}` : shortScriptName(script);
}

const CONTEXT_CLASS = 'system / Context';

/** One step of a path as a person reads it: what it is, and for a closure Context the functions sharing it, by script. */
export interface StepView {
  text: string;
  /** A Context's closures, grouped by the script they are in ("outerNext / doInnerSub", "rxjs/…/mergeInternals.js:12"). */
  functions: Array<{ names: string; where: string | null }>;
}

/** A closure Context's functions grouped by script, in their order; the first function of each group gives the line. */
function functionGroups(fns: readonly HeapFunction[]): StepView['functions'] {
  const groups = new Map<string, HeapFunction[]>();
  for (const f of fns) groups.set(f.script, [...(groups.get(f.script) ?? []), f]);
  return [...groups.values()].map((g) => ({
    names: [...new Set(g.map((f) => f.name || '(anonymous)'))].join(' / '),
    where: whereText(g[0].script, g[0].line),
  }));
}

/** How a step reads on the path: "context of …" for a closure Context, "name()" for a closure, else its class. */
export function stepView(step: RetainerStep): StepView {
  if (step.className === CONTEXT_CLASS) {
    const functions = functionGroups(step.functions ?? []);
    return { text: functions.length > 0 ? 'context of' : 'context', functions };
  }
  if (step.className === '(closure)') return { text: `${step.name || '(anonymous)'}()`, functions: [] };
  // V8's internal kinds say more by name ("(object elements)", "system / PropertyCell") than by group.
  if (step.className.startsWith('(') && step.name && !step.className.includes('string')) return { text: step.name, functions: [] };
  return { text: step.className, functions: [] };
}
