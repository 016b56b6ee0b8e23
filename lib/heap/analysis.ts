/**
 * What a V8 heap snapshot says about "what holds the memory" (server/heap/snapshot-analysis.ts
 * makes it): the classes that retain the most, and for the few largest holders the chain of
 * retainers from the object up to a GC root, with the functions (and their source lines) of each
 * closure context on the way. A few KB of JSON, so it can be stored beside a run and sent to the
 * page. Client-safe: nothing from `node:`.
 *
 * Sizes are bytes. "Retained" is the size the object keeps alive: its own size plus everything it
 * dominates (every path from a GC root to those objects passes through it), with weak edges not
 * retaining, as Chrome DevTools' "Retained Size" column counts it.
 */
import { z } from 'zod';
import { formatMb } from '../readouts/format';

/** A function whose closure appears on a path: its name and where it is defined. */
export const heapFunctionSchema = z.object({
  /** '' for an anonymous function. */
  name: z.string(),
  /** The script as V8 names it: an absolute path for CommonJS, a file: URL for ES modules, 'node:…' for Node's own. '' when unknown. */
  script: z.string(),
  /** 1-based (V8 gives 0-based; converted); 0 when the snapshot has no location for it. */
  line: z.number(),
  /** 1-based; 0 when unknown. */
  column: z.number(),
});
export type HeapFunction = z.infer<typeof heapFunctionSchema>;

/**
 * One object on a retainer path. path[0] is the object itself, each later step retains the one
 * before it, and the last is where the chain starts: a `global` object or a GC root category such
 * as "(Global handles)" or "(Stack roots)".
 */
export const retainerStepSchema = z.object({
  /**
   * How the NEXT step (this object's retainer) refers to it: a property or variable name, "[3]"
   * for an element, or an internal name ("context", "elements", "backing_store"…). '' on the last step.
   */
  edge: z.string(),
  /** V8's edge type of that reference: property, element, context (a closure variable), internal, hidden, shortcut. */
  edgeType: z.string(),
  /** Constructor name for objects ("Array", "OperatorSubscriber", "system / Context"), "(closure)", "(string)"… as DevTools groups them. */
  className: z.string(),
  /** The object's name in the snapshot: the function name of a closure, the text of a string (cut to 80 characters), else the class name. */
  name: z.string(),
  retainedBytes: z.number(),
  /**
   * For a closure Context ("system / Context"): the closures that hold it, so their shared
   * variables are what the context keeps alive (the first MAX_FUNCTIONS by script and line). For
   * a closure: itself.
   */
  functions: z.array(heapFunctionSchema).optional(),
  /** For a context held by more closures than `functions` lists: how many there are. */
  functionCount: z.number().optional(),
});
export type RetainerStep = z.infer<typeof retainerStepSchema>;

/** Objects of one class, as DevTools' Summary view groups them. */
export const heapClassGroupSchema = z.object({
  className: z.string(),
  count: z.number(),
  /** Sum of the objects' own sizes. */
  selfBytes: z.number(),
  /** What the class's objects retain together, an object retained by another of the same class counted once. */
  retainedBytes: z.number(),
});
export type HeapClassGroup = z.infer<typeof heapClassGroupSchema>;

/**
 * One of the largest holders: an object whose retained memory is spread over what it holds (no
 * single part holds more than half of it), rather than an owner that passes one big thing on. So a
 * Context whose `buffer` variable is a 30 MB Array is not listed, the Array is; V8's internal
 * arrays and backing stores count as part of the object that owns them. GC roots, `global`
 * objects and V8's internal (system) objects are never listed, and nothing inside a listed holder
 * is listed again (the Array's 30 Buffers would fill the list).
 */
export const heapHolderSchema = z.object({
  /** The snapshot's node id (DevTools shows it as @id). */
  id: z.number(),
  className: z.string(),
  name: z.string(),
  selfBytes: z.number(),
  retainedBytes: z.number(),
  /** From the object (path[0]) up to a root; at most MAX_PATH_STEPS steps (the object alone when only weak references reach it). */
  path: z.array(retainerStepSchema),
  /** Steps left out of the middle of a longer path (0 when the path is whole). */
  pathOmitted: z.number(),
  /**
   * Stream Lab's own code keeps it (the sampler, the lab's scenario and consumers), not the
   * strategy: the nearest closure on its whole path is theirs. Absent otherwise, and in analyses
   * made before it was told.
   */
  harness: z.boolean().optional(),
});
export type HeapHolder = z.infer<typeof heapHolderSchema>;

/** The most classes or holders a result lists. */
export const MAX_LISTED = 50;

