import { describe, expect, it } from 'vitest';
import { MIB } from '../../../lib/protocol/params';
import { makeHttpSummary as summary } from '../../../lib/test-fixtures';
import { httpVerdict } from './verdict';
import type { Measured } from '../../../lib/protocol';
import type { HttpSummary } from '../shared/schema';
import { traitsOf } from '../../test-traits';
import { RECORDED_HTTP } from './verdict.fixtures';
import { verdictOf } from '../../verdict-of';
import { commonVerdict } from '../../../lib/readouts/outcome-text';

/** The sentence of a run's verdict, as the card shows it. */
const verdictFor = (...args: Parameters<typeof verdictOf>) => verdictOf(...args).text;

/** The lab's verdict with the run's strategy's declared traits (labs/test-traits.ts). */
const verdict = (s: Measured<HttpSummary>, others: readonly Measured<HttpSummary>[] = []) => httpVerdict(s, others, traitsOf(s)).text;

// A 100,000-row experiment as the lab runs it: the buffered baseline and the runs measured against it.
const buffered = summary({
  runId: 'b',
  strategy: 'buffered-json',
  peak: { heapUsed: 420 * MIB },
  aboveIdle: { rss: 0, heapTotal: 0, heapUsed: 410 * MIB, external: 0, arrayBuffers: 0 },
  latencyP50Ms: 300,
  ttfbP50Ms: 280,
  transferP50Ms: 20,
  params: { rows: 100_000 },
  rows: 100_000,
});
const cursor = summary({
  runId: 'c',
  strategy: 'ndjson-cursor',
  peak: { heapUsed: 60 * MIB },
  latencyP50Ms: 1200,
  ttfbP50Ms: 4,
  params: { rows: 100_000 },
  rows: 100_000,
});

describe('httpVerdict, compared with buffered-json', () => {
  it('says how much streaming lowered the heap and what it did to latency', () => {
    expect(verdict(cursor, [buffered, cursor])).toBe(
      'Compared with buffered-json, streaming the response lowered peak heap 7× (60 MB vs 420 MB) and raised p50 latency 4× ' +
        '(1200 ms vs 300 ms); first bytes after 4.0 ms (buffered-json: 280 ms).',
    );
  });

  it('says so plainly when the cursor’s heap was not lower', () => {
    const same = summary({ runId: 'c', strategy: 'json-array-cursor', peak: { heapUsed: 11 * MIB }, latencyP50Ms: 22 });
    const base = summary({ runId: 'b', peak: { heapUsed: 9 * MIB }, aboveIdle: { rss: 0, heapTotal: 0, heapUsed: 2 * MIB, external: 0, arrayBuffers: 0 } });
    expect(verdict(same, [base])).toBe(
      "Not what streaming should show: json-array-cursor's peak heap was not lower than buffered-json's (11 MB vs 9.0 MB); it left p50 " +
        "latency about the same (22.0 ms vs 20.0 ms). buffered-json's heap grew only 2.0 MB above idle: its responses are too small to " +
        "stand out from the server's own heap; try more rows or more clients at once.",
    );
  });

  it('calls a heap only 1.5× lower "only" lower, not lowered', () => {
    const near = summary({ runId: 'c', strategy: 'ndjson-cursor', peak: { heapUsed: 280 * MIB }, latencyP50Ms: 100 });
    expect(verdict(near, [buffered])).toBe(
      "Not what streaming should show: ndjson-cursor's peak heap was only 1.5× lower than buffered-json's (280 MB vs 420 MB); it lowered p50 latency 3× (100 ms vs 300 ms).",
    );
  });

  it('tells ndjson-all-rows it streamed out but buffered in when its heap stayed near the baseline', () => {
    const allRows = summary({ runId: 'a', strategy: 'ndjson-all-rows', peak: { heapUsed: 380 * MIB } });
    expect(verdict(allRows, [buffered])).toBe(
      "ndjson-all-rows streamed out but buffered in: its peak heap was only 1.1× lower than buffered-json's (380 MB vs 420 MB), " +
        'because every row is in memory before the first line is written.',
    );
    const higher = summary({ runId: 'a', strategy: 'ndjson-all-rows', peak: { heapUsed: 500 * MIB } });
    expect(verdict(higher, [buffered])).toContain("its peak heap was not lower than buffered-json's (500 MB vs 420 MB)");
  });

  it('says ndjson-all-rows contradicted the lesson when its heap was far lower', () => {
    const low = summary({ runId: 'a', strategy: 'ndjson-all-rows', peak: { heapUsed: 100 * MIB } });
    expect(verdict(low, [buffered])).toBe(
      "Not what this strategy should show: ndjson-all-rows reads every row before writing, yet its peak heap was 4.2× lower than buffered-json's (100 MB vs 420 MB).",
    );
  });

  it('ignores a baseline that did not complete, and the run itself', () => {
    const failed = { ...buffered, outcome: 'out-of-memory' as const };
    expect(verdict(cursor, [failed])).toBe(
      'Served 20 responses of 100,000 rows from a cursor, 4 at once: heapUsed peaked at 60 MB, p50 latency 1200 ms, first bytes after 4.0 ms. ' +
        'Run buffered-json beside it to compare.',
    );
    expect(verdict(buffered, [buffered])).toBe(
      'Served 20 responses of 100,000 rows, 4 at once: heapUsed peaked at 420 MB, p50 latency 300 ms, 280 ms of it before the first byte: ' +
        'every body is built whole in memory before anything is sent.',
    );
  });
});

