/**
 * Small hand-made heap snapshots in V8's format, for the reader's and the dominator tree's tests:
 * the graphs whose answers are known by reasoning (a diamond, a cycle, a weak edge…).
 */
import { buildHeapGraph, type HeapGraph } from './heap-graph';
import { SnapshotReader } from './snapshot-reader';

export interface TestNode {
  name: string;
  type?: 'synthetic' | 'object' | 'closure' | 'array' | 'hidden' | 'native' | 'string' | 'code';
  self?: number;
  /** [edge type, edge name (or index for element edges), target node name]. */
  edges?: Array<[string, string | number, string]>;
}

const NODE_TYPES = [
  'hidden',
  'array',
  'string',
  'object',
  'code',
  'closure',
  'regexp',
  'number',
  'native',
  'synthetic',
  'concatenated string',
  'sliced string',
  'symbol',
  'bigint',
  'object shape',
];
const EDGE_TYPES = ['context', 'element', 'property', 'internal', 'hidden', 'shortcut', 'weak'];
const NODE_FIELDS = ['type', 'name', 'id', 'self_size', 'edge_count', 'trace_node_id', 'detachedness'];

/**
 * The snapshot's JSON text. Node 0 is the synthetic root (name ''), as V8 writes it; names must be
 * unique (edges name their targets by them). `locations` rows: [node name, script id, line, column].
 */
export function snapshotJson(nodes: TestNode[], locations: Array<[string, number, number, number]> = []): string {
  const strings: string[] = [];
  const ids = new Map<string, number>();
  const str = (s: string) => {
    let i = ids.get(s);
    if (i === undefined) {
      i = strings.push(s) - 1;
      ids.set(s, i);
    }
    return i;
  };
  const index = new Map(nodes.map((n, i) => [n.name, i]));
  const width = NODE_FIELDS.length;
  const nodeRows: number[] = [];
  const edgeRows: number[] = [];
  nodes.forEach((n, i) => {
    const edges = n.edges ?? [];
    nodeRows.push(NODE_TYPES.indexOf(n.type ?? 'object'), str(n.name), i * 2 + 1, n.self ?? 0, edges.length, 0, 0);
    for (const [type, name, to] of edges) {
      const target = index.get(to);
      if (target === undefined) throw new Error(`no node ${to}`);
      const t = EDGE_TYPES.indexOf(type);
      edgeRows.push(t, type === 'element' || type === 'hidden' ? Number(name) : str(String(name)), target * width);
    }
  });
  const locationRows = locations.flatMap(([name, script, line, column]) => [index.get(name)! * width, script, line, column]);
  return JSON.stringify({
    snapshot: {
      meta: {
        node_fields: NODE_FIELDS,
        node_types: [NODE_TYPES, 'string', 'number', 'number', 'number', 'number', 'number'],
        edge_fields: ['type', 'name_or_index', 'to_node'],
        edge_types: [EDGE_TYPES, 'string_or_number', 'node'],
        location_fields: ['object_index', 'script_id', 'line', 'column'],
      },
      node_count: nodes.length,
      edge_count: edgeRows.length / 3,
    },
    nodes: nodeRows,
    edges: edgeRows,
    trace_function_infos: [],
    trace_tree: [],
    samples: [],
    locations: locationRows,
    strings,
  });
}

/** Parses text through the streaming reader, in chunks of `chunk` bytes (whole when omitted). */
export function parseSnapshotText(text: string, chunk?: number): ReturnType<SnapshotReader['finish']> {
  const reader = new SnapshotReader();
  const bytes = Buffer.from(text);
  const step = chunk ?? bytes.length;
  for (let i = 0; i < bytes.length; i += step) reader.push(bytes.subarray(i, i + step));
  return reader.finish();
}

export function testGraph(nodes: TestNode[]): { g: HeapGraph; id: (name: string) => number } {
  const g = buildHeapGraph(parseSnapshotText(snapshotJson(nodes)));
  const index = new Map(nodes.map((n, i) => [n.name, i]));
  return { g, id: (name) => index.get(name) ?? -1 };
}
