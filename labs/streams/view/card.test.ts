/** The streams card's figures: records per second on every run, the consumer's own only for runs with that consumer. */
import { describe, expect, it } from 'vitest';
import type { RunState, Sample } from '@/lib/protocol';
import { makeSample, makeSummary } from '@/lib/test-fixtures';
import { DEFAULT_STREAMS_PARAMS } from '../shared/params';
import type { StreamsParams } from '../shared/params';
import { streamsCard } from './card';

const ids = (figures: ReadonlyArray<{ id: string }>) => figures.map((f) => f.id);
const byId = (figures: ReturnType<typeof streamsCard.figures>, id: string) => figures.find((f) => f.id === id)!;

/** A running run's context: its params and samples one second apart. */
function running(params: Partial<StreamsParams>, samples: Sample[]) {
  const run = { lab: 'streams', params: { ...DEFAULT_STREAMS_PARAMS, ...params } } as Pick<RunState, 'lab' | 'params'>;
  return { run, samples };
}

describe('streamsCard.figures', () => {
  it('gives a finished sleep run its records per second and no consumer figures', () => {
    const s = makeSummary({ records: 120_000, recordsPerSec: 20_000, params: { consumer: 'sleep' } });
    const figures = streamsCard.figures(s, undefined, undefined);
    expect(ids(figures)).toEqual(['el-delay', 'array-buffers', 'rss-outside', 'records-per-sec']);
    expect(byId(figures, 'records-per-sec')).toMatchObject({ value: 20_000, text: '20,000', kind: 'overall' });
  });

  it('leaves records per second out for a run recorded before records were counted', () => {
    expect(ids(streamsCard.figures(makeSummary(), undefined, undefined))).not.toContain('records-per-sec');
  });

  it('reads a running run’s records per second from its recent samples', () => {
    const samples = [makeSample({ t: 0, records: 0 }), makeSample({ t: 1000, records: 1500 }), makeSample({ t: 2000, records: 3500 })];
    const figures = streamsCard.figures(null, samples.at(-1), undefined, null, running({}, samples));
    expect(byId(figures, 'records-per-sec')).toMatchObject({ value: 1750, text: '1,750', kind: 'now' });
    expect(ids(figures)).not.toContain('api-in-flight');
  });

  it('shows a running http run’s calls in flight, pool queue and errors from its latest sample', () => {
    const samples = [makeSample({ t: 0, records: 0 }), makeSample({ t: 500, records: 40, apiInFlight: 8, apiQueued: 3, apiErrors: 2 })];
    const figures = streamsCard.figures(null, samples.at(-1), undefined, null, running({ consumer: 'http', concurrency: 11 }, samples));
    expect(ids(figures).slice(-4)).toEqual(['records-per-sec', 'api-in-flight', 'api-queued', 'api-errors']);
    expect([8, 3, 2]).toEqual(['api-in-flight', 'api-queued', 'api-errors'].map((id) => byId(figures, id).value));
    expect(byId(figures, 'records-per-sec').text).toBe('80.0');
  });

  it('shows a finished http run’s peaks, API latency and errors of its calls', () => {
    const s = makeSummary({
      params: { consumer: 'http' },
      recordsPerSec: 950.4,
      peakInFlight: 8,
      apiCalls: 4000,
      apiErrors: 12,
      apiP50Ms: 2.04,
      apiP99Ms: 48.6,
      peakApiQueued: 5,
    });
    const figures = streamsCard.figures(s, undefined, undefined);
    expect(figures.slice(-5).map((f) => [f.id, f.text, f.kind])).toEqual([
      ['records-per-sec', '950', 'overall'],
      ['api-in-flight', '8', 'peak'],
      ['api-queued', '5', 'peak'],
      ['api-latency', '2.0 ms / 48.6 ms', 'overall'],
      ['api-errors', '12 of 4,000', 'total'],
    ]);
  });

  it('shows a postgres run’s inserts per second and rows, live and once ended', () => {
    const samples = [makeSample({ t: 0, dbRows: 0 }), makeSample({ t: 2000, dbRows: 10_000 })];
    const live = streamsCard.figures(null, samples.at(-1), undefined, null, running({ consumer: 'postgres' }, samples));
    expect(live.slice(-2).map((f) => [f.id, f.term, f.value])).toEqual([
      ['inserts-per-sec', 'Inserts/s', 5000],
      ['db-rows', 'Rows committed', 10_000],
    ]);
    const ended = streamsCard.figures(
      makeSummary({ params: { consumer: 'postgres' }, recordsPerSec: 4000, dbRows: 24_001, insertsPerSec: 4000.2 }),
      undefined,
      undefined,
    );
    expect(ended.slice(-2).map((f) => [f.id, f.term, f.text, f.kind])).toEqual([
      ['inserts-per-sec', 'Inserts/s', '4,000', 'overall'],
      ['db-rows', 'Rows checked', '24,001', 'total'],
    ]);
  });
});
