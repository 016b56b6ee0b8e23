/**
 * `npm run bench -- [--lab streams] [--strategies a,b|all] [--<param> N …] [--json] [--expect id=outcome]
 * [--assert "<strategy>: <figure> <op> <value>"] [--checks file.json] [--repeat N] [--baseline old.json]
 * [--compare a,b] [--tolerance P] [--junit out.xml] [--markdown out.md] [--sweep param=v1,v2…]`: runs a lab's strategies one after another
 * through the same runner the server uses, prints the table (or, with --json, one JSON array of
 * summaries) on stdout and progress on stderr. Without --lab it is the streams lab, as before labs
 * existed. `--node 20,22,24` runs every strategy on each of those installed runtimes (npm run
 * runtimes -- add …), one table per Node version. `--repeat N` runs each N times, round by round, and
 * sums each figure up; `--baseline` compares the figures with an earlier --json output
 * (server/cli/baseline.ts). Exits 0 when every run ended as expected (--expect, else the strategy's
 * own expectation), every check held and no figure regressed, 1 when one did not, 2 for bad flags
 * (the message names the flag).
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { codeProblemText, type RunSummary } from '../../lib/protocol';
import { requireLab } from '../../labs/registry';
import { prepareAndStart } from '../runner/lab-run';
import { runtimeForRun } from '../runtimes/for-run';
import { parseBenchArgs, strategyFileArgs, UsageError } from './args';
import { addStrategyFiles, scanUserStrategies } from '../user-strategies';
import { findStrategy, isUserStrategy, userStrategyEntries } from '../../labs/registry';
import { judgeCheck } from './checks';
import { verdictFor } from '../../labs/verdicts';
import { databaseRefusalFor, inspectorRefusalFor } from '../user-strategies/run-fence';
import { describeParams, formatTable, heapLines } from './format';
import { compareWithBaseline, readBaseline, repeatStats } from './baseline';
import { junitXml, markdownReport, type BenchResults } from './reports';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

const MIB = 1024 * 1024;

/**
 * Reads the strategies of yours (the strategies folder, and each --strategy-file from anywhere)
 * and returns the ids of the files' strategies; a file that can't run is a usage error naming
 * file, line and column.
 */
