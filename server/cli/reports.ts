/**
 * What a bench run tells a CI job (issue 28): the test cases it was held to (each run's outcome
 * against the expected one, each check, each figure against the baseline), as a JUnit XML file a CI
 * server lists as tests, and as Markdown tables fit for a job summary. Pure: bench.ts gathers the
 * results, these only write them.
 */
import type { RunSummary } from '../../lib/protocol';
import { formatMb, formatMs } from '../../lib/readouts/format';
import { groupRuns, type Comparison, type FigureStats } from './baseline';
import type { CheckResult, Figure } from './checks';

export interface BenchResults {
  lab: string;
  /** The command as typed, so a reader can repeat it. */
  command: string;
  summaries: readonly RunSummary[];
  /** What each strategy's runs were expected to end as (--expect, else the strategy's own). */
  expected: Readonly<Record<string, string>>;
  /** Every check judged on every run it names (server/cli/checks.ts), with the run it was judged on. */
  checks: ReadonlyArray<CheckResult & { runId: string }>;
  /** Per strategy, Node and figure, when runs were repeated. */
  stats: readonly FigureStats[];
  /** Per strategy, Node and figure, when a baseline was given; null without one. */
  comparisons: readonly Comparison[] | null;
  /** Strategies (and Nodes) of this run the baseline had no comparable runs of: "x on Node 20.20.2". */
  notInBaseline: readonly string[];
}

export interface TestCase {
  /** "streams: rxjs-from" (with " on Node v…" when several runtimes ran). */
  suite: string;
  /** What the case holds the runs to: the expected outcome, a check, or a figure against the baseline. */
  kind: 'outcome' | 'check' | 'regression';
  name: string;
  ok: boolean;
  /** What was measured against what was wanted: the failure's text, or the pass's for the Markdown. */
  message: string;
  /** Seconds the case's runs took (their durations), for the JUnit time attribute. */
  seconds: number;
}

/** One test case per strategy (and Node) × what it was held to: its outcome, each check, each figure compared with the baseline. */
export function testCases(r: BenchResults): TestCase[] {
  const groups = groupRuns(r.summaries);
  const severalNodes = new Set(groups.map((g) => g.nodeVersion)).size > 1;
  return groups.flatMap((g) => {
    const suite = `${r.lab}: ${g.strategy}${severalNodes ? ` on Node ${g.nodeVersion}` : ''}`;
    const seconds = g.runs.reduce((t, s) => t + s.durationMs, 0) / 1000;
    const want = r.expected[g.strategy] ?? 'completed';
    const wrong = g.runs.filter((s) => s.outcome !== want);
    const outcome: TestCase = {
      suite,
      kind: 'outcome',
      name: `outcome == ${want}`,
      ok: wrong.length === 0,
      message:
        wrong.length === 0
          ? `${g.runs.length > 1 ? `all ${g.runs.length} runs` : 'the run'} ended ${want}`
          : `${wrong.length} of ${g.runs.length} runs ended otherwise: ${wrong.map((s) => `${s.outcome}${s.reason ? ` (${s.reason})` : ''}`).join('; ')}; expected ${want}`,
      seconds,
    };
    const runIds = new Set(g.runs.map((s) => s.runId));
    const mine = r.checks.filter((c) => runIds.has(c.runId));
    const checks = [...new Set(mine.map((c) => c.check))].map((text): TestCase => {
      const results = mine.filter((c) => c.check === text);
      return { suite, kind: 'check', name: text, ok: results.every((c) => c.ok), message: results.map((c) => c.message).join('\n'), seconds: 0 };
    });
    const baseline = (r.comparisons ?? [])
      .filter((c) => c.strategy === g.strategy && c.nodeVersion === g.nodeVersion)
      .map((c): TestCase => ({ suite, kind: 'regression', name: `baseline: ${c.figure}`, ok: c.change !== 'regression', message: c.message, seconds: 0 }));
    return [outcome, ...checks, ...baseline];
  });
}

/** Text as XML character data or an attribute value: markup escaped, characters XML 1.0 forbids dropped. */
function xml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** The JUnit XML file: one testsuite per strategy (and Node), one testcase per thing it was held to. */
export function junitXml(r: BenchResults): string {
  const cases = testCases(r);
  const suites = [...new Set(cases.map((c) => c.suite))];
  const failures = cases.filter((c) => !c.ok).length;
  const total = cases.reduce((t, c) => t + c.seconds, 0);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="stream-lab bench: ${xml(r.lab)}" tests="${cases.length}" failures="${failures}" time="${total.toFixed(3)}">`,
  ];
  for (const suite of suites) {
    const mine = cases.filter((c) => c.suite === suite);
    const strategy = suite.replace(/^[^:]+: /, '').replace(/ on Node .*$/, '');
    lines.push(
      `  <testsuite name="${xml(suite)}" tests="${mine.length}" failures="${mine.filter((c) => !c.ok).length}" time="${mine.reduce((t, c) => t + c.seconds, 0).toFixed(3)}">`,
      `    <properties><property name="command" value="${xml(r.command)}"/></properties>`,
    );
    for (const c of mine) {
      const open = `    <testcase classname="stream-lab.${xml(r.lab)}.${xml(strategy)}" name="${xml(c.name)}" time="${c.seconds.toFixed(3)}"`;
      if (c.ok) lines.push(`${open}/>`);
      else lines.push(`${open}>`, `      <failure message="${xml(c.message.split('\n')[0])}" type="${c.kind}">${xml(c.message)}</failure>`, '    </testcase>');
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>', '');
  return lines.join('\n');
}

/** A figure as a table cell reads: MB for bytes, ms or s for times, plain for counts. */
function cell(value: number, unit: Figure['unit']): string {
  if (unit === 'bytes') return formatMb(value);
  if (unit === 'ms') return formatMs(value);
  return String(Math.round(value * 1000) / 1000);
}

function row(cells: readonly string[]): string {
  // Backslashes first, so an escaped pipe in the text stays text.
  return `| ${cells.map((c) => c.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\n/g, '<br>')).join(' | ')} |`;
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [row(header), `|${header.map(() => '---').join('|')}|`, ...rows.map(row)].join('\n');
}

/** Text as a Markdown code span on one line: fenced with more backticks than it holds in a row. */
function codeSpan(text: string): string {
  const flat = text.replace(/\s*\n\s*/g, ' ');
  const fence = '`'.repeat(Math.max(0, ...(flat.match(/`+/g) ?? []).map((m) => m.length)) + 1);
  return fence.length > 1 ? `${fence} ${flat} ${fence}` : `${fence}${flat}${fence}`;
}

