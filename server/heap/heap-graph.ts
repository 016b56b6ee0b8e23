/**
 * The snapshot as a graph to walk both ways: each node's first edge (V8 lists a node's edges as the
 * next edge_count rows), each node's retainers (the reverse edges, with the edge that makes them),
 * and the type indices the algorithms test. Names and class names as DevTools shows them.
 */
import type { HeapSnapshotData } from './snapshot-reader';

export interface HeapGraph extends HeapSnapshotData {
  /** The synthetic root V8 writes first. */
  root: number;
  /** Edges of node n: firstEdge[n] .. firstEdge[n + 1] - 1. */
  firstEdge: Uint32Array;
  /** Retainers of node n: slots firstRetainer[n] .. firstRetainer[n + 1] - 1 of retainerNode / retainerEdge. */
  firstRetainer: Uint32Array;
  retainerNode: Uint32Array;
  retainerEdge: Uint32Array;
  /** Type indices (-1 when this V8 has no such type). */
  types: {
    edge: { weak: number; shortcut: number; element: number; hidden: number; internal: number; context: number; property: number };
    node: { hidden: number; array: number; code: number; closure: number; native: number; synthetic: number; objectShape: number; object: number };
  };
}

export function buildHeapGraph(d: HeapSnapshotData): HeapGraph {
  const n = d.nodeCount;
  const firstEdge = new Uint32Array(n + 1);
  for (let i = 0, e = 0; i < n; i++) {
    firstEdge[i] = e;
    e += d.nodeEdgeCount[i];
  }
  firstEdge[n] = d.edgeCount;

  // Counting sort of the edges by target: firstRetainer first holds counts, then offsets.
  const firstRetainer = new Uint32Array(n + 1);
  for (let e = 0; e < d.edgeCount; e++) firstRetainer[d.edgeTo[e]]++;
  let slot = 0;
  for (let i = 0; i < n; i++) {
    const count = firstRetainer[i];
    firstRetainer[i] = slot;
    slot += count;
  }
  firstRetainer[n] = slot;
  const fill = firstRetainer.slice(0, n);
  const retainerNode = new Uint32Array(d.edgeCount);
  const retainerEdge = new Uint32Array(d.edgeCount);
  for (let from = 0; from < n; from++) {
    for (let e = firstEdge[from]; e < firstEdge[from + 1]; e++) {
      const s = fill[d.edgeTo[e]]++;
      retainerNode[s] = from;
      retainerEdge[s] = e;
    }
  }
  const et = (name: string) => d.edgeTypeNames.indexOf(name);
  const nt = (name: string) => d.nodeTypeNames.indexOf(name);
  return {
    ...d,
    root: 0,
    firstEdge,
    firstRetainer,
    retainerNode,
    retainerEdge,
    types: {
      edge: {
        weak: et('weak'),
        shortcut: et('shortcut'),
        element: et('element'),
        hidden: et('hidden'),
        internal: et('internal'),
        context: et('context'),
        property: et('property'),
      },
      node: {
        hidden: nt('hidden'),
        array: nt('array'),
        code: nt('code'),
        closure: nt('closure'),
        native: nt('native'),
        synthetic: nt('synthetic'),
        objectShape: nt('object shape'),
        object: nt('object'),
      },
    },
  };
}

export function nodeName(g: HeapGraph, node: number): string {
  return g.strings[g.nodeName[node]];
}

/** An edge's name as DevTools writes it: the property or variable name, "[i]" for an element, the index for a hidden edge. */
export function edgeName(g: HeapGraph, edge: number): string {
  const t = g.edgeType[edge];
  const v = g.edgeNameOrIndex[edge];
  if (t === g.types.edge.element) return `[${v}]`;
  if (t === g.types.edge.hidden) return String(v);
  return g.strings[v];
}

/**
 * The class a node is grouped under, as DevTools' Summary and @vscode/v8-heap-parser name it:
 * objects and natives by their name (the constructor's), other kinds by "(kind)" — "(closure)",
 * "(string)", "(compiled code)", "(system)" for hidden nodes.
 */
export function classNameOf(g: HeapGraph, node: number): string {
  const t = g.nodeType[node];
  const { types } = g;
  if (t === types.node.object || t === types.node.native) return nodeName(g, node);
  if (t === types.node.hidden) return '(system)';
  if (t === types.node.code) return '(compiled code)';
  return `(${g.nodeTypeNames[t]})`;
}

/** The edges that keep their target alive: not weak, and a shortcut only from the root (where it marks a global object). */
export function isStrongEdge(g: HeapGraph, from: number, edge: number): boolean {
  const t = g.edgeType[edge];
  return t !== g.types.edge.weak && (t !== g.types.edge.shortcut || from === g.root);
}

/** The global objects (V8 links them from the root with shortcut edges): the "user roots". */
export function userRoots(g: HeapGraph): number[] {
  const out: number[] = [];
  for (let e = g.firstEdge[g.root]; e < g.firstEdge[g.root + 1]; e++) if (g.edgeType[e] === g.types.edge.shortcut) out.push(g.edgeTo[e]);
  return out;
}