async function readStrategyFiles(argv: string[]): Promise<string[]> {
  const { lab, files } = strategyFileArgs(argv);
  const missing = files.find((f) => !existsSync(f));
  if (missing !== undefined) throw new UsageError(`--strategy-file: no such file "${missing}"`);
  addStrategyFiles(lab, files);
  await scanUserStrategies();
  const wanted = new Set(files.map((f) => resolve(f)));
  const entries = userStrategyEntries(lab).filter((e) => wanted.has(resolve(e.file)));
  const broken = entries.find((e) => e.problem);
  if (broken?.problem) throw new UsageError(`--strategy-file: ${codeProblemText(broken.problem)}`);
  return entries.map((e) => e.id);
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const args = parseBenchArgs(argv, {}, await readStrategyFiles(argv));
  const lab = requireLab(args.lab);
  const database = databaseRefusalFor(args.lab, args.strategies);
  if (database) throw new UsageError(`--${database}`);
  // Every runtime is checked before the first run starts: a missing one would waste the others' time.
  for (const spec of args.nodes) {
    let version: string;
    try {
      version = runtimeForRun(args.lab, args.strategies, spec).version;
    } catch (err) {
      throw new UsageError(`--node: ${(err as Error).message.replace(/^node: /, '')}`);
    }
    // A strategy of yours profiled (or swept) needs a runtime whose fence lets the inspector in (Node 24+).
    const refusal = inspectorRefusalFor(args.lab, args.strategies, args.params, version);
    if (refusal) throw new UsageError(`--${refusal}`);
  }
  let baseline: RunSummary[] | null = null;
  try {
    baseline = args.baseline === null ? null : readBaseline(args.baseline, args.lab);
  } catch (err) {
    throw new UsageError(`--baseline: ${(err as Error).message}`);
  }
  // Round by round (every strategy once, then again), so drift over time hits every strategy alike;
  // a --sweep runs each strategy at each value in turn, the params otherwise the same.
  const swept: Array<Record<string, number>> = args.sweep ? args.sweep.values.map((v) => ({ [args.sweep!.field]: v })) : [{}];
  const jobs = Array.from({ length: args.repeat }, (_, r) => r + 1).flatMap((round) =>
    args.strategies.flatMap((strategy) => swept.flatMap((sweep) => args.nodes.map((node) => ({ strategy, node, round, sweep })))),
  );
  const roundOf = new Map<string, number>();
  const summaries: RunSummary[] = [];
  let stopping = false;
  let current: { stop(): void } | null = null;
  process.on('SIGINT', () => {
    stopping = true;
    current?.stop();
  });
  let reported = false;
  for (const [i, { strategy, node, round, sweep }] of jobs.entries()) {
    if (stopping) break;
    const at = Object.entries(sweep).map(([k, v]) => ` at ${k}=${v}`)[0] ?? '';
    const label = `[${i + 1}/${jobs.length}] ${strategy}${at}${node === null ? '' : ` on Node ${node}`}${args.repeat > 1 ? ` (round ${round} of ${args.repeat})` : ''}`;
    let lastLog = 0;
    let total: number | null = null;
    const runId = randomUUID();
    // --files: the run's profiles and snapshots, named by run and strategy (a snapshot decompressed: DevTools opens it as is).
    const saveFile = (strategy: string, name: string, data: Buffer) => {
      if (!args.files) return;
      mkdirSync(args.files, { recursive: true });
      const plain = name.endsWith('.gz') ? gunzipSync(data) : data;
      writeFileSync(join(args.files, `${runId.slice(0, 8)}-${strategy}-${name.replace(/\.gz$/, '')}`), plain);
    };
    const handle = prepareAndStart({
      lab: args.lab,
      runId,
      strategy,
      params: { ...args.params, ...sweep, node } as RunSummary['params'],
      onSample: (s) => {
        if (s.t - lastLog < 1000) return;
        lastLog = s.t;
        const done = lab.schema.progress ? s[lab.schema.progress.done] : undefined;
        const pct = total && done !== undefined ? `${((100 * done) / total).toFixed(0)}% done, ` : '';
        process.stderr.write(`\r${label}: ${pct}rss ${(s.rss / MIB).toFixed(0)} MB, arrayBuffers ${(s.arrayBuffers / MIB).toFixed(0)} MB   `);
      },
      onProfile: (profile) => saveFile(strategy, 'profile.cpuprofile', Buffer.from(JSON.stringify(profile))),
      onFile: (name, data) => saveFile(strategy, name, data),
      onData: (status) => {
        if (status.unit === 'database') {
          if (status.state === 'generating') process.stderr.write('\rpreparing: the PostgreSQL database\x1b[K');
          return;
        }
        const amount = (n: number) => (status.unit === 'rows' ? `${n} rows` : `${(n / MIB).toFixed(0)} MiB`);
        if (status.state === 'generating') process.stderr.write(`\rpreparing: ${amount(status.writtenBytes)} of ${amount(status.sizeBytes)}`);
        if (status.state === 'ready' && !reported) {
          reported = true;
          process.stderr.write(`\rprepared: ${amount(status.sizeBytes)} of data\x1b[K\n`);
        }
      },
    });
    current = handle;
    const prepared = await handle.prepared;
    // A lab that can't prepare (no disk space, no database) ends the bench with its reason, as before.
    if (!prepared && !stopping) throw new Error((await handle.done).reason ?? 'the lab could not prepare the run');
    total = prepared?.total ?? null;
    const summary = await handle.done;
    current = null;
    process.stderr.write(
      `\r${label}: ${summary.outcome} in ${(summary.durationMs / 1000).toFixed(1)} s${summary.reason ? ` (${summary.reason})` : ''}\x1b[K\n`,
    );
    summaries.push(summary);
    roundOf.set(summary.runId, round);
  }
  const results = judgeRuns(args, summaries, roundOf, baseline, stopping);
  if (args.json) {
    // As before, one array of summaries; each carries its verdict, and its checks' results, its
    // round and its figures' comparisons with the baseline when those were asked for.
    // The verdict compares a run with the other runs of its round, as the page does with an experiment's.
    const out = summaries.map((s) => ({
      ...s,
      verdict: verdictFor(
        s,
        summaries.filter((o) => roundOf.get(o.runId) === roundOf.get(s.runId) && o.nodeVersion === s.nodeVersion),
      ),
      ...(args.checks.length && { checks: results.checks.filter((c) => c.runId === s.runId).map(({ runId: _r, ...c }) => c) }),
      ...(args.repeat > 1 && { round: roundOf.get(s.runId) }),
      ...(results.comparisons && { comparisons: results.comparisons.filter((c) => c.strategy === s.strategy && c.nodeVersion === s.nodeVersion) }),
    }));
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  } else {
    const { node: _node, ...knobs } = args.params;
    const versions = [...new Set(summaries.map((s) => s.nodeVersion))];
    // One table per runtime, and per swept value.
    const field = args.sweep?.field;
    const groups = versions.flatMap((v) => (args.sweep?.values ?? [null]).map((x) => ({ v, x })));
    const valueOf = (s: RunSummary) => (field ? (s.params as Record<string, unknown>)[field] : null);
    const tables = groups
      .map(({ v, x }) => ({ v, x, runs: summaries.filter((s) => s.nodeVersion === v && (x === null || valueOf(s) === x)) }))
      .filter((g) => g.runs.length > 0)
      .map(
        ({ v, x, runs }) =>
          `${[versions.length > 1 ? `Node ${v}` : '', x === null ? '' : `${field}=${x}`].filter(Boolean).join(', ')}${versions.length > 1 || x !== null ? ':\n' : ''}${formatTable(runs)}`,
      );
    process.stdout.write(`\n${tables.join('\n\n')}\n\nNode ${versions.join(', ') || process.versions.node}, ${describeParams(args.lab, knobs)}\n`);
    // Repeats and baselines are summed up in the same tables the Markdown report has.
    if (args.repeat > 1 || results.comparisons) process.stdout.write(`\n${markdownReport(results)}`);
    const heap = summaries.flatMap(heapLines);
    if (heap.length) process.stdout.write(`\n${heap.join('\n')}\n`);
  }
  if (args.junit) writeFileSync(args.junit, junitXml(results));
  if (args.markdown) {
    const md = markdownReport(results);
    writeFileSync(args.markdown, md);
    // GitHub Actions shows what a step appends to this file on the job's page.
    if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, `${md}\n`);
  }
}

