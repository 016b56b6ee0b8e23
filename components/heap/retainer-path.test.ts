/** A holder's retainer path as the snapshot list renders it (server-rendered markup): Stream Lab's own holders are labelled. */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { HeapHolder } from '@/lib/heap/analysis';
import { RetainerPath } from './RetainerPath';

const holder = (patch: Partial<HeapHolder>): HeapHolder => ({
  id: 7,
  className: 'Node / histogram',
  name: 'Node / histogram',
  selfBytes: 368_640,
  retainedBytes: 368_640,
  path: [
    { edge: 'loopDelay', edgeType: 'property', className: 'Node / histogram', name: 'Node / histogram', retainedBytes: 368_640 },
    { edge: '', edgeType: '', className: 'Sampler', name: 'Sampler', retainedBytes: 400_000 },
  ],
  pathOmitted: 0,
  ...patch,
});

describe('RetainerPath', () => {
  it("labels a holder Stream Lab's harness keeps, as its allocations are labelled, and no other", () => {
    const harness = renderToStaticMarkup(createElement(RetainerPath, { holder: holder({ harness: true }) }));
    expect(harness).toContain('data-harness="true"');
    expect(harness).toMatch(
      /<span class="badge" title="Kept alive by Stream Lab&#x27;s own code[^"]*" data-testid="harness-badge">Stream Lab’s harness<\/span>/,
    );
    const strategy = renderToStaticMarkup(createElement(RetainerPath, { holder: holder({}) }));
    expect(strategy).not.toContain('harness');
  });
});
