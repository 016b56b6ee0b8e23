import { describe, expect, it } from 'vitest';
import { observedSchema, observeSeries, parseListQuery, parsePoints, parseRunIds, RECORD_FORMAT, runRecordSchema } from '.';
import { runStateSchema, summarySchema } from '../protocol';
import { DEFAULT_STREAMS_PARAMS } from '../../labs/streams/shared/params';
import { DEFAULT_HTTP_PARAMS } from '../../labs/http/shared/params';
import { parseSamplesCsv, samplesToCsv } from './export';
import { makeHttpSample, makeSample } from '../test-fixtures';

describe('history query parameters', () => {
  it('accepts 2–8 distinct run ids and names the field and range otherwise', () => {
    expect(parseRunIds('r-0000000001, r-00000000ab')).toEqual({ ok: true, value: ['r-0000000001', 'r-00000000ab'] });
    expect(parseRunIds('r-0000000001')).toEqual({ ok: false, error: 'ids must list between 2 and 8 run ids, comma-separated (got 1)' });
    expect(parseRunIds(null)).toEqual({ ok: false, error: 'ids must list between 2 and 8 run ids, comma-separated (got 0)' });
    expect(parseRunIds('r-0000000001,../etc')).toEqual({ ok: false, error: 'ids: "../etc" is not a run id like r-0123456789' });
  });

  it('validates list filters and points', () => {
    expect(parseListQuery(new URLSearchParams('strategy=rxjs-from&outcome=interrupted'))).toEqual({
      ok: true,
      value: { lab: null, strategy: 'rxjs-from', outcome: 'interrupted', owner: null },
    });
    expect(parseListQuery(new URLSearchParams(''))).toEqual({ ok: true, value: { lab: null, strategy: null, outcome: null, owner: null } });
    expect(parseListQuery(new URLSearchParams('lab=http'))).toEqual({ ok: true, value: { lab: 'http', strategy: null, outcome: null, owner: null } });
    expect(parseListQuery(new URLSearchParams('lab=nope'))).toEqual({ ok: false, error: 'lab must be one of streams, http, cpu, deadline, hotcode' });
    // Strategy ids are camel-cased after their operator (ixjs-toArray): the filter must take them.
    expect(parseListQuery(new URLSearchParams('strategy=ixjs-toArray'))).toEqual({
      ok: true,
      value: { lab: null, strategy: 'ixjs-toArray', outcome: null, owner: null },
    });
    // One browser's runs, by its public owner id (what an empty dashboard asks for); nothing else passes.
    expect(parseListQuery(new URLSearchParams('owner=b-0123456789abcdef'))).toEqual({
      ok: true,
      value: { lab: null, strategy: null, outcome: null, owner: 'b-0123456789abcdef' },
    });
    expect(parsePoints('2.5')).toEqual({ ok: false, error: 'points must be a whole number between 10 and 20000' });
    expect(parsePoints(null)).toEqual({ ok: true, value: 4000 });
  });
});

describe('sample CSV', () => {
  it('round-trips awkward numbers exactly', () => {
    const samples = [
      makeSample({ t: 0.1 + 0.2, at: 1_712_345_678_901.5, rss: 123_456_789, elMeanMs: 1 / 3, gcMs: 1e-7, heapUsed: 2 ** 53 - 1 }),
      makeSample({ t: 50, rss: 5e-324, external: 1.7976931348623157e308 }),
    ];
    expect(parseSamplesCsv(samplesToCsv(samples))).toEqual(samples);
  });

  it('names the line and column of a value that is not a number', () => {
    const csv = samplesToCsv([makeSample()]).replace(/\n0,/, '\nx,');
    expect(() => parseSamplesCsv(csv)).toThrow('CSV line 2, column t: "x" is not a number');
  });
});

describe('observeSeries', () => {
  it('reads a record made before labs, whose observed figures had bytesRead/bytesProcessed beside the peaks', () => {
    const legacy = {
      peak: { rss: 1, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 },
      procPeakRss: 2,
      bytesRead: 8,
      bytesProcessed: 6,
      lastT: 3,
      sampleCount: 4,
      procCount: 5,
    };
    expect(observedSchema.parse(legacy)).toEqual({
      peak: legacy.peak,
      procPeakRss: 2,
      readings: { bytesRead: 8, bytesProcessed: 6 },
      lastT: 3,
      sampleCount: 4,
      procCount: 5,
    });
  });

  it('takes peaks and progress from the samples', () => {
    const o = observeSeries(
      [makeSample({ t: 10, rss: 5, arrayBuffers: 9, bytesProcessed: 1 }), makeSample({ t: 20, rss: 7, arrayBuffers: 2, bytesProcessed: 4 })],
      [{ t: 0, at: 0, rss: 11 }],
    );
    expect(o).toEqual({
      peak: { rss: 7, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 9 },
      procPeakRss: 11,
      readings: { bytesRead: 0, bytesProcessed: 4, chunks: 0, inFlight: 0, readableLength: 0 },
      lastT: 20,
      sampleCount: 2,
      procCount: 1,
    });
  });

  it('keeps peaks null, not zeros, when nothing was stored', () => {
    expect(observeSeries([], [])).toMatchObject({ peak: null, procPeakRss: null, sampleCount: 0, procCount: 0 });
  });
});