/** The command as typed, quoted where a shell would need it, so a report reader can repeat it. */
function commandOf(argv: readonly string[]): string {
  const quote = (a: string) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);
  return ['npm run bench --', ...argv.map(quote)].join(' ');
}

/**
 * How the runs ended against what was expected of them (--expect, else the strategy's own
 * expectation), the checks (judged round by round: a check against another strategy's figure takes
 * that strategy's run of the same round), and the figures against the baseline: each told on
 * stderr; the exit code is 1 when any fell short.
 */
function judgeRuns(
  args: ReturnType<typeof parseBenchArgs>,
  summaries: RunSummary[],
  roundOf: ReadonlyMap<string, number>,
  baseline: RunSummary[] | null,
  stopping: boolean,
): BenchResults {
  const rounds = [...new Set(summaries.map((s) => roundOf.get(s.runId)))];
  const checks = rounds.flatMap((round) => {
    const ofRound = summaries.filter((s) => roundOf.get(s.runId) === round);
    return args.checks.flatMap((c) =>
      judgeCheck(c, args.lab, ofRound).map((r, i) => ({ ...r, runId: ofRound.filter((s) => s.strategy === c.strategy)[i].runId })),
    );
  });
  const unexpected = summaries.filter((s) => s.outcome !== expectedOutcome(args, s.strategy));
  for (const s of unexpected) {
    process.stderr.write(`bench: ${s.strategy} ended ${s.outcome}, expected ${expectedOutcome(args, s.strategy)}${s.reason ? ` (${s.reason})` : ''}\n`);
  }
  for (const c of checks) process.stderr.write(`${c.ok ? 'check' : 'bench: check'} ${c.message}\n`);
  const compared = baseline && compareWithBaseline(args.lab, summaries, baseline, args.tolerance, args.compare);
  const comparisons = compared?.comparisons ?? null;
  const notInBaseline = compared?.missing ?? [];
  for (const what of notInBaseline) process.stderr.write(`baseline: ${args.baseline} has no comparable runs of ${what}: nothing to compare it with\n`);
  const regressions = (comparisons ?? []).filter((c) => c.change === 'regression');
  for (const c of regressions) process.stderr.write(`bench: ${c.message}\n`);
  if (stopping || unexpected.length || checks.some((c) => !c.ok) || regressions.length) process.exitCode = 1;
  return {
    lab: args.lab,
    command: commandOf(process.argv.slice(2)),
    summaries,
    expected: Object.fromEntries(args.strategies.map((id) => [id, expectedOutcome(args, id)])),
    checks,
    stats: args.repeat > 1 ? repeatStats(args.lab, summaries) : [],
    comparisons,
    notInBaseline,
  };
}

/** What a strategy's run should end as: --expect's word for it, else its own declared expectation (a strategy of yours: completed). */
function expectedOutcome(args: ReturnType<typeof parseBenchArgs>, id: string): string {
  return args.expect[id] ?? findStrategy(args.lab, id)?.expects.outcome ?? 'completed';
}

main().catch((err: unknown) => {
  process.stderr.write(`bench: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(err instanceof UsageError ? 2 : 1);
});