describe('httpVerdict on socket buffers', () => {
  const slow = { slowClients: 4, slowKbps: 256 };
  const pull = summary({ runId: 'c', strategy: 'ndjson-cursor', peakWritableBytes: 0.9 * MIB, params: slow });

  it('compares write-ignoring-drain’s socket buffers with the cursor’s', () => {
    const drain = summary({ runId: 'd', strategy: 'write-ignoring-drain', peakWritableBytes: 180 * MIB, params: slow });
    expect(verdict(drain, [pull, drain])).toBe(
      'write-ignoring-drain held 180 MB in socket buffers with 4 slow clients reading 256 KB/s each; ndjson-cursor at most 0.9 MB.',
    );
  });

  it('says so when ignoring drain piled up nothing much more than the cursor did', () => {
    const drain = summary({ runId: 'd', strategy: 'write-ignoring-drain', peakWritableBytes: 1.5 * MIB, params: slow });
    expect(verdict(drain, [pull])).toBe(
      "Not what ignoring drain should show: with 4 slow clients reading 256 KB/s each, write-ignoring-drain's socket buffers peaked at 1.5 MB, not much more than ndjson-cursor's 0.9 MB.",
    );
  });

  it('explains that without slow clients there is nothing to pile up', () => {
    const drain = summary({ runId: 'd', strategy: 'write-ignoring-drain', peakWritableBytes: 64 * 1024 });
    expect(verdict(drain, [])).toBe(
      'With no slow clients every response was read as fast as it was written, so ignoring drain cost little: socket buffers peaked at 0.06 MB. Add slow clients to see the difference.',
    );
  });

  it('says how much of the buffered bodies waited in socket buffers for slow clients', () => {
    const base = { ...buffered, params: { ...buffered.params, ...slow }, peakWritableBytes: 65 * MIB };
    expect(verdict(base, [])).toMatch(
      /before anything is sent\. With 4 slow clients reading 256 KB\/s each, res\.end handed their whole bodies to the sockets: up to 65 MB waited there\.$/,
    );
    expect(verdict({ ...base, peakWritableBytes: 0.2 * MIB }, [])).toMatch(/before anything is sent\.$/);
  });

  it('adds the cursor’s own socket buffers to its verdict when slow clients read', () => {
    expect(verdict({ ...cursor, params: { ...cursor.params, ...slow }, peakWritableBytes: 0.5 * MIB }, [buffered])).toMatch(
      /first bytes after 4\.0 ms \(buffered-json: 280 ms\); it held at most 0\.5 MB in socket buffers with 4 slow clients reading 256 KB\/s each\.$/,
    );
  });
});

