/** HTTP run summaries for the verdict tests, with the figures real runs recorded (the fields a verdict reads). */
import type { Measured } from '../../../lib/protocol';
import type { HttpSummary } from '../shared/schema';
import { makeHttpSummary } from '../../../lib/test-fixtures';

type Recorded = Pick<HttpSummary, 'strategy' | 'peakWritableBytes' | 'latencyP50Ms' | 'ttfbP50Ms' | 'transferP50Ms'> & {
  heapUsed: number;
  aboveIdleHeapUsed: number;
};

const params = { rows: 100_000, requests: 40, concurrency: 10, slowClients: 4 };

function recorded({ heapUsed, aboveIdleHeapUsed, ...rest }: Recorded, i: number): Measured<HttpSummary> {
  return makeHttpSummary({
    ...rest,
    runId: `rec-${i}`,
    peak: { heapUsed },
    aboveIdle: { rss: 0, heapTotal: 0, heapUsed: aboveIdleHeapUsed, external: 0, arrayBuffers: 0 },
    params,
    rows: params.rows,
    requestsPlanned: 44,
    responsesOk: 44,
  });
}

// Recorded on Node 20.20.2 (2 cores) with
//   npm run bench -- --lab http --strategies all --rows 100000 --requests 40 --concurrency 10 --slow-clients 4 --json
export const RECORDED_HTTP = [
  {
    strategy: 'buffered-json',
    heapUsed: 749818976,
    aboveIdleHeapUsed: 741538336,
    peakWritableBytes: 67914392,
    latencyP50Ms: 3050.9,
    ttfbP50Ms: 2480.9,
    transferP50Ms: 729.8,
  },
  {
    strategy: 'ndjson-all-rows',
    heapUsed: 401380024,
    aboveIdleHeapUsed: 393087136,
    peakWritableBytes: 226758,
    latencyP50Ms: 3228.7,
    ttfbP50Ms: 3094.8,
    transferP50Ms: 133.9,
  },
  {
    strategy: 'ndjson-cursor',
    heapUsed: 64749800,
    aboveIdleHeapUsed: 56249920,
    peakWritableBytes: 151172,
    latencyP50Ms: 4663.7,
    ttfbP50Ms: 606.9,
    transferP50Ms: 2409.4,
  },
  {
    strategy: 'json-array-cursor',
    heapUsed: 66694856,
    aboveIdleHeapUsed: 58192256,
    peakWritableBytes: 151172,
    latencyP50Ms: 4931.1,
    ttfbP50Ms: 607.2,
    transferP50Ms: 2752.2,
  },
  {
    strategy: 'write-ignoring-drain',
    heapUsed: 97509512,
    aboveIdleHeapUsed: 89014760,
    peakWritableBytes: 7898761,
    latencyP50Ms: 7765.5,
    ttfbP50Ms: 263.9,
    transferP50Ms: 7569.2,
  },
].map(recorded);