describe('summaries recorded before unmeasured peaks were null', () => {
  const summary = (patch: object) => ({
    lab: 'streams',
    runId: 'r-0000000001',
    strategy: 'for-await',
    outcome: 'stopped',
    reason: 'stopped by the user before it started',
    durationMs: 0,
    peak: { rss: 0, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 },
    idle: null,
    aboveIdle: null,
    procPeakRss: 0,
    eventLoopDelayMs: { p50: 0, p99: 0, max: 0 },
    gc: { count: 0, totalMs: 0 },
    sampleCount: 0,
    nodeVersion: '22.0.0',
    library: { name: 'node', version: '22.0.0' },
    params: DEFAULT_STREAMS_PARAMS,
    startedAt: 1,
    fileBytes: 0,
    bytesRead: 0,
    bytesProcessed: 0,
    chunks: 0,
    mbPerSec: 0,
    peakBufferedBytes: 0,
    peakInFlight: 0,
    ...patch,
  });

  it('reads their zero peaks (no process has an RSS of 0) as not measured', () => {
    expect(summarySchema.parse(summary({}))).toMatchObject({ peak: null, procPeakRss: null });
    expect(observedSchema.parse({ peak: summary({}).peak, procPeakRss: 0, readings: {}, lastT: 0, sampleCount: 0, procCount: 0 })).toMatchObject({
      peak: null,
      procPeakRss: null,
    });
  });

  it('keeps their measured peaks as they were', () => {
    const peak = { rss: 50e6, heapTotal: 8e6, heapUsed: 6e6, external: 1e6, arrayBuffers: 0 };
    expect(summarySchema.parse(summary({ peak, procPeakRss: 51e6, sampleCount: 3 }))).toMatchObject({ peak, procPeakRss: 51e6 });
  });
});

describe('sample CSV of the HTTP lab', () => {
  it('writes the lab’s own readings, told by the samples themselves, and reads them back', () => {
    const samples = [makeHttpSample({ t: 50, heapUsed: 9e6, writableBytes: 65_536, reqPerSec: 19.5, latencyP99Ms: 123.25, loadCpuPct: 80 })];
    const csv = samplesToCsv(samples);
    const header = csv.split('\n')[0].split(',');
    expect(header).toEqual(expect.arrayContaining(['writableBytes', 'openResponses', 'reqPerSec', 'latencyP50Ms', 'loadCpuPct']));
    expect(header).not.toContain('bytesProcessed');
    expect(parseSamplesCsv(csv)).toEqual(samples);
  });

  it('takes the lab from the caller when given', () => {
    expect(samplesToCsv([], 'http').split('\n')[0]).toContain('writableBytes');
    expect(samplesToCsv([]).split('\n')[0]).toContain('bytesProcessed');
  });
});

describe('run states written before preparedUnits was named', () => {
  const state = {
    lab: 'http',
    id: 'r-0000000001',
    experimentId: 'e-0000000001',
    strategy: 'ndjson-cursor',
    params: { ...DEFAULT_HTTP_PARAMS },
    status: 'completed',
    queuedAt: 1,
    startedAt: 2,
    pid: null,
    summary: null,
  };

  it('read their fileBytes as preparedUnits, in a stored record and in a protocol message', () => {
    const record = runRecordSchema.parse({
      format: RECORD_FORMAT,
      run: { ...state, fileBytes: 20 },
      experiment: null,
      versions: { node: '20.20.2', library: { name: 'pg', version: '8.0.0' } },
      recordedAt: 1,
      endedAt: 3,
      observed: null,
      notes: [],
    });
    expect(record.run.preparedUnits).toBe(20);
    expect(record.run).not.toHaveProperty('fileBytes');
    expect(runStateSchema.parse({ ...state, fileBytes: 7 }).preparedUnits).toBe(7);
  });

  it('read the new name as it is, and refuse a state with neither', () => {
    expect(runStateSchema.parse({ ...state, preparedUnits: 5 }).preparedUnits).toBe(5);
    expect(runStateSchema.safeParse(state).success).toBe(false);
  });
});
