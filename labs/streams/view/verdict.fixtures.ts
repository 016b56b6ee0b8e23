/** Run summaries for the verdict tests: a synthetic base and figures recorded from real runs. */
import { MIB } from '../../../lib/protocol/params';
import { DEFAULT_STREAMS_PARAMS } from '../shared/params';
import type { Measured } from '../../../lib/protocol';
import type { StreamsSummary } from '../shared/schema';
import { makeSummary } from '../../../lib/test-fixtures';

export const FILE = 32 * MIB;

/** The shared summary fixture (lib/test-fixtures.ts): a completed 32 MiB run; each test overrides what it is about. */
export const summary = makeSummary;

const MB16 = 16 * MIB;

type Figures = Pick<Measured<StreamsSummary>, 'strategy' | 'peak' | 'peakBufferedBytes' | 'peakInFlight' | 'sampleCount'> & {
  heapGrowth: number;
  retained?: boolean;
};

/** A 16 MiB, 2 ms/chunk run with the figures a real run recorded (the fields a verdict reads). */
function recorded(f: Figures): Measured<StreamsSummary> {
  const { heapGrowth, retained = false, ...rest } = f;
  return summary({
    ...rest,
    fileBytes: MB16,
    bytesRead: MB16,
    bytesProcessed: MB16,
    aboveIdle: { rss: 0, heapTotal: 0, heapUsed: heapGrowth, external: 0, arrayBuffers: 0 },
    params: { ...DEFAULT_STREAMS_PARAMS, sizeMb: 16, delayMs: 2, retained },
  });
}

// Figures recorded on Node 20.20.2 with
//   npm run bench -- --strategies ixjs-from,web-streams,ixjs-toArray --size-mb 16 --delay-ms 2 --json
// and the same command with --retained (peaks in bytes; heapGrowth = aboveIdle.heapUsed).
export const DEFAULT_MODE = {
  ixjsFrom: recorded({
    strategy: 'ixjs-from',
    peak: { rss: 90132480, heapTotal: 43491328, heapUsed: 18730328, external: 13051430, arrayBuffers: 11151771 },
    heapGrowth: 10653952,
    peakBufferedBytes: 131072,
    peakInFlight: 1,
    sampleCount: 19,
  }),
  webStreams: recorded({
    strategy: 'web-streams',
    peak: { rss: 77721600, heapTotal: 58548224, heapUsed: 25997736, external: 3693990, arrayBuffers: 1649051 },
    heapGrowth: 21054504,
    peakBufferedBytes: 196608,
    peakInFlight: 1,
    sampleCount: 42,
  }),
  toArray: recorded({
    strategy: 'ixjs-toArray',
    peak: { rss: 98906112, heapTotal: 60268544, heapUsed: 23248224, external: 13247745, arrayBuffers: 11348379 },
    heapGrowth: 15041448,
    peakBufferedBytes: 131072,
    peakInFlight: 1,
    sampleCount: 16,
  }),
};
export const RETAINED_MODE = {
  ixjsFrom: recorded({
    strategy: 'ixjs-from',
    retained: true,
    peak: { rss: 64339968, heapTotal: 15441920, heapUsed: 5660304, external: 3350941, arrayBuffers: 1386907 },
    heapGrowth: 418704,
    peakBufferedBytes: 131072,
    peakInFlight: 1,
    sampleCount: 19,
  }),
  toArray: recorded({
    strategy: 'ixjs-toArray',
    retained: true,
    peak: { rss: 84201472, heapTotal: 62365696, heapUsed: 22164544, external: 3154333, arrayBuffers: 1190299 },
    heapGrowth: 16915136,
    peakBufferedBytes: 131072,
    peakInFlight: 1,
    sampleCount: 20,
  }),
};
// npm run bench -- --strategies rxjs-from,rxjs-fromEvent,ixjs-flatMap,pipeline-generator --size-mb 16 --delay-ms 2 --json
// (recorded before #30, when ixjs-flatMap had no concurrency bound)
export const OTHERS = {
  rxjsFrom: recorded({
    strategy: 'rxjs-from',
    peak: { rss: 74797056, heapTotal: 11509760, heapUsed: 8869440, external: 17771113, arrayBuffers: 14625215 },
    heapGrowth: 1236432,
    peakBufferedBytes: 13893632,
    peakInFlight: 1,
    sampleCount: 13,
  }),
  flatMap: recorded({
    strategy: 'ixjs-flatMap',
    peak: { rss: 88801280, heapTotal: 45326336, heapUsed: 17718488, external: 10952799, arrayBuffers: 9054619 },
    heapGrowth: 9419784,
    peakBufferedBytes: 655360,
    peakInFlight: 26,
    sampleCount: 4,
  }),
  pipeline: recorded({
    strategy: 'pipeline-generator',
    peak: { rss: 55967744, heapTotal: 8888320, heapUsed: 5637952, external: 2837069, arrayBuffers: 993727 },
    heapGrowth: 1075576,
    peakBufferedBytes: 131072,
    peakInFlight: 1,
    sampleCount: 13,
  }),
};

// npm run bench -- --strategies rxjs-from,rxjs-fromEvent --size-mb 16 --delay-ms 2 --json (data-lost), and
// npm run bench -- --strategies rxjs-from --size-mb 16 --delay-ms 2 --budget-mb 64 --json (out-of-memory)
export const RECORDED_LOSSES = {
  fromEventLost: summary({
    strategy: 'rxjs-fromEvent',
    outcome: 'data-lost',
    fileBytes: MB16,
    bytesRead: MB16,
    bytesProcessed: 1245184,
    peak: { rss: 74690560, heapTotal: 11247616, heapUsed: 7872048, external: 17705290, arrayBuffers: 15804863 },
    params: { ...DEFAULT_STREAMS_PARAMS, sizeMb: 16, delayMs: 2 },
  }),
  fromOverBudget: summary({
    strategy: 'rxjs-from',
    outcome: 'out-of-memory',
    fileBytes: MB16,
    bytesProcessed: 0,
    peak: { rss: 57700352, heapTotal: 10461184, heapUsed: 7747952, external: 1911253, arrayBuffers: 10687 },
    procPeakRss: 72536064,
    params: { ...DEFAULT_STREAMS_PARAMS, sizeMb: 16, delayMs: 2, budgetMb: 64 },
  }),
};