export const snapshotAnalysisSchema = z.object({
  nodeCount: z.number(),
  edgeCount: z.number(),
  /** Size of the .heapsnapshot file. */
  fileBytes: z.number(),
  /** Sum of every node's self size: the JS heap the snapshot saw plus the native sizes V8 reports (backing stores). */
  totalBytes: z.number(),
  /**
   * ArrayBuffer backing stores: the self sizes of the native nodes V8 names "system / JSArrayBufferData"
   * (one per ArrayBuffer with memory, each Buffer's or typed array's included; its self size is the
   * byte length). Close to process.memoryUsage().arrayBuffers at the snapshot's moment.
   */
  arrayBufferBytes: z.number(),
  /** The classes that retain the most, largest first (20 unless asked). */
  groups: z.array(heapClassGroupSchema).max(MAX_LISTED),
  /** The largest holders, largest first (at most 5 unless asked). */
  largest: z.array(heapHolderSchema).max(MAX_LISTED),
  /** Reading and parsing the file (ms, in the analysing thread). */
  parseMs: z.number(),
  /** Building the graph, its dominator tree and this summary (ms). */
  analysisMs: z.number(),
});
export type SnapshotAnalysis = z.infer<typeof snapshotAnalysisSchema>;

/** Steps a path keeps; a longer one keeps its start and its root, and says how many it left out. */
export const MAX_PATH_STEPS = 12;
/** Closures listed for a context step. */
export const MAX_FUNCTIONS = 5;

/**
 * A script name as a person reads it: the part from the last node_modules/ on
 * ("node_modules/rxjs/dist/cjs/internal/operators/mergeInternals.js"), Node's own as is
 * ("node:internal/timers"), else the last two path segments.
 */
export function shortScriptName(script: string): string {
  let s = script;
  if (s.startsWith('file://')) {
    try {
      s = decodeURIComponent(s.slice('file://'.length));
    } catch {
      s = s.slice('file://'.length);
    }
  }
  const nm = s.lastIndexOf('node_modules/');
  if (nm >= 0) return s.slice(nm);
  if (/^[a-z]+:/.test(s)) return s;
  const parts = s.split(/[\\/]/).filter(Boolean);
  return parts.length > 2 ? parts.slice(-2).join('/') : s;
}

const CONTEXT_CLASS = 'system / Context';
const MAX_NAMES = 4;

function contextLabel(step: RetainerStep): string {
  const fns = step.functions ?? [];
  if (fns.length === 0) return 'context';
  const names = [...new Set(fns.map((f) => f.name || '(anonymous)'))];
  const total = Math.max(names.length, (step.functionCount ?? 0) - (fns.length - names.length));
  const shown = total > MAX_NAMES ? [...names.slice(0, MAX_NAMES), `+${total - MAX_NAMES}`] : names;
  // The first function by line: for a function's scope that is where its closures begin.
  const first = fns.find((f) => f.script) ?? fns[0];
  const where = first.script ? ` (${shortScriptName(first.script)}:${first.line})` : '';
  return `context of ${shown.join(' / ')}${where}`;
}

/** One step as the one-line path shows it. */
export function stepLabel(step: RetainerStep): string {
  if (step.className === CONTEXT_CLASS) return contextLabel(step);
  if (step.className === '(closure)') return `${step.name || '(anonymous)'}()`;
  // V8's internal kinds say more by name ("(object elements)", "system / PropertyCell") than by group.
  if (step.className.startsWith('(') && step.name && !step.className.includes('string')) return step.name;
  // V8 names a global object "global / <its url>", which is empty in Node.
  return step.className.replace(/ \/ $/, '');
}

/**
 * A closure right after its own context says nothing new (the context's label names it): the
 * one-line form leaves it out, the data keeps it.
 */
function isContextsOwnClosure(prev: RetainerStep | undefined, step: RetainerStep): boolean {
  if (!prev || prev.className !== CONTEXT_CLASS || step.className !== '(closure)') return false;
  return (prev.functions ?? []).some((f) => f.name === step.name);
}

/**
 * The one-line form of a path (path[0] the object):
 * "Array 59.5 MB ← context of outerNext / doInnerSub / checkComplete (node_modules/rxjs/…/mergeInternals.js:12) ← OperatorSubscriber ← …".
 * At most `maxSteps` labels: a longer path shows its start, "…", and its root.
 */
export function formatRetainerPath(path: RetainerStep[], opts: { maxSteps?: number; omitted?: number } = {}): string {
  if (path.length === 0) return '';
  const maxSteps = Math.max(2, opts.maxSteps ?? 8);
  const labels: string[] = [];
  for (let i = 0; i < path.length; i++) {
    if (i > 0 && isContextsOwnClosure(path[i - 1], path[i])) continue;
    labels.push(i === 0 ? `${stepLabel(path[0])} ${formatMb(path[0].retainedBytes)}` : stepLabel(path[i]));
  }
  const last = labels[labels.length - 1];
  if (labels.length > maxSteps) return [...labels.slice(0, maxSteps - 1), '…', last].join(' ← ');
  // The path itself was cut (HeapHolder.pathOmitted): say so where the steps are missing.
  if ((opts.omitted ?? 0) > 0 && labels.length > 1) return [...labels.slice(0, -1), '…', last].join(' ← ');
  return labels.join(' ← ');
}
