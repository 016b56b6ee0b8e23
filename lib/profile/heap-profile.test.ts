import { describe, expect, it } from 'vitest';
import { functionsByAllocation, heapFlameTree, sampledBytes, type HeapProfile, type HeapProfileNode } from './heap-profile';

let id = 0;
const node = (functionName: string, selfSize: number, children: HeapProfileNode[] = [], url = 'file:///app/x.mjs', lineNumber = 0): HeapProfileNode => ({
  id: ++id,
  callFrame: { functionName, scriptId: '1', url, lineNumber, columnNumber: 0 },
  selfSize,
  children,
});

describe('heap profiles', () => {
  // (root) → main → reduce → reduce (recursion) → copy; main → parse
  const profile: HeapProfile = {
    head: node(
      '',
      0,
      [
        node('main', 10, [
          node('reduce', 100, [node('reduce', 300, [node('copy', 50, [], 'file:///app/x.mjs', 9)], 'file:///app/x.mjs', 4)], 'file:///app/x.mjs', 4),
          node('parse', 40, [], 'node:internal/x', 1),
        ]),
      ],
      '',
    ),
  };

  it("labels the harness's rows, a built-in called by the harness included, and lists the strategy's allocations first", () => {
    // (root) → consume (the harness's scenario) → toString (node:buffer); (root) → run (the strategy) → toString.
    const harness = 'file:///b/labs/streams/child/scenario.mjs';
    const p: HeapProfile = {
      head: node(
        '',
        0,
        [
          node('consume', 5, [node('toString', 900, [], 'node:buffer', 833)], harness),
          node('run', 20, [node('toString', 30, [], 'node:buffer', 833)], 'file:///b/labs/streams/child/strategies/mine.mjs'),
        ],
        '',
      ),
    };
    const fns = functionsByAllocation(p, (url) => url === harness);
    expect(fns.map((f) => [f.name, f.selfBytes, f.harness ?? false])).toEqual([
      ['toString', 30, false],
      ['run', 20, false],
      ['toString', 900, true],
      ['consume', 5, true],
      ['(root)', 0, false],
    ]);
    // Without a harness to tell, the same rows by bytes alone.
    expect(functionsByAllocation(p)[0]).toMatchObject({ name: 'toString', selfBytes: 930 });
  });

  it('counts each function by its own bytes, and its total once even when it recurses', () => {
    const fns = functionsByAllocation(profile);
    expect(fns.map((f) => [f.name, f.selfBytes, f.totalBytes, f.line])).toEqual([
      ['reduce', 400, 450, 5],
      ['copy', 50, 50, 10],
      ['parse', 40, 40, 2],
      ['main', 10, 500, 1],
      // V8's root frame allocates nothing itself; it sorts last.
      ['(root)', 0, 500, 1],
    ]);
    expect(sampledBytes(profile)).toBe(500);
    expect(fns[0].selfShare).toBe(0.8);
  });

  it('draws the call tree in bytes, widest callee first, and keeps the widest nodes when cut', () => {
    const tree = heapFlameTree(profile);
    expect(tree.total).toBe(500);
    expect(tree.children[0].children.map((c) => [c.name, c.total])).toEqual([
      ['reduce', 450],
      ['parse', 40],
    ]);
    // Cut to 4 nodes: root, main, reduce, reduce (the widest); each box still sums what it measured.
    const cut = heapFlameTree(profile, 4);
    expect(cut.children[0].children.map((c) => c.name)).toEqual(['reduce']);
    expect(cut.children[0].children[0].children.map((c) => [c.name, c.total, c.children.length])).toEqual([['reduce', 350, 0]]);
  });
});
