/**
 * A V8 CPU profile (what the inspector's Profiler.stop returns and Chrome DevTools, speedscope and
 * `.cpuprofile` files hold) and what the pages read from it: time per function by self time, and
 * the call tree with each node's total time for a flame graph. Client-safe, pure.
 */

export interface CallFrame {
  functionName: string;
  scriptId: string;
  url: string;
  /** 0-based, as V8 gives them. */
  lineNumber: number;
  columnNumber: number;
}

export interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  hitCount?: number;
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  /** µs, on the profiled process's clock. */
  startTime: number;
  endTime: number;
  /** The node on top of the stack at each sample. */
  samples?: number[];
  /** µs since the previous sample (the first: since startTime). */
  timeDeltas?: number[];
}

/** One function's share of the profile: its own time (self) and its time with its callees (total). */
export interface FunctionTime {
  name: string;
  /** The script as V8 saw it (a file: URL for the run's compiled modules; '' for V8's own entries). */
  url: string;
  /** 1-based line, -1 when V8 gave none. */
  line: number;
  selfMs: number;
  totalMs: number;
  /** selfMs ÷ the profile's sampled time. */
  selfShare: number;
}

/** "(anonymous)" for a nameless function, as DevTools shows it. */
export function frameName(f: CallFrame): string {
  return f.functionName || (f.url ? '(anonymous)' : '(root)');
}

/** Each node's self time in ms: its samples × their time deltas (each delta is charged to the sample it ends). */
export function selfMsByNode(p: CpuProfile): Map<number, number> {
  const out = new Map<number, number>();
  const samples = p.samples ?? [];
  const deltas = p.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    // The delta after sample i is how long its stack stood; the last sample gets the one before it.
    const us = deltas[i + 1] ?? deltas[i] ?? 0;
    out.set(samples[i], (out.get(samples[i]) ?? 0) + Math.max(0, us) / 1000);
  }
  return out;
}

/** Nodes by id and each node's parent id. */
function indexNodes(p: CpuProfile): { byId: Map<number, ProfileNode>; parent: Map<number, number> } {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  return { byId, parent };
}

const keyOf = (f: CallFrame) => `${f.functionName}\u0000${f.url}\u0000${f.lineNumber}`;

/** Functions by self time, largest first: the "bottom-up" view. Time in (program), (idle) and (garbage collector) is listed too. */
export function functionsBySelfTime(p: CpuProfile): FunctionTime[] {
  const self = selfMsByNode(p);
  const { byId, parent } = indexNodes(p);
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const acc = new Map<string, FunctionTime>();
  for (const [nodeId, ms] of self) {
    // Self time goes to the node's function; total time to every distinct function on its stack.
    const seen = new Set<string>();
    for (let id: number | undefined = nodeId; id !== undefined; id = parent.get(id)) {
      const f = byId.get(id)!.callFrame;
      const key = keyOf(f);
      let row = acc.get(key);
      if (!row) acc.set(key, (row = { name: frameName(f), url: f.url, line: f.lineNumber >= 0 ? f.lineNumber + 1 : -1, selfMs: 0, totalMs: 0, selfShare: 0 }));
      if (id === nodeId) row.selfMs += ms;
      if (!seen.has(key)) row.totalMs += ms;
      seen.add(key);
    }
  }
  return [...acc.values()]
    .filter((r) => r.name !== '(root)')
    .map((r) => ({ ...r, selfShare: total > 0 ? r.selfMs / total : 0 }))
    .sort((a, b) => b.selfMs - a.selfMs);
}

/** A call-tree node for the flame graph: a function, what was measured under it, and its callees. */
export interface FlameNode {
  name: string;
  url: string;
  line: number;
  /** At or below this node: ms of samples in a CPU profile, bytes allocated in a heap profile. */
  total: number;
  /** In this very frame, in the same unit. */
  self: number;
  children: FlameNode[];
}

/** The profile's call tree with times, callees widest first; nodes with no time are left out. */
export function flameTree(p: CpuProfile): FlameNode {
  const self = selfMsByNode(p);
  const { byId } = indexNodes(p);
  const root = p.nodes.find((n) => !p.nodes.some((m) => m.children?.includes(n.id))) ?? p.nodes[0];
  const build = (n: ProfileNode): FlameNode => {
    const children = (n.children ?? [])
      .map((c) => build(byId.get(c)!))
      .filter((c) => c.total > 0)
      .sort((a, b) => b.total - a.total);
    const selfMs = self.get(n.id) ?? 0;
    const f = n.callFrame;
    return {
      name: frameName(f),
      url: f.url,
      line: f.lineNumber >= 0 ? f.lineNumber + 1 : -1,
      self: selfMs,
      total: selfMs + children.reduce((s, c) => s + c.total, 0),
      children,
    };
  };
  return build(root);
}

/** "groupBySpread (groupby-spread.mjs:12)": a function with the file name and line it is at. */
export function functionPlace(f: Pick<FunctionTime, 'name' | 'url' | 'line'>): string {
  const file = f.url.split('/').pop() ?? '';
  return file ? `${f.name} (${file}${f.line > 0 ? `:${f.line}` : ''})` : f.name;
}

/** V8's own entries, which are no function of the program. */
export const VM_ENTRIES = new Set(['(program)', '(idle)', '(garbage collector)', '(root)']);
