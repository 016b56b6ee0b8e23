/**
 * Retained sizes: the dominator tree of the heap graph (Lengauer–Tarjan, the simple version with
 * path compression: O(E log N), iterative so a million-deep chain cannot overflow the stack), then
 * each node's size added up the tree.
 *
 * Which edges count is Chrome DevTools' rule (HeapSnapshot.ts; @vscode/v8-heap-parser ports it), so
 * the figures are the "Retained Size" a person sees when they open the same file in DevTools:
 *  - weak edges retain nothing; a shortcut edge only from the root (where it marks a global);
 *  - "page objects" (everything reachable from a global through non-weak edges) are retained only
 *    by page objects or the root: a debugger's or a handle scope's reference to one does not make
 *    it a co-owner;
 *  - a node reachable only through weak edges is treated as held by the root alone (DevTools'
 *    second pass), and a node that cannot be reached at all as well (its retained size its own).
 * DevTools finds the dominators with the iterative Cooper–Harvey–Kennedy scheme; this computes the
 * same tree with Lengauer–Tarjan (the tree is unique, whatever the algorithm), checked against
 * @vscode/v8-heap-parser in reference-check.test.ts.
 */
import { type HeapGraph, userRoots } from './heap-graph';

export interface Dominators {
  /** Immediate dominator of each node (the root's is itself). */
  idom: Uint32Array;
  retained: Float64Array;
  /** Nodes in DFS preorder from the root: a node's dominator comes before it, so a reverse walk visits children before parents. */
  order: Uint32Array;
  /** How many nodes the walk reached (the rest are unreachable and hang off the root). */
  reached: number;
  /** 1 for page objects (reachable from a global). */
  pageObject: Uint8Array;
}

/** Everything reachable from the globals through non-weak edges (DevTools' page-owned nodes). */
function markPageObjects(g: HeapGraph): Uint8Array {
  const flags = new Uint8Array(g.nodeCount);
  const stack = new Uint32Array(g.nodeCount);
  let top = 0;
  for (const r of userRoots(g)) {
    if (flags[r]) continue;
    flags[r] = 1;
    stack[top++] = r;
  }
  const weak = g.types.edge.weak;
  while (top > 0) {
    const n = stack[--top];
    for (let e = g.firstEdge[n]; e < g.firstEdge[n + 1]; e++) {
      const to = g.edgeTo[e];
      if (flags[to] || g.edgeType[e] === weak) continue;
      flags[to] = 1;
      stack[top++] = to;
    }
  }
  return flags;
}

