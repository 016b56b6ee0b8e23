/**
 * The sweep chart drawn from a summary (server-rendered markup): the measured points, the fit,
 * each segment's own slope, a stopped step's marker and the cliff, and the skipped steps' projections.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { HotcodeSummary } from '@/labs/hotcode/shared/schema';
import { DEFAULT_HOTCODE_PARAMS } from '../shared/params';
import { SweepChart } from './SweepChart';

const cliff = { fromRows: 10_000, toRows: 20_000, slope: 4.73, growth: 26.5, atLeast: true };
const summary = {
  lab: 'hotcode',
  strategy: 'groupby-spread',
  params: { ...DEFAULT_HOTCODE_PARAMS, sweep: true, rows: 50_000, timeoutS: 12 },
  sweep: [
    { rows: 1000, ms: 1.7 },
    { rows: 2000, ms: 4.1 },
    { rows: 5000, ms: 19.7 },
    { rows: 10_000, ms: 98.6 },
  ],
  sweepExponent: 1.75,
  sweepSkipped: 1,
  sweepStopped: 1,
  sweepSteps: [
    { rows: 1000, status: 'measured', ms: 1.7, wallMs: 1.7, projectedMs: null },
    { rows: 2000, status: 'measured', ms: 4.1, wallMs: 4.4, projectedMs: 6.9 },
    { rows: 5000, status: 'measured', ms: 19.7, wallMs: 19.4, projectedMs: 30 },
    { rows: 10_000, status: 'measured', ms: 98.6, wallMs: 134, projectedMs: 120 },
    { rows: 20_000, status: 'stopped', ms: 2614, wallMs: 6847, projectedMs: 1848 },
    { rows: 50_000, status: 'skipped', ms: null, wallMs: null, projectedMs: 2_482_078 },
  ],
  sweepSlopes: [
    { fromRows: 1000, toRows: 2000, slope: 1.27, growth: 2.4, atLeast: false },
    { fromRows: 2000, toRows: 5000, slope: 1.7, growth: 4.8, atLeast: false },
    { fromRows: 5000, toRows: 10_000, slope: 2.32, growth: 5, atLeast: false },
    cliff,
  ],
  sweepCliff: cliff,
} as unknown as HotcodeSummary;

describe('SweepChart', () => {
  it('draws the stopped step, the cliff and every slope, and lists the skipped step with its projection', () => {
    const html = renderToStaticMarkup(createElement(SweepChart, { summary, label: 'groupby-spread' }));
    expect(html).toContain('data-stopped="1"');
    expect(html).toContain('data-skipped="1"');
    expect(html).toContain('data-cliff-rows="20000"');
    expect(html.match(/data-testid="sweep-slope"/g)).toHaveLength(4);
    expect(html.match(/data-testid="sweep-stopped"/g)).toHaveLength(1);
    expect(html).toMatch(/data-slope="4.73" data-cliff="true"/);
    expect(html).toContain('Cliff: from 10,000 to 20,000 rows the cost grew at least 27× (local slope ≥ 4.7).');
    expect(html).toContain('20,000 rows: &gt; 6.8 s (stopped).');
    expect(html).toMatch(/Skipped: 50,000 rows \(projected 41 min \d+ s\)\./);
  });

  it('a sweep measured to its end has no stopped marker and no cliff', () => {
    const clean = {
      ...summary,
      sweepSteps: summary.sweepSteps.slice(0, 4),
      sweepSlopes: summary.sweepSlopes.slice(0, 3),
      sweepCliff: null,
      sweepStopped: 0,
      sweepSkipped: 0,
    } as HotcodeSummary;
    const html = renderToStaticMarkup(createElement(SweepChart, { summary: clean, label: 'groupby-spread' }));
    expect(html).toContain('data-stopped="0"');
    expect(html).not.toContain('data-cliff-rows');
    expect(html).not.toContain('Cliff:');
    expect(html.match(/data-testid="sweep-slope"/g)).toHaveLength(3);
  });
});
