/**
 * `npm run bench:overhead -- [--size-mb N] [--repeat N] [--strategies a,b]`: throughput at
 * --delay-ms 0 with the sampler at its default interval vs the sampler off, runs alternating so
 * drift on a shared machine hits both sides alike. Prints median MB/s and the difference.
 */
import { randomUUID } from 'node:crypto';
import { MIB } from '../../../lib/protocol/params';
import { DEFAULT_STREAMS_PARAMS, type StreamsParams } from '../shared/params';
import { ensureDataFile } from '../../../server/data/data-files';
import { startStreamsRun } from '../parent/run';
import { UsageError } from '../../../server/cli/args';

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

async function main(): Promise<void> {
  const sizeMb = Number(flag('--size-mb', '512'));
  const repeat = Number(flag('--repeat', '5'));
  const strategies = flag('--strategies', 'for-await,pipeline-generator').split(',');
  if (!Number.isInteger(repeat) || repeat < 1 || repeat > 50) throw new UsageError('--repeat must be between 1 and 50');
  const file = await ensureDataFile({ sizeMb });
  const rows: string[] = [];
  for (const strategy of strategies) {
    const rates: Record<'on' | 'off', number[]> = { on: [], off: [] };
    for (let i = 0; i < repeat; i++) {
      for (const mode of ['on', 'off'] as const) {
        const params: StreamsParams = {
          ...DEFAULT_STREAMS_PARAMS,
          sizeMb,
          delayMs: 0,
          sampleMs: mode === 'on' ? DEFAULT_STREAMS_PARAMS.sampleMs : null,
          budgetMb: null,
        };
        const s = await startStreamsRun({ runId: randomUUID(), strategy, params, file }).done;
        // A completed run took time, so it has a rate.
        if (s.outcome !== 'completed' || s.mbPerSec === null) throw new Error(`${strategy} ended ${s.outcome}: ${s.reason}`);
        rates[mode].push(s.mbPerSec);
        process.stderr.write(`${strategy} sampler ${mode} #${i + 1}: ${s.mbPerSec.toFixed(0)} MB/s\n`);
      }
    }
    const on = median(rates.on);
    const off = median(rates.off);
    rows.push(`| ${strategy} | ${off.toFixed(0)} | ${on.toFixed(0)} | ${(((on - off) / off) * 100).toFixed(1)} % |`);
  }
  process.stdout.write(
    `\nfile ${(file.bytes / MIB).toFixed(0)} MiB, delay 0, ${repeat} runs each, median MB/s\n\n` +
      `| strategy | sampler off | sampler ${DEFAULT_STREAMS_PARAMS.sampleMs} ms | difference |\n|---|---|---|---|\n${rows.join('\n')}\n`,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`bench:overhead: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(err instanceof UsageError ? 2 : 1);
});
