/**
 * CPU on every run: the child measures its own CPU time from the strategy's start, so a run that
 * burns a known amount of CPU per chunk shows that amount above a run that does not.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_STREAMS_PARAMS, type StreamsParams } from '../../labs/streams/shared/params';
import { ensureDataFile, type DataFile } from '../data/data-files';
import { startStreamsRun } from '../../labs/streams/parent/run';
import { withTempDataDir } from '../test-support';

describe('CPU figures', () => {
  withTempDataDir('cpu');
  let file: DataFile;
  beforeAll(async () => {
    file = await ensureDataFile({ sizeMb: 8 });
  });

  const run = async (cpuUs: number) => {
    const params: StreamsParams = { ...DEFAULT_STREAMS_PARAMS, sizeMb: 8, delayMs: 0, cpuUs, budgetMb: null };
    return startStreamsRun({ runId: `cpu-${cpuUs}`, strategy: 'for-await', params, file }).done;
  };

  it('reports CPU time within 20 % of chunks × 4 ms above the idle run for --cpu-us 4000', async () => {
    // 4 ms a chunk (512 ms over 128 chunks), not 1: the idle run's own CPU (start-up, reading, GC)
    // varies by tens of ms when other processes share the cores (+157 ms for an expected 128 once,
    // with the suite's two files at a time), noise the larger signal keeps well inside 20 %.
    const idle = await run(0);
    const busy = await run(4000);
    expect(busy.outcome).toBe('completed');
    const cpuMs = (s: typeof idle) => s.cpu!.userMs + s.cpu!.systemMs;
    const extra = cpuMs(busy) - cpuMs(idle);
    const expected = busy.chunks * 4;
    console.log(
      `cpu: idle run ${cpuMs(idle).toFixed(1)} ms, --cpu-us 4000 run ${cpuMs(busy).toFixed(1)} ms over ${busy.chunks} chunks: +${extra.toFixed(1)} ms (expected ${expected}); peak ${busy.cpu!.peakPct}% of a core`,
    );
    // On a quiet machine the extra is within 20 % (docs/results.md §1: +4.5 … +10.7 %). The burn
    // loop spins on the wall clock, so when other processes take the core (the suite runs files in
    // parallel) it gets less CPU, never more: the lower bound has room for that, the upper not.
    expect(extra).toBeGreaterThan(0.6 * expected);
    expect(extra).toBeLessThan(1.2 * expected);
    // Burning the CPU in a loop keeps one core busy: the peak reading says so.
    expect(busy.cpu!.peakPct).toBeGreaterThan(50);
  });
});
