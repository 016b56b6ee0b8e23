import { describe, expect, it } from 'vitest';
import { DEFAULT_STREAMS_PARAMS as DEFAULT_PARAMS } from '../../labs/streams/shared/params';
import { DEFAULT_HTTP_PARAMS } from '../../labs/http/shared/params';
import { DEFAULT_CPU_PARAMS } from '../../labs/cpu/shared/params';
import { experimentParamsText, legendParamsText, runParamsText } from './params-text';

const streams = { lab: 'streams', params: { ...DEFAULT_PARAMS, sizeMb: 32, delayMs: 2, cpuUs: 500, retained: true }, parallel: false };
const http = { lab: 'http', params: { ...DEFAULT_HTTP_PARAMS, rows: 100_000, requests: 20, concurrency: 4, slowClients: 2, budgetMb: null }, parallel: false };

describe('params in words', () => {
  it('says what a streams experiment and run used, as the pages always have', () => {
    expect(experimentParamsText(streams)).toBe('32 MB file · 2 ms/chunk · 64 KB chunks · 500 µs CPU/chunk · budget 1024 MB · retained mode · one at a time');
    expect(runParamsText(streams)).toBe('32 MB · 2 ms/chunk · 64 KB chunks · 500 µs CPU · retained');
    expect(legendParamsText(streams)).toBe('32 MB, 2 ms');
  });

  it('names the consumer, the concurrency and records only when they are not the default', () => {
    const knobs = { ...streams, params: { ...streams.params, cpuUs: 0, retained: false, consumer: 'http' as const, concurrency: 8, records: true } };
    expect(runParamsText(knobs)).toBe('32 MB · 2 ms/record · 64 KB chunks · http consumer · concurrency 8 · records · API p99 50 ms');
    expect(legendParamsText(knobs)).toBe('32 MB, 2 ms, http, concurrency 8, records');
    const postgres = { ...knobs, params: { ...knobs.params, consumer: 'postgres' as const, concurrency: 1, records: false } };
    expect(runParamsText(postgres)).toBe('32 MB · 2 ms/chunk · 64 KB chunks · postgres consumer');
    // A run recorded before the knobs has none of them: it reads as it always did.
    const { consumer: _c, concurrency: _n, ...before } = DEFAULT_PARAMS;
    expect(runParamsText({ lab: 'streams', params: { ...before, sizeMb: 32, delayMs: 2 } })).toBe('32 MB · 2 ms/chunk · 64 KB chunks');
  });

  it('says what an HTTP experiment and run used, slow clients only when there are some', () => {
    expect(experimentParamsText(http)).toBe(
      '100,000-row table · 20 requests · 4 clients at once · 500 rows per write · 2 slow clients at 256 KB/s · no budget · one at a time',
    );
    expect(runParamsText({ ...http, params: { ...http.params, slowClients: 0 } })).toBe('100,000 rows · 20 requests · 4 at once');
    expect(legendParamsText(http)).toBe('100,000 rows, 4 at once');
  });
});

describe('params in words of a lab the pages have no form for', () => {
  it('still names the CPU lab’s work, so its runs can be told apart in lists', () => {
    const cpu = { lab: 'cpu', params: { ...DEFAULT_CPU_PARAMS, n: 38, requests: 8, workers: 2 }, parallel: false };
    expect(runParamsText(cpu)).toBe('fib(38) · 8 requests · 4 at once · 2 workers');
    expect(legendParamsText(cpu)).toBe('fib(38), 8 requests');
    expect(experimentParamsText(cpu)).toBe('fib(38) · 8 requests · 4 at once · 2 workers · budget 1024 MB · one at a time');
  });
});
