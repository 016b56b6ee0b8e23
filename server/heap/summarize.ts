/**
 * From the graph and its dominator tree to what lib/heap/analysis.ts describes: totals, the
 * classes that retain the most, and the largest holders with the path that keeps each alive.
 *
 * Holders: the nodes that retain most are the dominator-tree ancestors of the real culprit (the
 * global, a module's context, the closure that holds it…), each passing one big child on. So a
 * holder is an object no single child of which (in the dominator tree) retains more than half of
 * what it retains; V8's internal pieces (elements arrays, backing stores, maps, code) are folded
 * into the object that owns them, so an Array whose elements hold 30 Buffers is the holder, not
 * its "(object elements)" FixedArray nor one of the Buffers.
 *
 * Paths: shortest chains of strong edges from a root, found by a breadth-first walk that starts at
 * the global objects and only then at the rest of the GC roots (as DevTools orders retainers by
 * distance), so an object reachable from your code shows that route, not a debugger handle.
 *
 * Whose: a holder is the harness's (`harness: true`) when the nearest closure or context on its
 * whole path that names a script, Node's own skipped, is in one of Stream Lab's scripts (the
 * sampler, the lab's scenario…; isHarnessScript). The nearest, because what is closest keeps it:
 * rxjs's buffer is held by rxjs's closures, whatever holds the subscription further up.
 */
import type { HeapClassGroup, HeapFunction, HeapHolder, RetainerStep } from '../../lib/heap/analysis';
import { MAX_FUNCTIONS, MAX_PATH_STEPS } from '../../lib/heap/analysis';
import { type DominatorTree, dominatorTree, type Dominators } from './dominators';
import { classNameOf, edgeName, type HeapGraph, isStrongEdge, nodeName, userRoots } from './heap-graph';
import { isHarnessScript } from '../runner/harness-scripts';

export interface SummaryOptions {
  /** How many classes (default 20). */
  topGroups?: number;
  /** How many holders (default 5). */
  topObjects?: number;
}

export interface Summary {
  totalBytes: number;
  arrayBufferBytes: number;
  groups: HeapClassGroup[];
  largest: HeapHolder[];
}

const BACKING_STORE = 'system / JSArrayBufferData';
const CONTEXT = 'system / Context';
const MAX_NAME = 80;
/** A holder's biggest child retains at most this share of what the holder retains. */
const HOLDER_SHARE = 0.5;

export function summarize(g: HeapGraph, dom: Dominators, opts: SummaryOptions = {}): Summary {
  let totalBytes = 0;
  let arrayBufferBytes = 0;
  const native = g.types.node.native;
  for (let v = 0; v < g.nodeCount; v++) {
    totalBytes += g.selfSize[v];
    if (g.nodeType[v] === native && nodeName(g, v) === BACKING_STORE) arrayBufferBytes += g.selfSize[v];
  }
  const paths = new RetainerPaths(g, dom);
  const tree = dominatorTree(g, dom);
  const largest = findHolders(g, dom, tree, opts.topObjects ?? 5).map((v) => paths.holder(v));
  return { totalBytes, arrayBufferBytes, groups: classGroups(g, dom, tree, opts.topGroups ?? 20), largest };
}

/**
 * Per class: count, self size, and retained size counted as DevTools does — a node adds its
 * retained size unless a dominator-tree ancestor of the same class already did (so a linked list
 * of Nodes is counted once), and only nodes with a size of their own (or natives) count.
 */
