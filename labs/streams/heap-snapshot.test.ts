/**
 * What holds the file, from heap snapshots of real runs (server/runner/heap-watch.ts, analysed by
 * server/heap/snapshot-analysis.ts): rxjs-from's pending chunks sit in one Array held by the
 * closures of rxjs's mergeInternals (concatMap is mergeMap with concurrency 1); a pull pipeline
 * at the same moment of its run holds about one chunk.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MIB } from '../../lib/protocol/params';
import { formatRetainerPath, type HeapHolder } from '../../lib/heap/analysis';
import type { HeapSnapshotSummary } from '../../lib/protocol';
import { DEFAULT_STREAMS_PARAMS, type StreamsParams } from './shared/params';
import type { DataFile } from '../../server/data/data-files';
import { withDataFiles } from '../../server/test-support';
import { liveChildCount } from '../../server/runner/runner';
import { startStreamsRun } from './parent/run';
import { isHarnessScript } from '../../server/runner/harness-scripts';

let seq = 0;
// 32 MiB in 64 KiB chunks, 5 ms each: the reader is done in well under a second, the consumer
// needs ~2.6 s, so rxjs-from holds most of the file for a while.
const params = (heapSnapshot: string): StreamsParams => ({ ...DEFAULT_STREAMS_PARAMS, sizeMb: 32, delayMs: 5, budgetMb: null, timeoutS: 60, heapSnapshot });
const THRESHOLD = 16 * MIB;

async function snapshotOf(strategy: string, trigger: string, file: DataFile): Promise<HeapSnapshotSummary> {
  const s = await startStreamsRun({ runId: `heap-snap-${++seq}`, strategy, params: params(trigger), file }).done;
  expect([s.outcome, s.reason]).toEqual(['completed', null]);
  expect(s.heapSnapshots, `${strategy}: no snapshot`).toHaveLength(1);
  return s.heapSnapshots![0];
}

const onPath = (h: HeapHolder) => formatRetainerPath(h.path);

describe('heap snapshots of the streams lab', () => {
  const data = withDataFiles('heap-snapshot', [32]);
  let file: DataFile;
  beforeAll(() => ([file] = data.files));
  afterEach(() => expect(liveChildCount()).toBe(0));

  it("rxjs-from's largest retainer holds most of its arrayBuffers through rxjs's mergeInternals; pipeline-generator at the same moment holds nothing of the file", async () => {
    const push = await snapshotOf('rxjs-from', `when=arrayBuffers>${THRESHOLD / MIB}MB`, file);
    const said = JSON.stringify({ ...push, analysis: push.analysis && { ...push.analysis, largest: push.analysis.largest.slice(0, 2).map(onPath) } });
    expect(push.error, said).toBeNull();
    expect(push.before!.arrayBuffers, said).toBeGreaterThan(THRESHOLD);
    expect(push.pauseMs, said).toBeGreaterThan(0);
    const top = push.analysis!.largest[0];
    // At least half of that moment's arrayBuffers (the snapshot's own count of backing stores).
    expect(top.retainedBytes, said).toBeGreaterThan(push.analysis!.arrayBufferBytes / 2);
    const fns = top.path.flatMap((step) => step.functions ?? []);
    expect(
      fns.some((f) => /node_modules\/rxjs\/.*mergeInternals/.test(f.script)),
      said,
    ).toBe(true);
    expect(fns.map((f) => f.name)).toEqual(expect.arrayContaining(['outerNext']));
    // rxjs's closures keep it, whatever of Stream Lab's holds the subscription further up: the strategy's.
    expect(top.harness, said).toBeUndefined();

    const pull = await snapshotOf('pipeline-generator', `at=${(push.atMs / 1000).toFixed(2)}`, file);
    const pullSaid = JSON.stringify({ ...pull, analysis: pull.analysis && { ...pull.analysis, largest: pull.analysis.largest.slice(0, 2).map(onPath) } });
    expect(pull.error, pullSaid).toBeNull();
    // No object over 5 % of the file.
    expect(pull.analysis!.largest[0].retainedBytes, pullSaid).toBeLessThan(0.05 * file.bytes);
    // Beside so little, the sampler's event-loop histogram is among the largest: labelled the
    // harness's, with the sampler's closures (child/bootstrap.mjs) on its path.
    const harness = pull.analysis!.largest.filter((h) => h.harness);
    expect(harness.length, pullSaid).toBeGreaterThan(0);
    // Where the path as kept shows the nearest script of ours (not Node's), it says whose the holder is.
    for (const h of [...push.analysis!.largest, ...pull.analysis!.largest]) {
      const kept = h.pathOmitted > 0 ? h.path.slice(0, -1) : h.path;
      const nearest = kept.flatMap((step) => step.functions ?? []).find((f) => f.script !== '' && !f.script.startsWith('node:'));
      if (nearest) expect(h.harness ?? false, `${onPath(h)} (${nearest.script})`).toBe(isHarnessScript(nearest.script));
    }
    expect(
      harness.some((h) => h.path.some((step) => step.className === 'Sampler')),
      pullSaid,
    ).toBe(true);
  });

  it("refuses a snapshot the run's RSS budget can't afford, saying why, and the run goes on", async () => {
    // The flat pull pipeline of the next test (RSS 56–57 MB, a snapshot needing 66–67 MB more under a
    // 100 MB budget): rxjs-from at 130 MB left a few MB, and beside two busy loops the run itself
    // reached the budget (busy CI, 2026-12-03).
    const p: StreamsParams = { ...DEFAULT_STREAMS_PARAMS, sizeMb: 32, delayMs: 5, budgetMb: 100, timeoutS: 60, heapProfile: true, heapSnapshot: 'at=1' };
    const s = await startStreamsRun({ runId: `heap-snap-${++seq}`, strategy: 'pipeline-generator', params: p, file }).done;
    expect([s.outcome, s.reason]).toEqual(['completed', null]);
    const [snap] = s.heapSnapshots!;
    expect(snap).toMatchObject({ n: 1, pauseMs: 0, bytes: 0, analysis: null });
    expect(snap.error).toMatch(
      /^refused: a snapshot needs memory of its own in the run's process \(about \d+ MB here: 5× heapUsed \+ 40 MB, measured\); with RSS at \d+ MB it would pass the run's 100 MB budget$/,
    );
  });

  it('a refused Snapshot now is answered, not recorded: asking again and again never grows the summary', async () => {
    // A pull pipeline: its RSS stays flat, 56–57 MB here quiet and beside two busy loops (2026-11-28),
    // 43 MB under the 100 MB budget, while a snapshot needs 66–67 MB more (5× heapUsed + 40 MB,
    // heap-watch.ts): every ask is refused, with 20 MB and more of margin both ways. (rxjs-from,
    // holding the file, left a few MB, which busy 45 crossed one way and a quiet run the other.)
    const p: StreamsParams = { ...DEFAULT_STREAMS_PARAMS, sizeMb: 32, delayMs: 5, budgetMb: 100, timeoutS: 60, heapProfile: true };
    const answers: Array<Promise<HeapSnapshotSummary>> = [];
    let samples = 0;
    const handle = startStreamsRun({
      runId: `heap-snap-${++seq}`,
      strategy: 'pipeline-generator',
      params: p,
      file,
      onSample: () => {
        // Mid-run: the heap profile is on and the pipeline is in its steady state.
        if (++samples !== 10) return;
        for (let i = 0; i < 25; i++) answers.push(handle.snapshot());
      },
    });
    const s = await handle.done;
    expect([s.outcome, s.reason]).toEqual(['completed', null]);
    const got = await Promise.all(answers);
    expect(got).toHaveLength(25);
    for (const a of got) expect([a.n, a.error?.slice(0, 46)]).toEqual([0, 'refused: a snapshot needs memory of its own in']);
    expect(s.heapSnapshots).toBeUndefined();
  });
});
