/**
 * `npm run bench -- [--lab streams] [--strategies a,b|all] [--<param> N …] [--json]`: runs a lab's
 * strategies one after another through the same runner the server uses, prints the table (or,
 * with --json, one JSON array of summaries) on stdout and progress on stderr. Without --lab it is
 * the streams lab, as before labs existed. `--node 20,22,24` runs every strategy on each of those
 * installed runtimes (npm run runtimes -- add …), one table per Node version.
 */
import { randomUUID } from 'node:crypto';
import type { RunSummary } from '../../lib/protocol';
import { requireLab } from '../../labs/registry';
import { prepareAndStart } from '../runner/lab-run';
import { runtimeForRun } from '../runtimes/for-run';
import { parseBenchArgs, UsageError } from './args';
import { describeParams, formatTable } from './format';

const MIB = 1024 * 1024;

async function main(): Promise<void> {
  const args = parseBenchArgs(process.argv.slice(2));
  const lab = requireLab(args.lab);
  // Every runtime is checked before the first run starts: a missing one would waste the others' time.
  for (const spec of args.nodes) {
    try {
      runtimeForRun(args.lab, args.strategies, spec);
    } catch (err) {
      throw new UsageError(`--node: ${(err as Error).message.replace(/^node: /, '')}`);
    }
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
  if (args.json) process.stdout.write(`${JSON.stringify(summaries, null, 2)}\n`);
  else {
    const { node: _node, ...knobs } = args.params;
    const versions = [...new Set(summaries.map((s) => s.nodeVersion))];
    const tables = versions.map((v) => `${versions.length > 1 ? `Node ${v}:\n` : ''}${formatTable(summaries.filter((s) => s.nodeVersion === v))}`);
    process.stdout.write(`\n${tables.join('\n\n')}\n\nNode ${versions.join(', ') || process.versions.node}, ${describeParams(args.lab, knobs)}\n`);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(err instanceof UsageError ? 2 : 1);
});