function classGroups(g: HeapGraph, dom: Dominators, tree: DominatorTree, top: number): HeapClassGroup[] {
  const n = g.nodeCount;
  const ids = new Map<string, number>();
  const cls = new Uint32Array(n);
  const names: string[] = [];
  for (let v = 0; v < n; v++) {
    const name = classNameOf(g, v);
    let id = ids.get(name);
    if (id === undefined) {
      id = names.length;
      ids.set(name, id);
      names.push(name);
    }
    cls[v] = id;
  }
  const count = new Float64Array(names.length);
  const self = new Float64Array(names.length);
  const retained = new Float64Array(names.length);
  for (let v = 0; v < n; v++) {
    count[cls[v]]++;
    self[cls[v]] += g.selfSize[v];
  }
  const { first, list } = tree;
  const onPath = new Uint32Array(names.length);
  const counted = new Uint8Array(n);
  const native = g.types.node.native;
  const enter = (v: number): void => {
    const c = cls[v];
    if (onPath[c] !== 0 || (g.selfSize[v] === 0 && g.nodeType[v] !== native)) return;
    retained[c] += dom.retained[v];
    onPath[c]++;
    counted[v] = 1;
  };
  // Iterative depth-first walk of the dominator tree; onPath counts the classes entered above.
  const stack = new Uint32Array(n);
  const pos = new Uint32Array(n);
  let depth = 0;
  stack[0] = g.root;
  pos[0] = first[g.root];
  enter(g.root);
  while (depth >= 0) {
    const v = stack[depth];
    if (pos[depth] < first[v + 1]) {
      const child = list[pos[depth]++];
      enter(child);
      depth++;
      stack[depth] = child;
      pos[depth] = first[child];
    } else {
      if (counted[v]) onPath[cls[v]]--;
      depth--;
    }
  }
  const order = names.map((_, i) => i).sort((a, b) => retained[b] - retained[a] || self[b] - self[a]);
  return order.slice(0, top).map((i) => ({ className: names[i], count: count[i], selfBytes: self[i], retainedBytes: retained[i] }));
}

/** V8's own pieces of an object (elements and property arrays, maps, code, backing stores, roots): folded into their owner. */
function isInternal(g: HeapGraph, v: number): boolean {
  const t = g.nodeType[v];
  const k = g.types.node;
  if (t === k.hidden || t === k.array || t === k.code || t === k.synthetic || t === k.objectShape) return true;
  return t === k.native && nodeName(g, v).startsWith('system / ');
}

/**
 * The nodes that hold memory spread over their parts (see the header), largest first, none inside
 * another: once one is chosen, what it dominates is not listed again (its 30 Buffers would
 * otherwise fill the list).
 */
function findHolders(g: HeapGraph, dom: Dominators, tree: DominatorTree, top: number): number[] {
  const n = g.nodeCount;
  // biggestPart[v]: what v's largest part retains, an internal child's own parts standing in for it.
  const biggestPart = new Float64Array(n);
  const internal = new Uint8Array(n);
  for (let v = 0; v < n; v++) internal[v] = isInternal(g, v) ? 1 : 0;
  for (let k = dom.order.length - 1; k >= 1; k--) {
    const v = dom.order[k];
    const part = internal[v] ? biggestPart[v] : dom.retained[v];
    const d = dom.idom[v];
    if (part > biggestPart[d]) biggestPart[d] = part;
  }
  const excluded = new Set([g.root, ...userRoots(g)]);
  const candidates: number[] = [];
  for (const v of dom.order) {
    const r = dom.retained[v];
    if (!internal[v] && !excluded.has(v) && r > 0 && biggestPart[v] <= HOLDER_SHARE * r) candidates.push(v);
  }
  const chosen: number[] = [];
  const inside = (v: number) => chosen.some((c) => tree.enter[c] <= tree.enter[v] && tree.enter[v] <= tree.exit[c]);
  while (chosen.length < top) {
    let best = -1;
    for (const v of candidates) if ((best < 0 || dom.retained[v] > dom.retained[best]) && !inside(v)) best = v;
    if (best < 0) break;
    chosen.push(best);
  }
  return chosen;
}

function clip(s: string): string {
  return s.length > MAX_NAME ? `${s.slice(0, MAX_NAME - 1)}…` : s;
}

/** Shortest strong paths from the roots (globals first), and the steps and functions along them. */
class RetainerPaths {
  private readonly parentEdge: Uint32Array;
  private readonly parentNode: Int32Array;
  private readonly stopAt: Uint8Array;
  private locationRow: Map<number, number> | null = null;
  private scriptNames: Map<number, string> | null = null;

