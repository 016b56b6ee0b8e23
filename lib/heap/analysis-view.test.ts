import { describe, expect, it } from 'vitest';
import { readAnalysis, shortScriptName, stepView, whereText, type RetainerStep } from './analysis-view';

const step = (s: Partial<RetainerStep>): RetainerStep => ({ edge: '', edgeType: 'property', className: 'Object', name: 'Object', retainedBytes: 0, ...s });
const MERGE = '/srv/lab/node_modules/rxjs/dist/cjs/internal/operators/mergeInternals.js';

describe('a snapshot analysis as the page reads it', () => {
  it('keeps a script’s part after node_modules/, Node’s own as is, else its last two path parts', () => {
    expect(shortScriptName(MERGE)).toBe('rxjs/dist/cjs/internal/operators/mergeInternals.js');
    expect(shortScriptName(`file://${MERGE.replace('rxjs', 'rx%20js')}`)).toBe('rx js/dist/cjs/internal/operators/mergeInternals.js');
    expect(shortScriptName('node:internal/streams/readable')).toBe('node:internal/streams/readable');
    expect(shortScriptName('/work/labs/streams/child/scenario.ts')).toBe('child/scenario.ts');
    expect(whereText(MERGE, 12)).toBe('rxjs/dist/cjs/internal/operators/mergeInternals.js:12');
    expect(whereText('', 12)).toBeNull();
  });

  it('reads a closure Context as the functions sharing it, grouped by script', () => {
    const fn = (name: string, line: number, script = MERGE) => ({ name, script, line, column: 1 });
    const context = step({ className: 'system / Context', functions: [fn('outerNext', 12), fn('doInnerSub', 20), fn('', 30), fn('next', 3, '/app/x/y/z.js')] });
    expect(stepView(context)).toEqual({
      text: 'context of',
      functions: [
        { names: 'outerNext / doInnerSub / (anonymous)', where: 'rxjs/dist/cjs/internal/operators/mergeInternals.js:12' },
        { names: 'next', where: 'y/z.js:3' },
      ],
    });
    expect(stepView(step({ className: 'system / Context' }))).toEqual({ text: 'context', functions: [] });
    expect(stepView(step({ className: '(closure)', name: 'checkComplete' })).text).toBe('checkComplete()');
    expect(stepView(step({ className: '(object elements)', name: '(object elements)[]' })).text).toBe('(object elements)[]');
    expect(stepView(step({ className: 'OperatorSubscriber', name: 'OperatorSubscriber' })).text).toBe('OperatorSubscriber');
  });

  it('reads an analysis of another shape (the placeholder before the analyzer) as none', () => {
    expect(readAnalysis({ file: '/tmp/x.heapsnapshot' })).toBeNull();
    expect(readAnalysis(null)).toBeNull();
    const analysis = { nodeCount: 3, totalBytes: 10, arrayBufferBytes: 4, parseMs: 1, groups: [], largest: [] };
    expect(readAnalysis(analysis)).toEqual(analysis);
  });
});