describe('httpVerdict for runs that did not complete', () => {
  it('counts the responses that came back right', () => {
    const lost = summary({ outcome: 'data-lost', responsesOk: 18, badResponses: 2, reason: '2 of 20 responses were wrong or missing' });
    expect(verdict(lost)).toBe('Only 18 of 20 responses came back complete and right (2 wrong): 2 of 20 responses were wrong or missing.');
  });

  it('names the budget an out-of-memory run passed', () => {
    const oom = summary({
      outcome: 'out-of-memory',
      responsesOk: 3,
      peak: { rss: 300 * MIB, heapUsed: 200 * MIB },
      peakOpenResponses: 20,
      params: { budgetMb: 256 },
    });
    expect(verdict(oom)).toBe(
      'Out of memory: RSS reached 300 MB and passed the 256 MB memory budget with up to 20 responses open, after 3 of 20 responses; heapUsed peaked at 200 MB.',
    );
  });

  it('tells a run stopped before it started from one stopped on the way', () => {
    expect(verdict(summary({ outcome: 'stopped', responsesOk: 0, sampleCount: 0 }))).toBe('Stopped before it started: nothing was measured.');
    expect(verdict(summary({ outcome: 'stopped', responsesOk: 7, durationMs: 2500 }))).toBe(
      'Stopped after 2.5 s with 7 of 20 responses served; heapUsed peaked at 9.0 MB.',
    );
  });

  it('is what verdictFor answers for an HTTP summary, with the experiment’s other runs', () => {
    expect(verdictFor(cursor, traitsOf(cursor), [buffered])).toBe(verdict(cursor, [buffered]));
    expect(verdictFor(summary({ outcome: 'crashed', responsesOk: 5, reason: 'killed by SIGSEGV.' }))).toBe(
      'Crashed after 5 of 20 responses: killed by SIGSEGV.',
    );
  });
});

describe('httpVerdict on a recorded experiment (100,000 rows, 40 requests, 10 clients, 4 slow clients)', () => {
  const [base, allRows, ndjson, array, drain] = RECORDED_HTTP;
  const recorded = (s: (typeof RECORDED_HTTP)[number]) => httpVerdict(s, RECORDED_HTTP, traitsOf(s)).text;

  it('tells each strategy what its own figures showed', () => {
    expect(recorded(base)).toBe(
      'Served 44 responses of 100,000 rows, 10 at once: heapUsed peaked at 715 MB, p50 latency 3051 ms, 2481 ms of it before the first byte: ' +
        'every body is built whole in memory before anything is sent. With 4 slow clients reading 256 KB/s each, res.end handed their whole ' +
        'bodies to the sockets: up to 64.8 MB waited there.',
    );
    expect(recorded(allRows)).toBe(
      "ndjson-all-rows streamed out but buffered in: its peak heap was only 1.9× lower than buffered-json's (383 MB vs 715 MB), because every row is in memory before the first line is written.",
    );
    expect(recorded(ndjson)).toBe(
      'Compared with buffered-json, streaming the response lowered peak heap 12× (61.8 MB vs 715 MB) and raised p50 latency 1.5× (4664 ms vs 3051 ms); ' +
        'first bytes after 607 ms (buffered-json: 2481 ms); it held at most 0.2 MB in socket buffers with 4 slow clients reading 256 KB/s each.',
    );
    expect(recorded(array)).toMatch(/^Compared with buffered-json, streaming the response lowered peak heap 11× \(63.6 MB vs 715 MB\)/);
    expect(recorded(drain)).toBe('write-ignoring-drain held 7.5 MB in socket buffers with 4 slow clients reading 256 KB/s each; ndjson-cursor at most 0.2 MB.');
  });
});