  constructor(
    private readonly g: HeapGraph,
    private readonly dom: Dominators,
  ) {
    const n = g.nodeCount;
    this.parentEdge = new Uint32Array(n);
    this.parentNode = new Int32Array(n).fill(-1);
    this.stopAt = new Uint8Array(n);
    const queue = new Uint32Array(n);
    let head = 0;
    let tail = 0;
    const seen = new Uint8Array(n);
    seen[g.root] = 1;
    const visit = (from: number, e: number): void => {
      const to = g.edgeTo[e];
      if (seen[to] || !isStrongEdge(g, from, e)) return;
      seen[to] = 1;
      this.parentNode[to] = from;
      this.parentEdge[to] = e;
      queue[tail++] = to;
    };
    const bfs = (): void => {
      while (head < tail) {
        const v = queue[head++];
        for (let e = g.firstEdge[v]; e < g.firstEdge[v + 1]; e++) visit(v, e);
      }
    };
    // A path ends at a global or at a GC root category ("(Global handles)", "(Stack roots)"…).
    for (let e = g.firstEdge[g.root]; e < g.firstEdge[g.root + 1]; e++) {
      if (g.edgeType[e] === g.types.edge.shortcut) {
        this.stopAt[g.edgeTo[e]] = 1;
        visit(g.root, e);
      }
    }
    bfs();
    for (let e = g.firstEdge[g.root]; e < g.firstEdge[g.root + 1]; e++) visit(g.root, e);
    bfs();
    for (let v = 0; v < n; v++) if (g.nodeType[v] === g.types.node.synthetic) this.stopAt[v] = 1;
  }

  holder(v: number): HeapHolder {
    const { g } = this;
    const nodes: number[] = [v];
    const edges: number[] = [];
    let cur = v;
    while (!this.stopAt[cur] && this.parentNode[cur] >= 0 && this.parentNode[cur] !== g.root) {
      edges.push(this.parentEdge[cur]);
      cur = this.parentNode[cur];
      nodes.push(cur);
    }
    let steps = nodes.map((node, i) => this.step(node, i < edges.length ? edges[i] : -1));
    const pathOmitted = Math.max(0, steps.length - MAX_PATH_STEPS);
    if (pathOmitted > 0) steps = [...steps.slice(0, MAX_PATH_STEPS - 1), steps[steps.length - 1]];
    return {
      id: g.nodeId[v],
      className: classNameOf(g, v),
      name: clip(nodeName(g, v)),
      selfBytes: g.selfSize[v],
      retainedBytes: this.dom.retained[v],
      path: steps,
      pathOmitted,
      // From the whole path: the steps left out of a long one may be where the sampler holds it.
      ...(isHarnessScript(this.nearestScript(nodes)) && { harness: true }),
    };
  }

  /** The script of the first closure or context on the chain (from the object up) that names one outside Node's own, or ''. */
  private nearestScript(chain: readonly number[]): string {
    const { g } = this;
    for (const v of chain) {
      let scripts: string[] = [];
      if (g.nodeType[v] === g.types.node.closure) scripts = [this.functionOf(v).script];
      else if (classNameOf(g, v) === CONTEXT) scripts = this.closuresOf(v).map((f) => f.script);
      const own = scripts.find((s) => s !== '' && !s.startsWith('node:'));
      if (own) return own;
    }
    return '';
  }

  private step(v: number, edge: number): RetainerStep {
    const { g } = this;
    const className = classNameOf(g, v);
    const step: RetainerStep = {
      edge: edge >= 0 ? edgeName(g, edge) : '',
      edgeType: edge >= 0 ? g.edgeTypeNames[g.edgeType[edge]] : '',
      className,
      name: clip(nodeName(g, v)),
      retainedBytes: this.dom.retained[v],
    };
    if (g.nodeType[v] === g.types.node.closure) step.functions = [this.functionOf(v)];
    else if (className === CONTEXT) {
      const fns = this.closuresOf(v);
      if (fns.length > 0) step.functions = fns.slice(0, MAX_FUNCTIONS);
      if (fns.length > MAX_FUNCTIONS) step.functionCount = fns.length;
    }
    return step;
  }

