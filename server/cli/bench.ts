/**
 * `npm run bench -- [--strategies a,b|all] [--size-mb N] [--delay-ms N] [--sample-ms N|off]
 *  [--retained] [--budget-mb N|off] [--json]`: runs strategies one after another through the same
 * runner the server uses, prints the table (or, with --json, one JSON array) on stdout and progress
 * on stderr.
 */
import { randomUUID } from 'node:crypto';
import { MIB } from '../../lib/params';
import type { RunSummary } from '../../lib/protocol';
import { ensureDataFile } from '../data/data-files';
import { startRun } from '../runner/runner';
import { parseBenchArgs, UsageError } from './args';
import { formatTable } from './format';

async function main(): Promise<void> {
  const args = parseBenchArgs(process.argv.slice(2));
  const file = await ensureDataFile({
    sizeMb: args.params.sizeMb,
    seed: args.params.seed,
    onProgress: (w, total) => process.stderr.write(`\rgenerating data file: ${(w / MIB).toFixed(0)} / ${(total / MIB).toFixed(0)} MiB`),
  });
  process.stderr.write(`\ndata file ${file.path} (${file.bytes} bytes, ${file.rows} rows)\n`);
  const summaries: RunSummary[] = [];
  let stopping = false;
  let current: { stop(): void } | null = null;
  process.on('SIGINT', () => {
    stopping = true;
    current?.stop();
  });
  for (const [i, strategy] of args.strategies.entries()) {
    if (stopping) break;
    const label = `[${i + 1}/${args.strategies.length}] ${strategy}`;
    let lastLog = 0;
    const handle = startRun({
      runId: randomUUID(),
      strategy,
      params: args.params,
      file,
      onSample: (s) => {
        if (s.t - lastLog < 1000) return;
        lastLog = s.t;
        const pct = ((100 * s.bytesProcessed) / file.bytes).toFixed(0);
        process.stderr.write(`\r${label}: ${pct}% processed, rss ${(s.rss / MIB).toFixed(0)} MB, arrayBuffers ${(s.arrayBuffers / MIB).toFixed(0)} MB   `);
      },
    });
    current = handle;
    const summary = await handle.done;
    current = null;
    process.stderr.write(`\r${label}: ${summary.outcome} in ${(summary.durationMs / 1000).toFixed(1)} s${summary.reason ? ` (${summary.reason})` : ''}\x1b[K\n`);
    summaries.push(summary);
  }
  if (args.json) process.stdout.write(`${JSON.stringify(summaries, null, 2)}\n`);
  else process.stdout.write(`\n${formatTable(summaries)}\n\nNode ${process.versions.node}, file ${(file.bytes / MIB).toFixed(0)} MiB, delay ${args.params.delayMs} ms/chunk, chunk ${args.params.chunkKb} KiB, sample ${args.params.sampleMs ?? 'off'} ms${args.params.retained ? ', retained mode' : ''}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`bench: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(err instanceof UsageError ? 2 : 1);
});