describe('commonVerdict, for a lab without a verdict of its own', () => {
  it('says how the run ended in the figures every lab has', () => {
    const run = summary({ durationMs: 5200, peak: { heapUsed: 12 * MIB, rss: 80 * MIB }, procPeakRss: 81 * MIB });
    expect(commonVerdict(run).text).toBe('Completed in 5.2 s: heapUsed peaked at 12 MB, RSS at 81 MB, event-loop delay at most 25.0 ms.');
    expect(commonVerdict({ ...run, outcome: 'crashed', reason: 'exit code 1.' }).text).toBe('Crashed after 5.2 s: exit code 1.');
  });
});

describe('the verdict’s expected and figures', () => {
  const judged = (s: Measured<HttpSummary>, others: readonly Measured<HttpSummary>[] = []) => httpVerdict(s, others, traitsOf(s));

  it('confirms every strategy of the recorded experiment: each showed what it is there to show', () => {
    for (const s of RECORDED_HTTP) expect(judged(s, RECORDED_HTTP).expected, s.strategy).toBe(true);
  });

  it('quotes its own figures and the compared run’s under that run’s strategy id, in bytes and ms', () => {
    const [base, , ndjson] = RECORDED_HTTP;
    const { figures } = judged(ndjson, RECORDED_HTTP);
    expect(figures).toMatchObject({
      'peak.heapUsed': ndjson.peak.heapUsed,
      'buffered-json.peak.heapUsed': base.peak.heapUsed,
      heapRatio: base.peak.heapUsed / ndjson.peak.heapUsed,
      latencyP50Ms: ndjson.latencyP50Ms,
      'buffered-json.latencyP50Ms': base.latencyP50Ms,
      ttfbP50Ms: ndjson.ttfbP50Ms,
      peakWritableBytes: ndjson.peakWritableBytes,
    });
  });

  it('contradicts a cursor whose heap was not lower, ignoring drain that piled up nothing, and buffering in that stayed low', () => {
    const near = summary({ runId: 'c', strategy: 'ndjson-cursor', peak: { heapUsed: 280 * MIB }, latencyP50Ms: 100 });
    expect(judged(near, [buffered]).expected).toBe(false);
    const slow = { slowClients: 4, slowKbps: 256 };
    const pull = summary({ runId: 'c', strategy: 'ndjson-cursor', peakWritableBytes: 0.9 * MIB, params: slow });
    expect(judged(summary({ runId: 'd', strategy: 'write-ignoring-drain', peakWritableBytes: 1.5 * MIB, params: slow }), [pull]).expected).toBe(false);
    // Alone, with slow clients reading, under a MiB queued is "too little to show a pile-up".
    expect(judged(summary({ runId: 'd', strategy: 'write-ignoring-drain', peakWritableBytes: 0.3 * MIB, params: slow })).expected).toBe(false);
    const low = summary({ runId: 'a', strategy: 'ndjson-all-rows', peak: { heapUsed: 60 * MIB } });
    expect(judged(low, [buffered]).expected).toBe(false);
  });

  it('counts an outcome worse than completed as not expected', () => {
    expect(judged(summary({ strategy: 'ndjson-cursor', outcome: 'crashed', responsesOk: 5, reason: 'killed by SIGSEGV.' })).expected).toBe(false);
    expect(judged(summary({ strategy: 'buffered-json', outcome: 'out-of-memory' })).expected).toBe(false);
  });

  it('cannot tell without the run it compares with, without slow clients, without the catalog, or for a stopped run', () => {
    expect(judged(cursor).expected).toBeNull();
    expect(judged(summary({ runId: 'a', strategy: 'ndjson-all-rows' })).expected).toBeNull();
    expect(judged(summary({ runId: 'd', strategy: 'write-ignoring-drain', peakWritableBytes: 64 * 1024 })).expected).toBeNull();
    expect(httpVerdict(cursor, [buffered], undefined).expected).toBeNull();
    expect(judged(summary({ strategy: 'ndjson-cursor', outcome: 'stopped', responsesOk: 3 })).expected).toBeNull();
  });
});