  /** The closures whose `context` edge points at this context, by script and line, each function once. */
  private closuresOf(context: number): HeapFunction[] {
    const { g } = this;
    const seen = new Set<string>();
    const out: HeapFunction[] = [];
    for (let r = g.firstRetainer[context]; r < g.firstRetainer[context + 1]; r++) {
      const u = g.retainerNode[r];
      const e = g.retainerEdge[r];
      if (g.nodeType[u] !== g.types.node.closure || g.edgeType[e] !== g.types.edge.internal || edgeName(g, e) !== 'context') continue;
      const fn = this.functionOf(u);
      const key = `${fn.name}\0${fn.script}\0${fn.line}\0${fn.column}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(fn);
    }
    out.sort((a, b) => (a.script < b.script ? -1 : a.script > b.script ? 1 : a.line - b.line || a.column - b.column));
    return out;
  }

  /** A closure's name and source position: the snapshot's locations row, the script named via its SharedFunctionInfo. */
  private functionOf(closure: number): HeapFunction {
    const { g } = this;
    const row = this.locations().get(closure);
    const fn: HeapFunction = { name: nodeName(g, closure), script: this.scriptOfClosure(closure), line: 0, column: 0 };
    if (row === undefined) return fn;
    const scriptId = g.locations[row + 1];
    fn.line = g.locations[row + 2] + 1;
    fn.column = g.locations[row + 3] + 1;
    if (!fn.script) fn.script = this.scriptsById().get(scriptId) ?? '';
    return fn;
  }

  private locations(): Map<number, number> {
    if (!this.locationRow) {
      this.locationRow = new Map();
      for (let r = 0; r < this.g.locations.length; r += 4) this.locationRow.set(this.g.locations[r], r);
    }
    return this.locationRow;
  }

  /** closure —shared→ SharedFunctionInfo —script_or_debug_info (or script)→ Script, a code node named by its URL. */
  private scriptOfClosure(closure: number): string {
    const sfi = this.target(closure, 'shared');
    if (sfi < 0) return '';
    let script = this.target(sfi, 'script_or_debug_info');
    if (script < 0) script = this.target(sfi, 'script');
    // With a debugger attached the SharedFunctionInfo points at its DebugInfo, which points at the script.
    if (script >= 0 && nodeName(this.g, script) === 'system / DebugInfo') script = this.target(script, 'script');
    if (script < 0 || this.g.nodeType[script] !== this.g.types.node.code) return '';
    const name = nodeName(this.g, script);
    return name.startsWith('system / ') ? '' : name;
  }

  /** Script id → name, from every located closure whose script resolves (for closures whose own link does not). */
  private scriptsById(): Map<number, string> {
    if (!this.scriptNames) {
      this.scriptNames = new Map();
      const { g } = this;
      for (let r = 0; r < g.locations.length; r += 4) {
        const id = g.locations[r + 1];
        const node = g.locations[r];
        if (this.scriptNames.has(id) || g.nodeType[node] !== g.types.node.closure) continue;
        const name = this.scriptOfClosure(node);
        if (name) this.scriptNames.set(id, name);
      }
    }
    return this.scriptNames;
  }

  /** The target of v's first edge with this name (internal or property), or -1. */
  private target(v: number, name: string): number {
    const { g } = this;
    for (let e = g.firstEdge[v]; e < g.firstEdge[v + 1]; e++) {
      const t = g.edgeType[e];
      if ((t === g.types.edge.internal || t === g.types.edge.property) && g.strings[g.edgeNameOrIndex[e]] === name) return g.edgeTo[e];
    }
    return -1;
  }
}
