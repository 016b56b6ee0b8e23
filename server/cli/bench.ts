/**
 * `npm run bench -- [--lab streams] [--strategies a,b|all] [--<param> N …] [--json] [--expect id=outcome]
 * [--assert "<strategy>: <figure> <op> <value>"] [--checks file.json]`: runs a lab's
 * strategies one after another through the same runner the server uses, prints the table (or,
 * with --json, one JSON array of summaries) on stdout and progress on stderr. Without --lab it is
 * the streams lab, as before labs existed. `--node 20,22,24` runs every strategy on each of those
 * installed runtimes (npm run runtimes -- add …), one table per Node version. Exits 0 when every run
 * ended as expected (--expect, else the strategy's own expectation) and every check held, 1 when one
 * did not, 2 for bad flags (the message names the flag).
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
import { profilingRefusal } from '../user-strategies/run-fence';
import { describeParams, formatTable } from './format';

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
  // Every runtime is checked before the first run starts: a missing one would waste the others' time.
  for (const spec of args.nodes) {
    let version: string;
    try {
      version = runtimeForRun(args.lab, args.strategies, spec).version;
    } catch (err) {
      throw new UsageError(`--node: ${(err as Error).message.replace(/^node: /, '')}`);
    }
    // A profiled strategy of yours needs a runtime whose fence lets the inspector in (Node 24+).
    const refusal = args.params.profile ? args.strategies.filter((id) => isUserStrategy(args.lab, id)).map((id) => profilingRefusal(id, version))[0] : null;
    if (refusal) throw new UsageError(`--${refusal}`);
  }
  const jobs = args.strategies.flatMap((strategy) => args.nodes.map((node) => ({ strategy, node })));
  const summaries: RunSummary[] = [];
  let stopping = false;
  let current: { stop(): void } | null = null;
  process.on('SIGINT', () => {
    stopping = true;
    current?.stop();
  });
  let reported = false;
  for (const [i, { strategy, node }] of jobs.entries()) {
    if (stopping) break;
    const label = `[${i + 1}/${jobs.length}] ${strategy}${node === null ? '' : ` on Node ${node}`}`;
    let lastLog = 0;
    let total: number | null = null;
    const handle = prepareAndStart({
      lab: args.lab,
      runId: randomUUID(),
      strategy,
      params: { ...args.params, node } as RunSummary['params'],
      onSample: (s) => {
        if (s.t - lastLog < 1000) return;
        lastLog = s.t;
        const done = lab.schema.progress ? s[lab.schema.progress.done] : undefined;
        const pct = total && done !== undefined ? `${((100 * done) / total).toFixed(0)}% done, ` : '';
        process.stderr.write(`\r${label}: ${pct}rss ${(s.rss / MIB).toFixed(0)} MB, arrayBuffers ${(s.arrayBuffers / MIB).toFixed(0)} MB   `);
      },
      onData: (status) => {
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
  }
  const verdict = judgeRuns(args, summaries, stopping);
  if (args.json) {
    // As before, one array of summaries; with checks, each carries its strategy's results.
    const out = args.checks.length
      ? summaries.map((s) => ({ ...s, checks: verdict.checks.filter((c) => c.runId === s.runId).map(({ runId: _r, ...c }) => c) }))
      : summaries;
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  } else {
    const { node: _node, ...knobs } = args.params;
    const versions = [...new Set(summaries.map((s) => s.nodeVersion))];
    const tables = versions.map((v) => `${versions.length > 1 ? `Node ${v}:\n` : ''}${formatTable(summaries.filter((s) => s.nodeVersion === v))}`);
    process.stdout.write(`\n${tables.join('\n\n')}\n\nNode ${versions.join(', ') || process.versions.node}, ${describeParams(args.lab, knobs)}\n`);
  }
}

/**
 * How the runs ended against what was expected of them (--expect, else the strategy's own
 * expectation), and the checks: each told on stderr; the exit code is 1 when any fell short.
 */
function judgeRuns(args: ReturnType<typeof parseBenchArgs>, summaries: RunSummary[], stopping: boolean) {
  const checks = args.checks.flatMap((c) =>
    judgeCheck(c, args.lab, summaries).map((r, i) => ({ ...r, runId: summaries.filter((s) => s.strategy === c.strategy)[i].runId })),
  );
  const unexpected = summaries.filter((s) => s.outcome !== expectedOutcome(args, s.strategy));
  for (const s of unexpected) {
    process.stderr.write(`bench: ${s.strategy} ended ${s.outcome}, expected ${expectedOutcome(args, s.strategy)}${s.reason ? ` (${s.reason})` : ''}\n`);
  }
  for (const c of checks) process.stderr.write(`${c.ok ? 'check' : 'bench: check'} ${c.message}\n`);
  if (stopping || unexpected.length || checks.some((c) => !c.ok)) process.exitCode = 1;
  return { checks, unexpected };
}

/** What a strategy's run should end as: --expect's word for it, else its own declared expectation (a strategy of yours: completed). */
function expectedOutcome(args: ReturnType<typeof parseBenchArgs>, id: string): string {
  return args.expect[id] ?? findStrategy(args.lab, id)?.expects.outcome ?? 'completed';
}

main().catch((err: unknown) => {
  process.stderr.write(`bench: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(err instanceof UsageError ? 2 : 1);
});
