/** The one-line path and the script names in it. */
import { describe, expect, it } from 'vitest';
import { formatRetainerPath, type RetainerStep, shortScriptName, snapshotAnalysisSchema } from './analysis';

const MB = 1024 * 1024;
const fn = (name: string, line: number) => ({ name, script: '/srv/app/node_modules/rxjs/dist/cjs/internal/operators/mergeInternals.js', line, column: 5 });
const PATH: RetainerStep[] = [
  { edge: 'buffer', edgeType: 'context', className: 'Array', name: 'Array', retainedBytes: 59.5 * MB },
  {
    edge: 'context',
    edgeType: 'internal',
    className: 'system / Context',
    name: 'system / Context',
    retainedBytes: 59.6 * MB,
    functions: [fn('outerNext', 12), fn('doInnerSub', 20), fn('checkComplete', 30)],
  },
  { edge: '_next', edgeType: 'property', className: '(closure)', name: 'outerNext', retainedBytes: 100, functions: [fn('outerNext', 12)] },
  { edge: 'destination', edgeType: 'property', className: 'OperatorSubscriber', name: 'OperatorSubscriber', retainedBytes: 60 * MB },
  { edge: '', edgeType: '', className: '(Global handles)', name: '(Global handles)', retainedBytes: 0 },
];

describe('formatRetainerPath', () => {
  it("reads as the lesson says it, the context's own closure left out", () => {
    expect(formatRetainerPath(PATH)).toBe(
      'Array 59.5 MB ← context of outerNext / doInnerSub / checkComplete (node_modules/rxjs/dist/cjs/internal/operators/mergeInternals.js:12) ← OperatorSubscriber ← (Global handles)',
    );
  });

  it('keeps the start and the root of a long path', () => {
    const long = [PATH[0], ...Array.from({ length: 10 }, () => PATH[3]), PATH[4]];
    const line = formatRetainerPath(long, { maxSteps: 4 });
    expect(line).toBe('Array 59.5 MB ← OperatorSubscriber ← OperatorSubscriber ← … ← (Global handles)');
    expect(formatRetainerPath([PATH[0], PATH[4]], { omitted: 3 })).toBe('Array 59.5 MB ← … ← (Global handles)');
  });

  it('names many closures by the first few and a count', () => {
    const many: RetainerStep = { ...PATH[1], functions: ['a', 'b', 'c', 'd', 'e'].map((n, i) => fn(n, i + 1)), functionCount: 9 };
    expect(formatRetainerPath([PATH[0], many])).toMatch(/context of a \/ b \/ c \/ d \/ \+5 \(/);
  });
});

describe('shortScriptName', () => {
  it('keeps node_modules paths from node_modules on, Node’s own as they are, else the last two segments', () => {
    expect(shortScriptName('file:///home/me/app/node_modules/rxjs/dist/esm/internal/operators/mergeInternals.js')).toBe(
      'node_modules/rxjs/dist/esm/internal/operators/mergeInternals.js',
    );
    expect(shortScriptName('node:internal/timers')).toBe('node:internal/timers');
    expect(shortScriptName('/tmp/heap-x/mergeInternals.js')).toBe('heap-x/mergeInternals.js');
    expect(shortScriptName('file:///work/app/labs/streams/child/my%20strategy.ts')).toBe('child/my strategy.ts');
    expect(shortScriptName('')).toBe('');
  });
});

describe('snapshotAnalysisSchema', () => {
  it('accepts a result and refuses one with a malformed step', () => {
    const result = {
      nodeCount: 1,
      edgeCount: 0,
      fileBytes: 10,
      totalBytes: 0,
      arrayBufferBytes: 0,
      groups: [],
      largest: [{ id: 3, className: 'Array', name: 'Array', selfBytes: 16, retainedBytes: 16, path: PATH, pathOmitted: 0 }],
      parseMs: 1,
      analysisMs: 1,
    };
    expect(snapshotAnalysisSchema.parse(result)).toEqual(result);
    expect(snapshotAnalysisSchema.safeParse({ ...result, largest: [{ ...result.largest[0], path: [{ edge: 1 }] }] }).success).toBe(false);
  });
});
