'use client';

/**
 * A flame graph of a CPU profile (top-down: the root across the top, callees below, each box as
 * wide as the time at or below it), drawn as SVG from the profile's call tree. Click a box to zoom
 * to it, click the root to zoom out. Boxes narrower than a pixel are left out. The strategy's own
 * code is coloured apart from Node's and V8's.
 */
import { useMemo, useState } from 'react';
import { functionPlace, type FlameNode } from '@/lib/profile/cpu-profile';
import { formatMs } from '@/lib/readouts/format';

const W = 1000;
const ROW = 18;
const MAX_DEPTH = 40;

interface Box {
  node: FlameNode;
  x: number;
  w: number;
  depth: number;
}

/** Boxes of the subtree under `root`, laid out over the width. */
function layout(root: FlameNode): Box[] {
  const boxes: Box[] = [];
  const scale = root.totalMs > 0 ? W / root.totalMs : 0;
  const walk = (n: FlameNode, x: number, depth: number) => {
    const w = n.totalMs * scale;
    if (w < 1 || depth > MAX_DEPTH) return;
    boxes.push({ node: n, x, w, depth });
    let cx = x;
    for (const c of n.children) {
      walk(c, cx, depth + 1);
      cx += c.totalMs * scale;
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

export function FlameGraph({ tree, label }: { tree: FlameNode; label: string }) {
  const [focus, setFocus] = useState<FlameNode>(tree);
  const boxes = useMemo(() => layout(focus), [focus]);
  const depth = Math.max(1, ...boxes.map((b) => b.depth + 1));
  return (
    <figure className="flame-graph" data-testid="flame-graph" data-boxes={boxes.length}>
      <svg viewBox={`0 0 ${W} ${depth * ROW}`} preserveAspectRatio="none" style={{ height: depth * ROW }} role="img" aria-label={`Flame graph of the ${label} run's CPU profile`}>
        {boxes.map((b, i) => (
          <g key={i} transform={`translate(${b.x},${b.depth * ROW})`} onClick={() => setFocus(b.depth === 0 && focus !== tree ? tree : b.node)} style={{ cursor: 'pointer' }}>
            <rect width={Math.max(0.5, b.w - 0.5)} height={ROW - 1} fill={colourOf(b.node)} />
            {b.w > 40 && (
              <text x={3} y={ROW - 5} fontSize="11" fill="#1d2330">
                {b.node.name.length * 6.5 > b.w - 6 ? `${b.node.name.slice(0, Math.max(1, Math.floor((b.w - 6) / 6.5) - 1))}…` : b.node.name}
              </text>
            )}
            <title>{`${functionPlace(b.node)}: ${formatMs(b.node.totalMs)} total, ${formatMs(b.node.selfMs)} self`}</title>
          </g>
        ))}
      </svg>
      <figcaption>
        Each box is a function, as wide as the time spent in it and its callees; callers above callees. Orange: the run&apos;s own code.
        {focus !== tree && ' Click the top box to zoom out.'}
      </figcaption>
    </figure>
  );
}
