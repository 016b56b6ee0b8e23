import { DOMParser } from '@xmldom/xmldom';
import { describe, expect, it } from 'vitest';
import { parseMarkdownTable } from '../../lib/history/summary-markdown';
import { makeSummary } from '../../lib/test-fixtures';
import { compareFigure } from './baseline';
import { judgeCheck, parseCheck } from './checks';
import { junitXml, markdownReport, testCases, type BenchResults } from './reports';

const STRATEGIES = ['rxjs-from', 'pipeline-generator'];

/** Two strategies, two rounds; rxjs-from ran out of memory once; one check holds, one fails; one figure regressed. */
function results(): BenchResults {
  const run = (strategy: string, round: number, over: Parameters<typeof makeSummary>[0] = {}) =>
    makeSummary({ strategy, runId: `${strategy}-${round}`, durationMs: 1000 + round, ...over });
  const summaries = [
    run('rxjs-from', 1, { outcome: 'out-of-memory', reason: 'heap limit <&> reached' }),
    run('pipeline-generator', 1),
    run('rxjs-from', 2),
    run('pipeline-generator', 2),
  ];
  const checks = ['pipeline-generator: arrayBuffers.peak < 16MB', 'pipeline-generator: durationMs < 10ms'].map((t) => parseCheck(t, 'streams', STRATEGIES));
  const judged = [1, 2].flatMap((round) => {
    const ofRound = summaries.filter((s) => s.runId.endsWith(`-${round}`));
    return checks.flatMap((c) => judgeCheck(c, 'streams', ofRound).map((r) => ({ ...r, runId: `${c.strategy}-${round}` })));
  });
  const where = { strategy: 'pipeline-generator', nodeVersion: summaries[0].nodeVersion, unit: 'ms' as const };
  return {
    lab: 'streams',
    command: "npm run bench -- --repeat 2 --assert 'pipeline-generator: durationMs < 10ms'",
    summaries,
    expected: { 'rxjs-from': 'completed', 'pipeline-generator': 'completed' },
    checks: judged,
    stats: [],
    comparisons: [
      compareFigure({ ...where, figure: 'durationMs' }, [500, 510], [1001, 1002], 0.1),
      compareFigure({ ...where, figure: 'cpu.totalMs' }, [500, 510], [505, 506], 0.1),
    ],
    notInBaseline: ['rxjs-from on Node 20.20.2'],
  };
}

describe('bench reports', () => {
  it('one test case per strategy × what it was held to: outcome, each check, each figure against the baseline', () => {
    const cases = testCases(results());
    expect(cases.map((c) => `${c.suite} | ${c.name} | ${c.ok}`)).toEqual([
      'streams: rxjs-from | outcome == completed | false',
      'streams: pipeline-generator | outcome == completed | true',
      'streams: pipeline-generator | pipeline-generator: arrayBuffers.peak < 16MB | true',
      'streams: pipeline-generator | pipeline-generator: durationMs < 10ms | false',
      'streams: pipeline-generator | baseline: durationMs | false',
      'streams: pipeline-generator | baseline: cpu.totalMs | true',
    ]);
  });

  it('writes JUnit XML a real parser reads, failures carrying the measured values', () => {
    const parse = (text: string) => {
      const errors: string[] = [];
      const doc = new DOMParser({ onError: (level, message) => void errors.push(`${level}: ${message}`) }).parseFromString(text, 'text/xml');
      return { doc, errors };
    };
    // The parser is strict enough to catch what an unescaped reason would do.
    expect(() => parse('<testcase name="a <&> b"/>')).toThrow(/Unescaped '<'/);
    const { doc, errors } = parse(junitXml(results()));
    expect(errors).toEqual([]);
    const root = doc.documentElement!;
    expect(root.tagName).toBe('testsuites');
    expect(root.getAttribute('tests')).toBe('6');
    expect(root.getAttribute('failures')).toBe('3');
    const suites = Array.from(root.getElementsByTagName('testsuite'));
    expect(suites.map((s) => s.getAttribute('name'))).toEqual(['streams: rxjs-from', 'streams: pipeline-generator']);
    const cases = Array.from(root.getElementsByTagName('testcase'));
    expect(cases).toHaveLength(6);
    expect(cases.every((c) => c.getAttribute('classname')?.startsWith('stream-lab.streams.'))).toBe(true);
    const failure = (name: string) => cases.find((c) => c.getAttribute('name') === name)!.getElementsByTagName('failure')[0];
    // The out-of-memory run's reason survives its markup characters.
    expect(failure('outcome == completed').textContent).toContain('1 of 2 runs ended otherwise: out-of-memory (heap limit <&> reached); expected completed');
    expect(failure('pipeline-generator: durationMs < 10ms').getAttribute('message')).toMatch(
      /^pipeline-generator: durationMs < 10\.0 ms: FAILED, measured 1001\.0 ms$/,
    );
    expect(failure('pipeline-generator: durationMs < 10ms').textContent).toContain('measured 1002.0 ms');
    expect(failure('baseline: durationMs').getAttribute('type')).toBe('regression');
    expect(failure('baseline: durationMs').textContent).toBe(
      "pipeline-generator: durationMs REGRESSION: median 1001.5 ms against 505.0 ms (+98.3%; 2 runs against 2: against the baseline's 500.0 ms–510.0 ms ± 10%)",
    );
    expect(suites[0].getElementsByTagName('property')[0].getAttribute('value')).toBe(results().command);
  });

  it('writes Markdown tables that read back row by row', () => {
    const md = markdownReport(results());
    expect(md.split('\n')[0]).toBe('### Stream Lab bench, streams lab: ❌ FAILED: 3 of 6');
    const sections = md.split('\n\n');
    const runs = parseMarkdownTable(sections.find((s) => s.startsWith('| Strategy | Node | Runs'))!);
    expect(runs.slice(1).map((r) => [r[0], r[2], r[3], r[5]])).toEqual([
      ['rxjs-from', '2', 'out-of-memory × 1, completed × 1', '❌ FAILED'],
      ['pipeline-generator', '2', 'completed × 2', '✅ passed'],
    ]);
    const checks = parseMarkdownTable(sections.find((s) => s.startsWith('| Check |'))!);
    expect(checks.slice(1).map((r) => [r[0], r[2]])).toEqual([
      ['pipeline-generator: arrayBuffers.peak < 16MB', '✅ passed'],
      ['pipeline-generator: durationMs < 10ms', '❌ FAILED'],
    ]);
    expect(md).toContain('**Against the baseline**: 1 regressions, 0 improvements, 1 figures with no change; not in the baseline: rxjs-from on Node 20.20.2');
    const baseline = parseMarkdownTable(sections.find((s) => s.startsWith('| Strategy | Figure |'))!);
    expect(baseline.slice(1)).toEqual([['pipeline-generator', 'durationMs', '505 ms', '1002 ms', '+98.3%', 'outside 500 ms–510 ms', '❌ regression']]);
  });
});