const PASS = '✅ passed';
const FAIL = '❌ FAILED';

/** The figures the repeat table shows (all figures are in --json). */
const SHOWN = ['durationMs', 'cpu.totalMs', 'rss.peak', 'heapUsed.peak', 'arrayBuffers.peak', 'eventLoopDelay.p99'];

/** The Markdown a CI job summary shows: the runs, the checks, the repeat figures and the baseline's verdicts. */
export function markdownReport(r: BenchResults): string {
  const cases = testCases(r);
  const failed = cases.filter((c) => !c.ok).length;
  const versions = [...new Set(r.summaries.map((s) => s.nodeVersion))].join(', ');
  const parts = [
    `### Stream Lab bench, ${r.lab} lab: ${failed === 0 ? `${PASS} (${cases.length} of ${cases.length})` : `${FAIL}: ${failed} of ${cases.length}`}`,
    `${codeSpan(r.command)} on Node ${versions}`,
  ];
  const groups = groupRuns(r.summaries);
  parts.push(
    table(
      ['Strategy', 'Node', 'Runs', 'Ended', 'Expected', 'Result'],
      groups.map((g) => {
        const want = r.expected[g.strategy] ?? 'completed';
        const ended = [...new Set(g.runs.map((s) => s.outcome))].map((o) => `${o} × ${g.runs.filter((s) => s.outcome === o).length}`).join(', ');
        return [g.strategy, g.nodeVersion, String(g.runs.length), ended, want, g.runs.every((s) => s.outcome === want) ? PASS : FAIL];
      }),
    ),
  );
  const checkCases = cases.filter((c) => c.kind === 'check');
  if (checkCases.length) {
    parts.push(
      '**Checks**',
      table(
        ['Check', 'Measured', 'Result'],
        checkCases.map((c) => [c.name, c.message, c.ok ? PASS : FAIL]),
      ),
    );
  }
  const repeated = r.stats.filter((s) => s.stats.n > 1 && SHOWN.includes(s.figure));
  if (repeated.length) {
    parts.push(
      '**Repeated runs** (median, min–max, spread = (max − min) / median)',
      table(
        ['Strategy', 'Node', 'Figure', 'Runs', 'Median', 'Min–max', 'Spread'],
        repeated.map((s) => [
          s.strategy,
          s.nodeVersion,
          s.figure,
          String(s.stats.n),
          cell(s.stats.median, s.unit),
          `${cell(s.stats.min, s.unit)} – ${cell(s.stats.max, s.unit)}`,
          `${(s.stats.spread * 100).toFixed(1)}%`,
        ]),
      ),
    );
  }
  if (r.comparisons) {
    const changed = r.comparisons.filter((c) => c.change !== 'no change');
    const same = r.comparisons.length - changed.length;
    parts.push(
      `**Against the baseline**: ${r.comparisons.filter((c) => c.change === 'regression').length} regressions, ${r.comparisons.filter((c) => c.change === 'improvement').length} improvements, ${same} figures with no change` +
        (r.notInBaseline.length ? `; not in the baseline: ${r.notInBaseline.join(', ')}` : ''),
    );
    if (changed.length) {
      parts.push(
        table(
          ['Strategy', 'Figure', 'Baseline median', 'Now median', 'Change', 'Rule', 'Verdict'],
          changed.map((c) => [
            c.strategy,
            c.figure,
            cell(c.baseline.median, c.unit),
            cell(c.current.median, c.unit),
            `${c.relativeChange >= 0 ? '+' : ''}${(c.relativeChange * 100).toFixed(1)}%`,
            c.rule === 'mann-whitney'
              ? `Mann–Whitney p = ${c.p!.toPrecision(2)} (${c.current.n} vs ${c.baseline.n})`
              : `outside ${cell(c.baseline.min, c.unit)}–${cell(c.baseline.max, c.unit)}`,
            c.change === 'regression' ? `❌ ${c.change}` : c.change,
          ]),
        ),
      );
    }
  }
  return `${parts.join('\n\n')}\n`;
}
