'use client';

/**
 * A flame graph of a CPU or heap profile (top-down: the root across the top, callees below, each
 * box as wide as the time, or the bytes allocated, at or below it), drawn as SVG from the profile's call tree. Click a box to zoom
 * to it, click the root to zoom out. Boxes narrower than a pixel are left out. The strategy's own
 * code is coloured apart from Node's and V8's.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { functionPlace, type FlameNode } from '@/lib/profile/cpu-profile';
import { formatMb, formatMs } from '@/lib/readouts/format';

/** Laid out at the drawn width (text is never stretched); this until the element is measured. */
const DEFAULT_W = 600;
const ROW = 18;
const MAX_DEPTH = 40;

interface Box {
  node: FlameNode;
  x: number;
  w: number;
  depth: number;
}

/** Boxes of the subtree under `root`, laid out over `W` px. */
function layout(root: FlameNode, W: number): Box[] {
  const boxes: Box[] = [];
  const scale = root.total > 0 ? W / root.total : 0;
  const walk = (n: FlameNode, x: number, depth: number) => {
    const w = n.total * scale;
    if (w < 1 || depth > MAX_DEPTH) return;
    boxes.push({ node: n, x, w, depth });
    let cx = x;
    for (const c of n.children) {
      walk(c, cx, depth + 1);
      cx += c.total * scale;
    }
  };
  walk(root, 0, 0);
  return boxes;
}

/** Orange for the run's own modules (the child build), blue for Node's, grey for V8's entries. */
function colourOf(n: FlameNode): string {
  if (n.url.includes('/labs/')) return '#E69F00';
  if (n.url.startsWith('node:') || n.url === '' || !n.url.includes('/')) return n.url === '' ? '#BBBBBB' : '#56B4E9';
  return '#9ecae1';
}

/** The element's width in px, following resizes. */
function useWidth(): [React.RefObject<HTMLElement | null>, number] {
  const ref = useRef<HTMLElement | null>(null);
  const [width, setWidth] = useState(DEFAULT_W);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setWidth(Math.max(100, Math.floor(el.clientWidth))));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

const keyOf = (n: FlameNode) => `${n.name}|${n.url}|${n.line}`;

/** The node at `path` (keys from the root's child down) in `tree`, or the deepest one found: a live tree's zoom survives its next read. */
function nodeAt(tree: FlameNode, path: readonly string[]): FlameNode {
  let n = tree;
  for (const key of path) {
    const next = n.children.find((c) => keyOf(c) === key);
    if (!next) break;
    n = next;
  }
  return n;
}

/** The path of keys from the root down to `target` (empty for the root). */
function pathTo(tree: FlameNode, target: FlameNode): string[] {
  const walk = (n: FlameNode, path: string[]): string[] | null => {
    if (n === target) return path;
    for (const c of n.children) {
      const found = walk(c, [...path, keyOf(c)]);
      if (found) return found;
    }
    return null;
  };
  return walk(tree, []) ?? [];
}

const KINDS = {
  cpu: { what: 'CPU profile', format: formatMs, wide: 'the time spent in it and its callees' },
  heap: { what: 'heap profile', format: formatMb, wide: 'the bytes it and its callees allocated (sampled)' },
} as const;

/** `kind`: a CPU profile's tree is in ms of samples, a heap profile's in bytes allocated. */
export function FlameGraph({ tree, label, kind = 'cpu' }: { tree: FlameNode; label: string; kind?: keyof typeof KINDS }) {
  const { what, format, wide } = KINDS[kind];
  const [focusPath, setFocusPath] = useState<string[]>([]);
  const focus = nodeAt(tree, focusPath);
  const setFocus = (n: FlameNode) => setFocusPath(pathTo(tree, n));
  const [ref, W] = useWidth();
  const boxes = useMemo(() => layout(focus, W), [focus, W]);
  const depth = Math.max(1, ...boxes.map((b) => b.depth + 1));
  return (
    <figure className="flame-graph" data-testid="flame-graph" data-boxes={boxes.length} ref={ref}>
      <svg width={W} height={depth * ROW} viewBox={`0 0 ${W} ${depth * ROW}`} role="img" aria-label={`Flame graph of the ${label} run's ${what}`}>
        {boxes.map((b, i) => (
          <g
            key={i}
            transform={`translate(${b.x},${b.depth * ROW})`}
            onClick={() => setFocus(b.depth === 0 && focus !== tree ? tree : b.node)}
            style={{ cursor: 'pointer' }}
          >
            <rect width={Math.max(0.5, b.w - 0.5)} height={ROW - 1} fill={colourOf(b.node)} />
            {b.w > 40 && (
              <text x={3} y={ROW - 5} fontSize="11" fill="#1d2330">
                {b.node.name.length * 6.7 > b.w - 6 ? `${b.node.name.slice(0, Math.max(1, Math.floor((b.w - 6) / 6.7) - 1))}…` : b.node.name}
              </text>
            )}
            <title>{`${functionPlace(b.node)}: ${format(b.node.total)} total, ${format(b.node.self)} self`}</title>
          </g>
        ))}
      </svg>
      <figcaption>
        Each box is a function, as wide as {wide}; callers above callees. Orange: the run&apos;s own code.
        {focus !== tree && ' Click the top box to zoom out.'}
      </figcaption>
    </figure>
  );
}