export function computeDominators(g: HeapGraph): Dominators {
  const n = g.nodeCount;
  const root = g.root;
  const { weak, shortcut } = g.types.edge;
  const page = markPageObjects(g);
  const edgeType = g.edgeType;

  /** Does edge e from `from` to `to` take part in domination? */
  const counts = (from: number, e: number, to: number): boolean => {
    const t = edgeType[e];
    if (t === weak) return false;
    if (from === root) return true;
    if (t === shortcut) return false;
    return !(page[to] === 1 && page[from] === 0);
  };

  // 1. DFS: preorder numbers 1..count (0 = not reached); vertex[k] is the node numbered k.
  const num = new Uint32Array(n);
  const vertex = new Uint32Array(n + 1);
  const parent = new Uint32Array(n + 1);
  const stackNode = new Uint32Array(n);
  const stackEdge = new Uint32Array(n);
  let count = 0;
  const dfs = (start: number, parentNum: number): void => {
    num[start] = ++count;
    vertex[count] = start;
    parent[count] = parentNum;
    let top = 0;
    stackNode[0] = start;
    stackEdge[0] = g.firstEdge[start];
    while (top >= 0) {
      const v = stackNode[top];
      const e = stackEdge[top];
      if (e === g.firstEdge[v + 1]) {
        top--;
        continue;
      }
      stackEdge[top] = e + 1;
      const w = g.edgeTo[e];
      if (num[w] !== 0 || !counts(v, e, w)) continue;
      num[w] = ++count;
      vertex[count] = w;
      parent[count] = num[v];
      top++;
      stackNode[top] = w;
      stackEdge[top] = g.firstEdge[w];
    }
  };
  dfs(root, 0);
  // DevTools' second pass: what only weak (or non-root shortcut) edges lead to hangs off the root.
  const weakOnly = new Uint8Array(n);
  for (let v = 0; v < n; v++) {
    if (num[v] !== 0 || !onlyWeakRetainers(g, v)) continue;
    weakOnly[v] = 1;
    dfs(v, 1);
  }

  // 2. Semidominators, in reverse preorder, with a forest linked as it goes (ancestor/label).
  const semi = new Uint32Array(count + 1);
  const label = new Uint32Array(count + 1);
  const ancestor = new Uint32Array(count + 1);
  const dom = new Uint32Array(count + 1);
  const bucketHead = new Uint32Array(count + 1);
  const bucketNext = new Uint32Array(count + 1);
  const path = new Uint32Array(count + 1);
  for (let k = 1; k <= count; k++) {
    semi[k] = k;
    label[k] = k;
  }
  const evaluate = (v: number): number => {
    if (ancestor[v] === 0) return v;
    // Compress the ancestor chain: each node's label becomes the lowest-semi node above it.
    let top = 0;
    let x = v;
    while (ancestor[ancestor[x]] !== 0) {
      path[top++] = x;
      x = ancestor[x];
    }
    while (top > 0) {
      const y = path[--top];
      const a = ancestor[y];
      if (semi[label[a]] < semi[label[y]]) label[y] = label[a];
      ancestor[y] = ancestor[a];
    }
    return label[v];
  };
  for (let k = count; k >= 2; k--) {
    const w = vertex[k];
    let s = semi[k];
    if (weakOnly[w]) s = 1;
    else {
      for (let r = g.firstRetainer[w]; r < g.firstRetainer[w + 1]; r++) {
        const u = g.retainerNode[r];
        const ku = num[u];
        if (ku === 0 || !counts(u, g.retainerEdge[r], w)) continue;
        const su = semi[evaluate(ku)];
        if (su < s) s = su;
      }
    }
    semi[k] = s;
    bucketNext[k] = bucketHead[s];
    bucketHead[s] = k;
    const p = parent[k];
    ancestor[k] = p;
    for (let v = bucketHead[p]; v !== 0; v = bucketNext[v]) {
      const u = evaluate(v);
      dom[v] = semi[u] < semi[v] ? u : p;
    }
    bucketHead[p] = 0;
  }
  // 3. Where the semidominator was not the dominator, take the dominator's.
  dom[1] = 1;
  for (let k = 2; k <= count; k++) if (dom[k] !== semi[k]) dom[k] = dom[dom[k]];

  // 4. Retained sizes, children before parents.
  const idom = new Uint32Array(n).fill(root);
  const retained = Float64Array.from(g.selfSize);
  for (let k = count; k >= 2; k--) {
    const v = vertex[k];
    const d = vertex[dom[k]];
    idom[v] = d;
    retained[d] += retained[v];
  }
  for (let v = 0; v < n; v++) if (num[v] === 0 && v !== root) retained[root] += retained[v];
  return { idom, retained, order: vertex.subarray(1, count + 1), reached: count, pageObject: page };
}

/** Every retaining edge is weak or a shortcut (none at all counts too), as DevTools' second pass asks. */
function onlyWeakRetainers(g: HeapGraph, v: number): boolean {
  const { weak, shortcut } = g.types.edge;
  for (let r = g.firstRetainer[v]; r < g.firstRetainer[v + 1]; r++) {
    const t = g.edgeType[g.retainerEdge[r]];
    if (t !== weak && t !== shortcut) return false;
  }
  return true;
}

/** The dominator tree walked: children lists (CSR) and each node's interval in a depth-first numbering (v dominates w iff enter[v] <= enter[w] <= exit[v]). */
export interface DominatorTree {
  first: Uint32Array;
  list: Uint32Array;
  enter: Uint32Array;
  exit: Uint32Array;
}

export function dominatorTree(g: HeapGraph, dom: Dominators): DominatorTree {
  const n = g.nodeCount;
  const first = new Uint32Array(n + 1);
  for (let v = 0; v < n; v++) if (v !== g.root) first[dom.idom[v]]++;
  let at = 0;
  for (let v = 0; v < n; v++) {
    const c = first[v];
    first[v] = at;
    at += c;
  }
  first[n] = at;
  const fill = first.slice(0, n);
  const list = new Uint32Array(at);
  for (let v = 0; v < n; v++) if (v !== g.root) list[fill[dom.idom[v]]++] = v;
  const enter = new Uint32Array(n);
  const exit = new Uint32Array(n);
  const stack = new Uint32Array(n);
  const pos = new Uint32Array(n);
  let clock = 0;
  let depth = 0;
  stack[0] = g.root;
  pos[0] = first[g.root];
  enter[g.root] = clock++;
  while (depth >= 0) {
    const v = stack[depth];
    if (pos[depth] < first[v + 1]) {
      const child = list[pos[depth]++];
      enter[child] = clock++;
      stack[++depth] = child;
      pos[depth] = first[child];
    } else {
      exit[v] = clock - 1;
      depth--;
    }
  }
  return { first, list, enter, exit };
}
