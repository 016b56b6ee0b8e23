/**
 * A V8 sampling heap profile (what the inspector's HeapProfiler.getSamplingProfile and
 * stopSampling return, and `.heapprofile` files hold: Chrome DevTools' Memory panel and speedscope
 * open them) and what the pages read from it: bytes allocated by function. Client-safe, pure.
 */
import { frameName, type CallFrame, type FlameNode } from './cpu-profile';

export interface HeapProfileNode {
  id: number;
  callFrame: CallFrame;
  /** Bytes of the sampled allocations made in this very frame (an estimate: samples × interval). */
  selfSize: number;
  children: HeapProfileNode[];
}

export interface HeapProfile {
  head: HeapProfileNode;
  samples?: Array<{ size: number; nodeId: number; ordinal: number }>;
}

/** One function's allocations: in its own frame (self) and with its callees' (total). */
export interface FunctionAllocation {
  name: string;
  url: string;
  /** 1-based line, -1 when V8 gave none. */
  line: number;
  selfBytes: number;
  totalBytes: number;
  /** selfBytes ÷ every sampled byte. */
  selfShare: number;
  /** Stream Lab's own code allocated it (the sampler, the lab's scenario and consumers), not the strategy. */
  harness?: boolean;
}

/** The strategy's allocating rows, then the harness's, then the frames that only called others. */
const rank = (e: FunctionAllocation) => (e.selfBytes > 0 ? 0 : 2) + (e.harness ? 1 : 0);

/** Node's own and V8's native frames: their bytes belong to whichever script called them. */
const isBuiltin = (url: string) => url === '' || url.startsWith('node:');

const keyOf = (f: CallFrame) => `${f.functionName}\u0000${f.url}\u0000${f.lineNumber}`;

/**
 * Functions by the bytes they allocated themselves, largest first (the "bottom-up" view). A
 * function's total counts each allocation once even when it recurses: a frame adds its subtree's
 * bytes only when no frame above it is the same function.
 */
export function functionsByAllocation(p: HeapProfile, isHarness: (url: string) => boolean = () => false): FunctionAllocation[] {
  const acc = new Map<string, FunctionAllocation>();
  let all = 0;
  // Iterative, with the keys of the frames above: profiles of deep recursions are deep trees.
  const subtree = new Map<HeapProfileNode, number>();
  type Item = { node: HeapProfileNode; above: ReadonlySet<string>; harness: boolean };
  const order: Item[] = [];
  const stack: Item[] = [{ node: p.head, above: new Set(), harness: false }];
  while (stack.length) {
    const item = stack.pop()!;
    // A built-in frame (Buffer's toString) is the harness's when the nearest script above it is.
    const url = item.node.callFrame.url;
    const harness = isBuiltin(url) ? item.harness : isHarness(url);
    order.push({ ...item, harness });
    const key = keyOf(item.node.callFrame);
    const above = item.above.has(key) ? item.above : new Set([...item.above, key]);
    for (const c of item.node.children ?? []) stack.push({ node: c, above, harness });
  }
  // Children come after their parents in `order`: walk it backwards to sum subtrees.
  for (let i = order.length - 1; i >= 0; i--) {
    const { node } = order[i];
    subtree.set(node, node.selfSize + (node.children ?? []).reduce((n, c) => n + (subtree.get(c) ?? 0), 0));
  }
  for (const { node, above, harness } of order) {
    all += node.selfSize;
    const f = node.callFrame;
    const key = keyOf(f);
    // The same built-in called by the strategy and by the harness is two rows: whose bytes they are differs.
    const rowKey = harness ? `${key}\u0000harness` : key;
    const entry = acc.get(rowKey) ?? {
      name: frameName(f),
      url: f.url,
      line: f.lineNumber >= 0 ? f.lineNumber + 1 : -1,
      selfBytes: 0,
      totalBytes: 0,
      selfShare: 0,
      ...(harness && { harness: true }),
    };
    entry.selfBytes += node.selfSize;
    if (!above.has(key)) entry.totalBytes += subtree.get(node) ?? 0;
    acc.set(rowKey, entry);
  }
  // The strategy's allocations first: the harness's are listed after them, labelled, not mistaken for its.
  return [...acc.values()]
    .filter((e) => e.selfBytes > 0 || e.totalBytes > 0)
    .map((e) => ({ ...e, selfShare: all > 0 ? e.selfBytes / all : 0 }))
    .sort((a, b) => rank(a) - rank(b) || b.selfBytes - a.selfBytes || b.totalBytes - a.totalBytes);
}

/** Every sampled byte of the profile. */
export function sampledBytes(p: HeapProfile): number {
  let n = 0;
  const stack = [p.head];
  while (stack.length) {
    const node = stack.pop()!;
    n += node.selfSize;
    stack.push(...(node.children ?? []));
  }
  return n;
}

/**
 * The profile's call tree for a flame graph, in bytes allocated, widest callees first, cut to the
 * `maxNodes` widest (a parent is always kept with its kept children, so every box still sums its
 * callees'): small enough to send live with every read.
 */
export function heapFlameTree(p: HeapProfile, maxNodes = 300): FlameNode {
  const build = (n: HeapProfileNode): FlameNode => {
    const children = (n.children ?? [])
      .map(build)
      .filter((c) => c.total > 0)
      .sort((a, b) => b.total - a.total);
    const f = n.callFrame;
    return {
      name: frameName(f),
      url: f.url,
      line: f.lineNumber >= 0 ? f.lineNumber + 1 : -1,
      self: n.selfSize,
      total: n.selfSize + children.reduce((s, c) => s + c.total, 0),
      children,
    };
  };
  const root = build(p.head);
  // The widest nodes anywhere in the tree: a node is wider than any of its children, so the kept set is closed upwards.
  const all: FlameNode[] = [];
  const stack = [root];
  while (stack.length) {
    const n = stack.pop()!;
    all.push(n);
    stack.push(...n.children);
  }
  if (all.length <= maxNodes) return root;
  const kept = new Set(all.sort((a, b) => b.total - a.total).slice(0, maxNodes));
  kept.add(root);
  const prune = (n: FlameNode): FlameNode => ({ ...n, children: n.children.filter((c) => kept.has(c)).map(prune) });
  return prune(root);
}
