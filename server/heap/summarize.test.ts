/**
 * Whose a largest holder is, on a small graph: the nearest closure on its path that names a
 * script (Node's own skipped) tells Stream Lab's harness from the strategy and its libraries.
 */
import { describe, expect, it } from 'vitest';
import { computeDominators } from './dominators';
import { summarize } from './summarize';
import { type TestNode, testGraph } from './test-snapshot';

const BUILD = 'file:///app/.build/child-0123456789abcdef';
const SCRIPTS = {
  sampler: `${BUILD}/child/bootstrap.mjs`,
  scenario: `${BUILD}/labs/streams/child/scenario.mjs`,
  strategy: `${BUILD}/labs/streams/child/strategies/for-await.mjs`,
  rxjs: 'file:///app/node_modules/rxjs/dist/cjs/internal/operators/mergeInternals.js',
  timers: 'node:timers',
};

/** A closure of `script`, as V8 links them: closure —shared→ SharedFunctionInfo —script→ the script (a code node named by its URL). */
function closure(name: string, script: keyof typeof SCRIPTS, holds: string): TestNode[] {
  return [
    {
      name,
      type: 'closure',
      self: 32,
      edges: [
        ['internal', 'shared', `${name} sfi`],
        ['property', 'held', holds],
      ],
    },
    { name: `${name} sfi`, type: 'code', self: 8, edges: [['internal', 'script', SCRIPTS[script]]] },
  ];
}

/** An object holding three strings of 1 KB: its memory is spread over its parts, so it is a holder. */
function held(name: string, kb: number): TestNode[] {
  const parts = [0, 1, 2].map((i) => `${name} part ${i}`);
  return [
    { name, self: 16, edges: parts.map((p, i): [string, number, string] => ['element', i, p]) },
    ...parts.map((p): TestNode => ({ name: p, type: 'string', self: kb * 1024 })),
  ];
}

function holders(nodes: TestNode[], fromGlobal: string[]) {
  const { g } = testGraph([
    {
      name: '',
      type: 'synthetic',
      edges: [
        ['element', 1, '(GC roots)'],
        ['shortcut', 'global', 'global'],
      ],
    },
    { name: '(GC roots)', type: 'synthetic' },
    { name: 'global', self: 10, edges: fromGlobal.map((to): [string, string, string] => ['property', to, to]) },
    ...Object.values(SCRIPTS).map((url): TestNode => ({ name: url, type: 'code', self: 8 })),
    ...nodes,
  ]);
  const { largest } = summarize(g, computeDominators(g), { topObjects: 10 });
  return Object.fromEntries(largest.map((h) => [h.name, h.harness ?? false]));
}

describe('summarize: whose the largest holders are', () => {
  it("labels what the sampler and the scenario keep, not the strategy's nor its library's, whatever holds those further up", () => {
    expect(
      holders(
        [
          ...closure('sample', 'sampler', 'histogram'),
          ...held('histogram', 4),
          ...closure('readings', 'scenario', 'readAhead'),
          ...held('readAhead', 3),
          // The scenario holds the strategy's function, which holds its chunks: the strategy's.
          ...closure('runStrategy', 'scenario', 'consume'),
          ...closure('consume', 'strategy', 'chunks'),
          ...held('chunks', 8),
          // rxjs's closures hold the buffer, the sampler's timer further up: rxjs's, so the strategy's.
          ...closure('tick', 'sampler', 'outerNext'),
          ...closure('outerNext', 'rxjs', 'buffer'),
          ...held('buffer', 6),
        ],
        ['sample', 'readings', 'runStrategy', 'tick'],
      ),
    ).toEqual({ chunks: false, buffer: false, histogram: true, readAhead: true });
  });

  it("skips Node's own scripts to the nearest of ours, and labels nothing when no closure names a script", () => {
    expect(
      holders(
        [...closure('interval', 'sampler', 'setInterval'), ...closure('setInterval', 'timers', 'timerList'), ...held('timerList', 2), ...held('plain', 1)],
        ['interval', 'plain'],
      ),
    ).toEqual({ timerList: true, plain: false });
  });
});
