/**
 * The dominator tree and retained sizes on small graphs whose answers follow from the definition
 * (a node's dominator is on every path from the root to it), DevTools' edge rules included.
 */
import { describe, expect, it } from 'vitest';
import { computeDominators } from './dominators';
import { type TestNode, testGraph } from './test-snapshot';

type Edge = [string, string | number, string];

/** The root, the GC roots under it, and a global linked by a shortcut edge (as V8 writes them), plus `nodes`. */
function heap(nodes: TestNode[], globalEdges: Edge[], handleEdges: Edge[] = []) {
  return testGraph([
    {
      name: '',
      type: 'synthetic',
      edges: [
        ['element', 1, '(GC roots)'],
        ['shortcut', 'global', 'global'],
      ],
    },
    { name: '(GC roots)', type: 'synthetic', edges: [['element', 1, '(Handle scope)']] },
    { name: '(Handle scope)', type: 'synthetic', edges: handleEdges },
    { name: 'global', self: 10, edges: globalEdges },
    ...nodes,
  ]);
}

describe('computeDominators', () => {
  it('a diamond: what two branches share belongs to the node above both', () => {
    const { g, id } = heap(
      [
        { name: 'A', self: 1, edges: [['property', 'c', 'C']] },
        { name: 'B', self: 2, edges: [['property', 'c', 'C']] },
        { name: 'C', self: 4, edges: [['property', 'd', 'D']] },
        { name: 'D', self: 8 },
      ],
      [
        ['property', 'a', 'A'],
        ['property', 'b', 'B'],
      ],
    );
    const d = computeDominators(g);
    expect(d.idom[id('C')]).toBe(id('global'));
    expect(d.idom[id('D')]).toBe(id('C'));
    expect(d.retained[id('A')]).toBe(1);
    expect(d.retained[id('B')]).toBe(2);
    expect(d.retained[id('C')]).toBe(12);
    expect(d.retained[id('global')]).toBe(10 + 1 + 2 + 12);
    expect(d.retained[0]).toBe(25);
  });

  it('a cycle is retained by its entry; a weak edge into it changes nothing', () => {
    const { g, id } = heap(
      [
        { name: 'A', self: 1, edges: [['property', 'next', 'B']] },
        { name: 'B', self: 2, edges: [['property', 'back', 'A']] },
        { name: 'W', self: 4, edges: [['weak', 'ref', 'B']] },
      ],
      [
        ['property', 'a', 'A'],
        ['property', 'w', 'W'],
      ],
    );
    const d = computeDominators(g);
    expect(d.idom[id('B')]).toBe(id('A'));
    expect(d.retained[id('A')]).toBe(3);
    expect(d.retained[id('W')]).toBe(4);
  });

  it('what only weak or non-root shortcut edges reach hangs off the root, with what it holds', () => {
    const { g, id } = heap(
      [
        { name: 'W', self: 1, edges: [['weak', 'target', 'T']] },
        { name: 'T', self: 16, edges: [['property', 'u', 'U']] },
        { name: 'U', self: 32 },
        { name: 'S', self: 1, edges: [['shortcut', 'bound_argument_0', 'V']] },
        { name: 'V', self: 64 },
      ],
      [
        ['property', 'w', 'W'],
        ['property', 's', 'S'],
      ],
    );
    const d = computeDominators(g);
    expect(d.idom[id('T')]).toBe(0);
    expect(d.idom[id('U')]).toBe(id('T'));
    expect(d.retained[id('T')]).toBe(48);
    expect(d.idom[id('V')]).toBe(0);
    expect(d.retained[id('W')]).toBe(1);
    expect(d.retained[id('S')]).toBe(1);
    expect(d.reached).toBe(g.nodeCount);
  });

  it("a handle's reference to an object of the page does not make the handle a co-owner (DevTools' rule)", () => {
    const { g, id } = heap(
      [
        { name: 'Q', self: 1, edges: [['property', 'p', 'P']] },
        { name: 'P', self: 100 },
      ],
      [['property', 'q', 'Q']],
      // The handle scope (a GC root the global does not reach) also points at P.
      [['hidden', 0, 'P']],
    );
    const d = computeDominators(g);
    expect(d.pageObject[id('P')]).toBe(1);
    expect(d.pageObject[id('(Handle scope)')]).toBe(0);
    expect(d.idom[id('P')]).toBe(id('Q'));
    expect(d.retained[id('Q')]).toBe(101);
  });

  it('a long chain does not overflow a stack (iterative walks)', () => {
    const n = 200_000;
    const chain: TestNode[] = Array.from({ length: n }, (_, i) => ({
      name: `n${i}`,
      self: 1,
      edges: i + 1 < n ? [['property', 'next', `n${i + 1}`] as Edge] : [],
    }));
    const { g, id } = heap(chain, [['property', 'head', 'n0']]);
    const d = computeDominators(g);
    expect(d.retained[id('n0')]).toBe(n);
    expect(d.idom[id(`n${n - 1}`)]).toBe(id(`n${n - 2}`));
  });
});
