/** `npm run make-data -- [--size-mb N] [--seed N]`: makes (or finds) a streams data file and prints its manifest. */
import { MIB } from '../../../lib/protocol/params';
import { streamsParamsSchema } from '../shared/params';
import { ensureDataFile } from '../../../server/data/data-files';
import { parseBenchArgs, UsageError } from '../../../server/cli/args';
import { LAB_ID } from '../shared/id';

async function main(): Promise<void> {
  // The streams lab's flags (its data files are what this makes).
  const params = streamsParamsSchema.parse(parseBenchArgs(['--lab', LAB_ID, ...process.argv.slice(2)]).params);
  const file = await ensureDataFile({
    sizeMb: params.sizeMb,
    seed: params.seed,
    onProgress: (w, total) => process.stderr.write(`\r${(w / MIB).toFixed(0)} / ${(total / MIB).toFixed(0)} MiB`),
  });
  process.stderr.write('\n');
  process.stdout.write(`${JSON.stringify(file, null, 2)}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`make-data: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(err instanceof UsageError ? 2 : 1);
});
